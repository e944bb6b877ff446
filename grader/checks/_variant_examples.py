"""The examples ``check()`` tries, drawn for the student's variant.

A student whose variant is published beside the notebook (``grader.givens.variants``:
a seed, no key) gets, before the fixed examples everyone gets, ``DRAWN`` of them
drawn again for their seed by the exercise's redraw rule. So the counterexample a
wrong answer meets first is the student's own, and a classmate's differs. The fixed
examples stay: each is an edge case chosen by hand (a zero stride, an empty dim,
values that overflow ``exp``), and a rule keeps the edge case it can (``[1000.,
1000.]`` stays itself, a clash of shapes stays a clash).

An exercise's rule (``public_check(..., redraw=rule)``, next to its examples) takes
a fixed example and a ``random.Random`` and returns a new one its contract allows, or
None where that example has nothing to vary (``grader.checks._redraw``: the pieces).
One that declares none gets ``floats_redrawn``: its floating-point CPU leaf tensors
over new values of the same layout, dtype and range, all else kept. An exercise whose
examples no rule may vary says why beside them, and keeps its fixed examples. For
one whose truth is stored (``stored=True``) nothing here may compute the answers: the
instructor's ``grader.cli variants`` draws its examples with this same function and
publishes them with the oracle's answers (``grader.bridge._variants.stored_examples``).
Nothing here is secret: the seed is the student's own, drawn by the instructor's key.
The hidden checks never come here (they read ``examples()``, the fixed ones).
"""

import hashlib
import random
from collections.abc import Callable

from ._redraw import floats_redrawn

__all__ = ["DRAWN", "drawn_for", "shown"]

# Examples drawn per exercise: the counterexample shown first is then the student's own,
# and check() stays about as fast (the fixed lists hold 3 to 16 examples).
DRAWN = 3
# check()'s success line shows the first of them in one short line: described in full (every
# tensor's shape, stride, dtype and 8 values), accumulated_grad's first ran to 433 characters.
SHOWN_WIDTH = 120


def drawn_for(name: str, examples: list[tuple], seed: str | None,
              redraw: Callable | None = None) -> list[tuple]:
    """``DRAWN`` of ``examples`` drawn again for ``seed`` by ``redraw`` (by default
    ``floats_redrawn``); none where there is no seed or nothing to draw. The same (seed,
    exercise) draws the same examples."""
    if seed is None:
        return []
    rng = random.Random(hashlib.sha256(f"{seed}:{name}".encode()).digest())
    redraw = redraw or floats_redrawn
    drawn = []
    for example in rng.sample(examples, len(examples)):  # fixed examples in a random order
        if len(drawn) == DRAWN:
            break
        example = redraw(example, rng)
        if example is not None:  # None: this one has nothing to vary, the next one may
            drawn.append(tuple(example))
    return drawn


def shown(name: str, example: tuple) -> str:
    """``name(example)`` in at most ``SHOWN_WIDTH`` characters: a tensor by its first
    values, shape and dtype (its stride where it is not contiguous, its device but CPU)."""
    call = f"{name}({', '.join(map(_brief, example))})"
    return call if len(call) <= SHOWN_WIDTH else call[:SHOWN_WIDTH - 5] + " ...)"


def _brief(value) -> str:
    import torch  # here: check() has imported it already, and the judge never shows one

    if isinstance(value, torch.Tensor):
        return _brief_tensor(value.detach())
    if isinstance(value, list):
        return "[" + ", ".join(map(_brief, value)) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_brief, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_brief(item)}" for key, item in value.items()) + "}"
    return repr(value)


def _brief_tensor(t) -> str:
    import torch

    if t.layout != torch.strided or t.device.type == "meta":
        values = str(t.layout if t.layout != torch.strided else t.device.type)
    else:
        first = [f"{v:.3g}" if isinstance(v, float) else repr(v) for v in t.flatten()[:3].tolist()]
        values = "[" + ", ".join(first) + (", ...]" if t.numel() > 3 else "]")
    parts = [values, str(tuple(t.shape)), str(t.dtype).removeprefix("torch.")]
    if t.layout == torch.strided and not t.is_contiguous():
        parts.append(f"stride {t.stride()}")
    if t.device.type not in ("cpu", "meta"):
        parts.append(t.device.type)
    return f"tensor({', '.join(parts)})"
