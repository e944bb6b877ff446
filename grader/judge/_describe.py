"""Failures in words a student can read: the call's inputs (tensors by their layout, small
ones by value) and what a failing check says, without the grader's source."""

import torch

from grader._errors import StudentError
from grader.judge._replay import unfinished

__all__ = ["describe_call", "describe_failure"]

_VALUES_UP_TO = 12  # elements: a larger tensor is shown by its layout only
_LIMIT = 400  # characters of the whole line
_DETAIL_LIMIT = 600  # characters of a failure's whole description


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


def describe_failure(exc: BaseException, fixtures=()) -> str:
    """What a failed hidden check tells the student: why, and the input it failed on."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        # hypothesis wraps a failure that did not reproduce (FlakyFailure): name the first.
        return describe_failure(exc.exceptions[0], fixtures)
    if isinstance(exc, StudentError):
        text = f"your code: {exc}"
    elif isinstance(exc, AssertionError):
        text = str(exc).split("\nassert ")[0] or "the answer disagrees with torch"
    else:
        text = f"the check could not run ({type(exc).__name__})"
    example = _example_from_notes(exc, fixtures)
    if example:  # an unfinished exercise's input is not shrunk (``_replay``)
        text += f"\n{'failing' if unfinished(exc) else 'smallest failing'} input: {example}"
    elif getattr(exc, "call", None):  # a fixed example: the call that failed
        text += f"\ninput: {exc.call}"
    return text[:_DETAIL_LIMIT]
