"""Pure broadcasting logic: align shapes from the right, stretch size-1 dims, or say why not.

Each function mirrors one torch behaviour and is property-tested against it in
``tests/test_widget_broadcast.py``: the result shape (``torch.broadcast_shapes``),
both of torch's error messages, the strides ``expand`` gives (stride 0 where a
dim is stretched) and the values a small example takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._layout import Layout, contiguous_strides, storage_positions

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
    message = _shapes_message(shapes)
    if message:
        raise BroadcastError(message, _operator_message(shapes))
    return _fold(shapes)


def _shapes_message(shapes) -> str | None:
    """``torch.broadcast_shapes``'s check, step for step, including its running result."""
    common = [1] * max((len(s) for s in shapes), default=0)
    for arg, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                common[idx] = shape[idx]
            if shape[idx] != 1 and common[idx] != shape[idx]:
                return (
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                    f"Mismatching argument at index {arg} had {shape}; but expected shape "
                    f"should be broadcastable to {common}"
                )
    return None


def _pair(a, b) -> tuple[tuple[int, ...] | None, str | None]:
    """``infer_size(a, b)`` of ATen: the pair's broadcast shape, or its error message."""
    ndim = max(len(a), len(b))
    out = [0] * ndim
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if len(a) - 1 - offset >= 0 else 1
        size_b = b[len(b) - 1 - offset] if len(b) - 1 - offset >= 0 else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            return None, (
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {i}"
            )
        out[i] = size_b if size_a == 1 else size_a
    return tuple(out), None


def _operator_message(shapes) -> str:
    # broadcast_tensors folds left to right: "tensor a" is everything before.
    result = shapes[0]
    for shape in shapes[1:]:
        result, message = _pair(result, shape)
        if message:
            return message
    raise AssertionError("shapes broadcast")  # only called when _shapes_message found a clash


def _fold(shapes) -> tuple[int, ...]:
    result: tuple[int, ...] = ()
    for shape in shapes:
        result, _ = _pair(result, shape)
    return result


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
    real = {n for n in sizes if n is not None and n != 1}
    if len(real) > 1:
        return None
    return real.pop() if real else 1


def _role(size: int | None, result: int | None) -> str:
    if result is None:
        return "clash" if size not in (None, 1) else ("new" if size is None else "stretched")
    if size is None:
        return "new"
    return "stretched" if size == 1 and result != 1 else "kept"


def expand_strides(shape, stride, target) -> tuple[int, ...]:
    """Strides of ``t.expand(target)`` for ``t`` of ``shape``/``stride`` (ATen's rule).

    A stretched dim gets stride 0: every index reads the same cells. A new leading
    dim of size 1 gets the stride of the dim to its right times that dim's size;
    a 0-d tensor expands with stride 0 everywhere.
    """
    ndim = len(target)
    if not shape:  # a 0-d tensor: every dim is new and reads the one element
        return (0,) * ndim
    sizes, strides = [0] * ndim, [0] * ndim
    for i in range(ndim - 1, -1, -1):
        dim = len(shape) - 1 - (ndim - 1 - i)
        size = shape[dim] if dim >= 0 else 1
        step = stride[dim] if dim >= 0 else sizes[i + 1] * strides[i + 1]
        if size != target[i]:
            if size != 1:
                raise ValueError(f"size {size} cannot be expanded to {target[i]} in dim {i}")
            size, step = target[i], 0
        sizes[i], strides[i] = size, step
    return tuple(strides)


def broadcast_values(values, shape, target):
    """``torch.broadcast_to(torch.tensor(values).view(shape), target).tolist()``, in Python.

    ``values`` are the operand's elements in row-major order.
    """
    strides = expand_strides(shape, contiguous_strides(shape), target)
    flat = [values[p] for p in storage_positions(Layout(tuple(target), strides))]
    return _nest(flat, tuple(target))


def _nest(flat, shape):
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat)
    inner = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[k * inner : (k + 1) * inner], shape[1:]) for k in range(shape[0])]
