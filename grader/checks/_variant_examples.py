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

__all__ = ["DRAWN", "examples_for"]

# Examples drawn per exercise: the counterexample shown first is then the student's own,
# and check() stays about as fast (the fixed lists hold 3 to 16 examples).
DRAWN = 3


def examples_for(name: str, examples: list[tuple], seed: str | None,
                 redraw: Callable | None = None) -> list[tuple]:
    """``examples`` (the fixed ones), after ``DRAWN`` of them drawn again for ``seed`` by
    ``redraw`` (by default ``floats_redrawn``); the fixed ones alone where there is no seed
    or nothing to draw. The same (seed, exercise) draws the same examples."""
    if seed is None:
        return examples
    rng = random.Random(hashlib.sha256(f"{seed}:{name}".encode()).digest())
    redraw = redraw or floats_redrawn
    drawn = []
    for example in rng.sample(examples, len(examples)):  # fixed examples in a random order
        if len(drawn) == DRAWN:
            break
        example = redraw(example, rng)
        if example is not None:  # None: this one has nothing to vary, the next one may
            drawn.append(tuple(example))
    return drawn + examples
