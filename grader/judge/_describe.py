"""Failures in words a student can read: the call's inputs (tensors by their layout, small
ones by value) and what a failing check says, without the grader's source. And the failing
call's inputs as data, for the feedback page's pictures (``grader.bridge._drawn_inputs``)."""

import math

import torch

from grader._errors import StudentError
from grader.judge._replay import unfinished

__all__ = ["describe_call", "describe_failure", "inputs_as_data"]

_VALUES_UP_TO = 12  # elements: a larger tensor is shown by its layout only
_LIMIT = 400  # characters of the whole line
_DETAIL_LIMIT = 600  # characters of a failure's whole description
# Numbers, tensors and lists in one failing input's data: a verdict is stored and shipped,
# and pictures need a few shapes (a list that does not fit is None, never cut short).
_MOST_ITEMS = 64
_LARGEST_INT = 2**63  # past it a number is no shape or stride (and JSON readers round it)


def _describe(value) -> str:
    if isinstance(value, torch.Tensor):
        dtype = str(value.dtype).removeprefix("torch.")
        layout = (f"shape={tuple(value.shape)}, stride={value.stride()}, "
                  f"offset={value.storage_offset()}, dtype={dtype}")
        small = value.device.type != "meta" and value.numel() <= _VALUES_UP_TO
        return f"tensor({value.tolist()}, {layout})" if small else f"tensor({layout})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(map(_describe, value))
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' * (len(value) == 1)})"
    if callable(value):
        return getattr(value, "__name__", "a function")
    return repr(value)


def describe_call(name: str, args: list, kwargs: dict) -> str:
    parts = [*map(_describe, args), *(f"{key}={_describe(v)}" for key, v in kwargs.items())]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= _LIMIT else text[:_LIMIT - 3] + "..."


def _example_from_notes(exc: BaseException, fixtures=()) -> str:
    # Hypothesis notes read "Failing test case: test_x(\n    arg=value,\n)"
    # ("Falsifying example" in older releases). Fixtures (the student's
    # functions) are not inputs: their repr would only show a memory address.
    for note in getattr(exc, "__notes__", []):
        if note.startswith(("Failing test case", "Falsifying example")):
            lines = [line.strip().rstrip(",") for line in note.splitlines()[1:-1]]
            return ", ".join(line for line in lines
                             if line.split("=", 1)[0] not in {"student", *fixtures})
    return ""


def describe_failure(exc: BaseException, fixtures=(), shrunk: bool = True) -> str:
    """What a failed hidden check tells the student: why, and the input it failed on
    (the smallest, where the judge shrinks failures: ``shrunk``)."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        # hypothesis wraps a failure that did not reproduce (FlakyFailure): name the first.
        return describe_failure(exc.exceptions[0], fixtures, shrunk)
    if isinstance(exc, StudentError):
        text = f"your code: {exc}"
    elif isinstance(exc, AssertionError):
        text = str(exc).split("\nassert ")[0] or "the answer disagrees with torch"
    else:
        text = f"the check could not run ({type(exc).__name__})"
    if unfinished(exc) and getattr(exc, "call", None):
        # The stub's call, as data: the same whether a search or a replayed example met it
        # (``_replay`` decides a stub from its recorded examples, with no search to note it).
        text += f"\nfailing input: {exc.call}"
    elif example := _example_from_notes(exc, fixtures):  # a stub's input is not shrunk
        smallest = shrunk and not unfinished(exc)
        text += f"\n{'smallest failing' if smallest else 'failing'} input: {example}"
    elif getattr(exc, "call", None):  # a fixed example: the call that failed
        text += f"\ninput: {exc.call}"
    return text[:_DETAIL_LIMIT]


def inputs_as_data(arguments: tuple[list, dict] | None) -> list:
    """The arguments of a failing call (positional, then keyword) as plain JSON: a tensor as
    ``{"tensor": {"shape", "stride", "offset", "storage"}}`` (storage in elements), numbers
    as themselves, lists and tuples as lists; anything else, or past ``_MOST_ITEMS``, None."""
    if arguments is None:
        return []
    args, kwargs = arguments
    left = _MOST_ITEMS

    def data(value):
        nonlocal left
        left -= 1
        if left < 0:
            return None
        if isinstance(value, torch.Tensor):
            return _tensor_data(value)
        if isinstance(value, list | tuple):
            return [data(item) for item in value] if len(value) <= left else None
        if (isinstance(value, int) and abs(value) < _LARGEST_INT) \
                or (isinstance(value, float) and math.isfinite(value)):  # bools are ints
            return value
        return None

    return [data(value) for value in [*args, *kwargs.values()]]


def _tensor_data(t: torch.Tensor) -> dict | None:
    if t.layout != torch.strided:  # sparse: no strides to draw
        return None
    return {"tensor": {"shape": list(t.shape), "stride": list(t.stride()),
                       "offset": t.storage_offset(),
                       "storage": t.untyped_storage().nbytes() // t.element_size()}}
