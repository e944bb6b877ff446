"""The examples ``check()`` tries, drawn for the student's variant.

A student whose variant is published beside the notebook (``grader.givens.variants``:
a seed, no key) gets, before the fixed examples everyone gets, ``DRAWN`` of them
drawn again for their seed: the same layout (shape, strides, offset, storage size),
dtype and range of values, other values. So the counterexample a wrong answer meets
first is the student's own, and a classmate's differs. The fixed examples stay: each
is an edge case chosen by hand (a zero stride, an empty dim, values that overflow
``exp``), and a range kept is an edge case kept (``[1000., 1000.]`` stays itself).

Only floating-point CPU tensors that are leaves are drawn again: an integer tensor
may be indices and a boolean one a mask, whose values an exercise constrains, and a
float's truth is torch's on whatever it holds. An exercise whose examples hold no such
tensor (shapes, Python data) keeps its fixed examples. For one whose truth is stored
(``stored=True``) nothing here may compute the answers: the instructor's ``grader.cli
variants`` draws its examples with this same function and publishes them with the
oracle's answers (``grader.bridge._variants.stored_examples``).
Nothing here is secret: the seed is the student's own, drawn by the instructor's key.
The hidden checks never come here (they read ``examples()``, the fixed ones).
"""

import hashlib
import math
import random

import torch

__all__ = ["DRAWN", "examples_for"]

# Examples drawn per exercise: the counterexample shown first is then the student's own,
# and check() stays about as fast (the fixed lists hold 3 to 16 examples).
DRAWN = 3


def examples_for(name: str, examples: list[tuple], seed: str | None) -> list[tuple]:
    """``examples`` (the fixed ones), after ``DRAWN`` of them drawn again for ``seed``; the
    fixed ones alone where there is no seed or nothing to draw."""
    if seed is None:
        return examples
    rng = random.Random(hashlib.sha256(f"{seed}:{name}".encode()).digest())
    drawable = [example for example in examples if any(map(_drawable, example))]
    chosen = rng.sample(drawable, min(DRAWN, len(drawable)))
    return [tuple(_drawn(value, rng) for value in example) for example in chosen] + examples


def _drawable(value) -> bool:
    return (isinstance(value, torch.Tensor) and value.is_floating_point()
            and value.device.type == "cpu" and value.grad_fn is None and value.numel() > 0)


def _drawn(value, rng: random.Random):
    """A tensor laid out as ``value`` over a storage of new values in the range of its
    finite ones (non-finite ones kept); any other value as it is."""
    if not _drawable(value):
        return value
    storage = torch.empty(0, dtype=value.dtype).set_(value.detach().untyped_storage()).tolist()
    finite = [number for number in storage if math.isfinite(number)]
    low, high = (min(finite), max(finite)) if finite else (0.0, 0.0)
    # Two decimals: a counterexample a student can read; clamped, so the range holds.
    values = [min(max(round(rng.uniform(low, high), 2), low), high) if math.isfinite(number)
              else number for number in storage]
    drawn = torch.tensor(values, dtype=value.dtype)
    drawn = drawn.as_strided(value.shape, value.stride(), value.storage_offset())
    return drawn.requires_grad_(value.requires_grad)
