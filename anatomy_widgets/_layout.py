"""Pure layout arithmetic: where each element of a strided view lives in its storage.

Nothing here reads tensor data or allocates a storage: a layout is four numbers
(shape, stride, storage offset, storage size), so a 10⁹-element or meta tensor
costs no more than a small one. Everything is checked against torch in
``tests/test_widget_layout.py`` (``as_strided`` over an ``arange`` storage).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "MAX_DIMS",
    "Layout",
    "layout_of",
    "contiguous_strides",
    "is_contiguous",
    "bounds_error",
    "storage_position",
    "storage_positions",
    "overlapping_elements",
    "overlap_kind",
    "overlap_from_strides",
    "shown_indices",
    "slots_per_dim",
    "address_formula",
    "storage_slots",
    "distinct_positions",
    "required_storage",
]

MAX_DIMS = 4
# Exact overlap answers enumerate every element; past this many we reason from strides.
MAX_ENUMERATED = 1 << 16
# Slots drawn per dim, so that no grid has more than 4096 cells (64², 16³, 8⁴).
_SLOTS = {0: 1, 1: 64, 2: 64, 3: 16, 4: 8}


@dataclass(frozen=True)
class Layout:
    """Shape, stride and storage offset of a view, over a storage of ``storage_size`` elements.

    ``itemsize`` (bytes per element) only matters for byte addresses and for
    torch's bounds message, which counts bytes.
    """

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int = 0
    storage_size: int = 0
    itemsize: int = 8

    @classmethod
    def of(cls, shape, stride=None, offset=0, storage_size=None, itemsize=8) -> Layout:
        """A layout with row-major strides and the smallest storage, unless told otherwise."""
        shape = tuple(int(n) for n in shape)
        stride = contiguous_strides(shape) if stride is None else tuple(int(s) for s in stride)
        if storage_size is None:
            storage_size = required_storage(shape, stride, offset)
        return cls(shape, stride, int(offset), int(storage_size), int(itemsize))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


def layout_of(tensor) -> Layout:
    """The layout of a strided tensor, read from its metadata only (meta tensors work too)."""
    itemsize = tensor.element_size()
    storage_bytes = tensor.untyped_storage().nbytes()
    return Layout(
        tuple(tensor.shape),
        tuple(tensor.stride()),
        tensor.storage_offset(),
        storage_bytes // itemsize,
        itemsize,
    )


def contiguous_strides(shape) -> tuple[int, ...]:
    """Row-major strides as torch builds them: a size-0 dim counts as 1 for its left."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous(layout: Layout) -> bool:
    """torch's test: does row-major order visit consecutive positions? (size-1 dims ignored)"""
    if layout.numel == 0:
        return True
    expected = 1
    for size, stride in zip(reversed(layout.shape), reversed(layout.stride)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def required_storage(shape, stride, offset=0) -> int:
    """Elements a storage needs for this view (0 when the view has no elements)."""
    if len(shape) != len(stride) or 0 in shape:
        return 0
    return offset + 1 + sum((n - 1) * s for n, s in zip(shape, stride))


def bounds_error(layout: Layout) -> str | None:
    """Why ``as_strided`` would refuse this layout, in torch's words; None if it accepts it.

    The checks run in torch's order. Negative sizes are refused up front with our
    own message: torch's handling of them is inconsistent and not worth teaching.
    """
    shape, stride, offset = layout.shape, layout.stride, layout.offset
    if len(shape) != len(stride):
        return "mismatch in length of strides and shape"
    if any(s < 0 for s in stride):
        return (
            "as_strided: Negative strides are not supported at the moment, "
            f"got strides: {_torch_list(stride)}"
        )
    if offset < 0:
        return f"Tensor: invalid storage offset {offset}"
    if any(n < 0 for n in shape):
        return f"sizes must be non-negative, got {_torch_list(shape)}"
    needed = required_storage(shape, stride, offset) * layout.itemsize
    have = layout.storage_size * layout.itemsize
    # torch skips the check for views with no elements: they read nothing.
    if needed and needed > have:
        return (
            f"setStorage: sizes {_torch_list(shape)}, strides {_torch_list(stride)}, "
            f"storage offset {offset}, and itemsize {layout.itemsize} requiring a storage "
            f"size of {needed} are out of bounds for storage of size {have}"
        )
    return None


def _torch_list(values) -> str:
    # torch prints IntArrayRefs as [a, b], never as Python tuples.
    return "[" + ", ".join(str(v) for v in values) + "]"


def storage_position(layout: Layout, index) -> int:
    """Storage position of ``index`` (negative indices count from the end, as in torch)."""
    if len(index) != layout.ndim:
        raise IndexError(f"index {tuple(index)} has {len(index)} entries for {layout.ndim} dims")
    position = layout.offset
    for dim, (i, size, stride) in enumerate(zip(index, layout.shape, layout.stride)):
        if not -size <= i < size:
            raise IndexError(f"index {i} is out of range for dim {dim} of size {size}")
        position += (i % size) * stride
    return position


def storage_positions(layout: Layout, axes=None) -> list[int]:
    """Positions of the elements at ``axes`` (per dim, the indices to visit), row-major.

    Without ``axes``, every element: only sensible for small views.
    """
    if axes is None:
        axes = [range(n) for n in layout.shape]
    positions = [layout.offset]
    for indices, stride in zip(axes, layout.stride):
        steps = [i * stride for i in indices]
        positions = [p + step for p in positions for step in steps]
    return positions


def _row_major_indices(axes) -> list[tuple[int, ...]]:
    indices = [()]
    for axis in axes:
        indices = [index + (i,) for index in indices for i in axis]
    return indices


def overlapping_elements(layout: Layout, axes=None) -> dict[int, list[tuple[int, ...]]]:
    """Storage positions read by more than one element, with those elements' indices.

    Over every element, or only over ``axes`` (the drawn ones) for big views.
    """
    if axes is None:
        axes = [range(n) for n in layout.shape]
    readers: dict[int, list[tuple[int, ...]]] = {}
    indices = _row_major_indices(axes)
    for index, position in zip(indices, storage_positions(layout, axes)):
        readers.setdefault(position, []).append(index)
    return {p: r for p, r in readers.items() if len(r) > 1}


def overlap_kind(layout: Layout) -> str:
    """'none', 'overlapping' or 'unknown' (too big to enumerate and strides do not tell)."""
    if layout.numel <= MAX_ENUMERATED:
        positions = storage_positions(layout)
        return "overlapping" if len(set(positions)) < len(positions) else "none"
    return overlap_from_strides(layout)


def overlap_from_strides(layout: Layout) -> str:
    """Decide overlap from strides alone, for views too big to enumerate.

    A stride-0 dim of size > 1 repeats cells: 'overlapping'. Sorted by stride,
    if every dim jumps past all the cells the smaller dims reach, no two elements
    meet: 'none'. Anything else: 'unknown' (it would need enumeration).
    """
    moving = sorted((s, n) for n, s in zip(layout.shape, layout.stride) if n > 1)
    if layout.numel == 0:
        return "none"
    if any(s == 0 for s, _ in moving):
        return "overlapping"
    reach = 0
    for stride, size in moving:
        if stride <= reach:
            return "unknown"
        reach += (size - 1) * stride
    return "none"


def distinct_positions(layout: Layout) -> tuple[int, bool]:
    """How many distinct storage cells the view reads, and whether that count is exact.

    Stride-0 dims repeat cells without adding any, so they are dropped first. What
    is left is enumerated when small; otherwise the count of its elements is exact
    when its strides prove no overlap, and an upper bound when they cannot.
    """
    if layout.numel == 0:
        return 0, True
    kept = [(n, s) for n, s in zip(layout.shape, layout.stride) if s != 0]
    reduced = Layout(
        tuple(n for n, _ in kept), tuple(s for _, s in kept), layout.offset, layout.storage_size
    )
    if reduced.numel <= MAX_ENUMERATED:
        return len(set(storage_positions(reduced))), True
    return reduced.numel, overlap_kind(reduced) == "none"


def slots_per_dim(ndim: int) -> int:
    """How many index slots (ellipsis included) each dim gets in a drawing."""
    return _SLOTS[ndim]


def shown_indices(size: int, slots: int, focus: int | None = None) -> tuple[int | None, ...]:
    """Indices drawn along a dim of ``size``: all, or head and tail around a ``None`` gap.

    ``focus`` (the selected index) is kept visible, with a gap on either side if needed.
    """
    if size <= slots:
        return tuple(range(size))
    head = (slots - 1) // 2 if focus is None else (slots - 3) // 2
    tail = slots - 1 - head if focus is None else slots - 3 - head
    kept = set(range(head)) | set(range(size - tail, size))
    if focus is not None:
        kept.add(focus % size)
    shown: list[int | None] = []
    for i in sorted(kept):
        if shown and shown[-1] != i - 1:
            shown.append(None)
        shown.append(i)
    return tuple(shown)


def address_formula(layout: Layout, index) -> str:
    """The address arithmetic for one element, e.g. ``0 + 2·1 + 1·4 = 6``."""
    position = storage_position(layout, index)
    index = [i % n for i, n in zip(index, layout.shape)]
    terms = [str(layout.offset)] + [f"{i}·{s}" for i, s in zip(index, layout.stride)]
    return f"{' + '.join(terms)} = {position}"


def storage_slots(storage_size: int, used, full_up_to: int = 256, max_kept: int = 96):
    """The storage cells to draw: every position, or the ``used`` ones with gaps between.

    Returns positions (ints) and gaps ``(start, stop)`` standing for the hidden
    positions ``start .. stop - 1``. Position 0 and the last one are always kept so
    the drawing shows where the storage starts and ends.
    """
    if storage_size <= full_up_to:
        return tuple(range(storage_size))
    kept = sorted({p for p in used if 0 <= p < storage_size} | {0, storage_size - 1})
    if len(kept) > max_kept:
        kept = kept[: max_kept // 2] + kept[-(max_kept // 2) :]
    slots: list[int | tuple[int, int]] = []
    for p in kept:
        previous = slots[-1] if slots else None
        if isinstance(previous, int) and p > previous + 1:
            slots.append((previous + 1, p))
        slots.append(p)
    return tuple(slots)
