"""The pieces an exercise's redraw rule is made of: new values for an example's inputs.

A rule (``public_check(..., redraw=rule)``) takes one fixed example and a
``random.Random`` and returns a new example its exercise's contract allows, or None
where that example has nothing to vary. Each piece below keeps what its docstring
says, so a rule built of them keeps its contract by saying which pieces fit it.
``floats_redrawn`` is the rule of an exercise that declares none.
Nothing here computes an answer: only inputs (``_variant_examples`` says who draws).
"""

import math
import random

import torch

__all__ = ["floats_redrawn", "new_floats", "new_index", "new_ints", "new_values",
           "renamed_ints", "renamed_sizes"]


def _redrawable(value) -> bool:
    """A CPU leaf tensor with elements: one whose storage can be filled anew."""
    return (isinstance(value, torch.Tensor) and value.device.type == "cpu"
            and value.grad_fn is None and value.numel() > 0)


def _is_float(value) -> bool:
    return _redrawable(value) and value.is_floating_point()


def _storage_values(value: torch.Tensor) -> list:
    return torch.empty(0, dtype=value.dtype).set_(value.detach().untyped_storage()).tolist()


def _laid_out_as(value: torch.Tensor, values: list) -> torch.Tensor:
    """A tensor over a storage of ``values`` with ``value``'s dtype, layout and
    requires_grad (shape, strides, offset, storage size)."""
    drawn = torch.tensor(values, dtype=value.dtype)
    drawn = drawn.as_strided(value.shape, value.stride(), value.storage_offset())
    return drawn.requires_grad_(value.requires_grad)


def new_floats(value, rng: random.Random):
    """A floating-point tensor laid out as ``value`` over new values in the range of its
    finite ones (non-finite ones kept); any other value as it is."""
    if not _is_float(value):
        return value
    storage = _storage_values(value)
    finite = [number for number in storage if math.isfinite(number)]
    low, high = (min(finite), max(finite)) if finite else (0.0, 0.0)
    # Two decimals: a counterexample a student can read; clamped, so the range holds.
    return _laid_out_as(value, [min(max(round(rng.uniform(low, high), 2), low), high)
                                if math.isfinite(number) else number for number in storage])


def new_ints(value: torch.Tensor, rng: random.Random, low: int, high: int) -> torch.Tensor:
    """An integer tensor laid out as ``value`` over new values in ``low..high``: for a
    tensor whose values the contract bounds (labels below a class count)."""
    return _laid_out_as(value, [rng.randint(low, high) for _ in _storage_values(value)])


def renamed_ints(value: torch.Tensor, rng: random.Random, low: int, high: int) -> torch.Tensor:
    """An integer tensor laid out as ``value``, each of its values renamed one-to-one to
    one in ``low..high``: equal values stay equal and different ones different (a row
    indexed twice still is), for indices whose repeats are the point."""
    storage = _storage_values(value)
    old = sorted(set(storage))
    new = dict(zip(old, rng.sample(range(low, high + 1), len(old))))
    return _laid_out_as(value, [new[number] for number in storage])


def new_values(value, rng: random.Random):
    """A tensor laid out as ``value`` over new values of its dtype, for an input whose
    values are any (bytes to pack): floats as ``new_floats``, bools at random, integers
    in the range of the old ones; complex and meta tensors (no values here) as they are."""
    if not _redrawable(value) or value.is_complex() or value.is_floating_point():
        return new_floats(value, rng)
    storage = _storage_values(value)
    if value.dtype == torch.bool:
        return _laid_out_as(value, [rng.random() < 0.5 for _ in storage])
    return new_ints(value, rng, min(storage), max(storage))


def floats_redrawn(example: tuple, rng: random.Random) -> tuple | None:
    """The rule of an exercise that declares none: its floating-point CPU leaf tensors
    drawn again (``new_floats``), all else kept (an integer tensor may be indices, a
    boolean one a mask); None where the example holds no such tensor."""
    if not any(map(_is_float, example)):
        return None
    return tuple(new_floats(value, rng) for value in example)


def renamed_sizes(shapes, rng: random.Random) -> tuple | None:
    """``shapes`` with each size above 1 renamed one-to-one to a size in 2..7, the same
    size the same new size everywhere; 0 and 1 kept. Which sizes are equal, 1 or 0 is
    all broadcasting reads, so shapes that broadcast (or clash) still do. None where no
    size is above 1."""
    old = sorted({size for shape in shapes for size in shape if size > 1})
    if not old:
        return None
    new = dict(zip(old, rng.sample(range(2, 8), len(old))))
    return tuple(tuple(new.get(size, size) for size in shape) for shape in shapes)


def new_index(index: int, size: int, rng: random.Random) -> int:
    """Another index into a dim of ``size`` with the sign of ``index`` (from the end if
    negative), where ``index`` is in range; an out-of-range one as it is."""
    if 0 <= index < size:
        return rng.randrange(size)
    if -size <= index < 0:
        return rng.randrange(-size, 0)
    return index
