"""Pure broadcasting logic: align shapes from the right, stretch size-1 dims, or say why not.

Every fact comes from torch itself, never from a rule of our own that a student
could import as an exercise's answer: the result shape and its error message
(``torch.broadcast_shapes``), what ``a + b`` says (ATen's ``infer_size``, as
``torch.broadcast_tensors`` folds it), the strides ``expand`` gives and the values a small example
takes. Each is property-tested against torch in ``tests/widgets/test_widget_broadcast.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

__all__ = [
    "BroadcastError",
    "broadcast_shapes",
    "Alignment",
    "align",
    "expand_strides",
    "broadcast_values",
]


class BroadcastError(ValueError):
    """Shapes that do not broadcast. ``str(e)`` is ``torch.broadcast_shapes``'s message;
    ``operator_message`` is what ``a + b`` (``torch.broadcast_tensors``) says instead."""

    def __init__(self, message: str, operator_message: str) -> None:
        super().__init__(message)
        self.operator_message = operator_message


def broadcast_shapes(*shapes) -> tuple[int, ...]:
    """The broadcast shape, or ``BroadcastError`` with torch's exact reasons."""
    shapes = [tuple(s) for s in shapes]
    for shape in shapes:
        if any(n < 0 for n in shape):
            raise ValueError(f"sizes must be non-negative, got {shape}")
    try:
        return tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError as refusal:
        raise BroadcastError(str(refusal), _operator_message(shapes)) from None


def _operator_message(shapes) -> str:
    """What ``a + b`` says: ``broadcast_tensors`` folds ATen's ``infer_size`` left to right
    ("tensor a" is everything before), asked here of torch directly: sizes torch could not
    allocate, even on "meta", get their message too."""
    result = torch.Size(shapes[0])
    for shape in shapes[1:]:
        try:
            result = torch._C._infer_size(result, torch.Size(shape))
        except RuntimeError as refusal:
            return str(refusal)
    raise AssertionError("shapes broadcast")  # only called when broadcast_shapes refused


@dataclass(frozen=True)
class Alignment:
    """Shapes padded on the left to a common rank, and what happens in each dim.

    ``rows[k][d]`` is operand k's size in dim d, or None where it has no such dim.
    ``roles[k][d]`` is one of ``"new"`` (no such dim: acts as 1, repeated),
    ``"stretched"`` (size 1 repeated), ``"kept"`` or ``"clash"``. ``result[d]`` is
    None in a dim that clashes.
    """

    rows: tuple[tuple[int | None, ...], ...]
    result: tuple[int | None, ...]
    roles: tuple[tuple[str, ...], ...]

    @property
    def clash_dims(self) -> tuple[int, ...]:
        """The dims that clash, counted from the right as torch does (-1 is the last)."""
        ndim = len(self.result)
        return tuple(d - ndim for d, n in enumerate(self.result) if n is None)


def align(*shapes) -> Alignment:
    """Line the shapes up from the right; every dim's result size or a clash."""
    ndim = max((len(s) for s in shapes), default=0)
    rows = tuple((None,) * (ndim - len(s)) + tuple(s) for s in shapes)
    result = tuple(_dim_result([row[d] for row in rows]) for d in range(ndim))
    roles = tuple(tuple(_role(n, r) for n, r in zip(row, result)) for row in rows)
    return Alignment(rows, result, roles)


def _dim_result(sizes) -> int | None:
    """torch's result in one dim (``broadcast_shapes`` of its sizes alone), None on a clash."""
    try:
        return tuple(torch.broadcast_shapes(*[(n,) for n in sizes if n is not None]))[0]
    except RuntimeError:
        return None


def _role(size: int | None, result: int | None) -> str:
    if result is None:
        return "clash" if size not in (None, 1) else ("new" if size is None else "stretched")
    if size is None:
        return "new"
    return "stretched" if size == 1 and result != 1 else "kept"


def expand_strides(shape, stride, target) -> tuple[int, ...]:
    """Strides of ``t.expand(target)`` for ``t`` of ``shape``/``stride``: torch's, on "meta".

    A stretched dim gets stride 0: every index reads the same cells.
    """
    operand = torch.empty_strided(tuple(shape), tuple(stride), dtype=torch.uint8, device="meta")
    try:
        return tuple(operand.expand(tuple(target)).stride())
    except RuntimeError as refusal:
        raise ValueError(str(refusal)) from None


def broadcast_values(values, shape, target):
    """``torch.broadcast_to(torch.tensor(values).view(shape), target).tolist()``.

    ``values`` are the operand's elements in row-major order (any Python values:
    torch broadcasts their positions, which then pick the values).
    """
    positions = torch.arange(len(values)).view(tuple(shape))
    picked = torch.broadcast_to(positions, tuple(target)).flatten().tolist()
    return _nest([values[p] for p in picked], tuple(target))


def _nest(flat, shape):
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat)
    inner = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[k * inner : (k + 1) * inner], shape[1:]) for k in range(shape[0])]
