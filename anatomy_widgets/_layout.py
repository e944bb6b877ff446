"""Pure layout facts: where each element of a strided view lives in its storage.

Every fact about a layout comes from torch itself, never from arithmetic of our
own that a student could import as an exercise's answer: strides, positions,
contiguity and the storage a view needs are read off torch views of that layout
(on "meta" or over a small ``arange`` storage). Nothing here reads tensor data
or allocates a large storage: a layout is four numbers (shape, stride, storage
offset, storage size), so a 10⁹-element or meta tensor costs no more than a
small one. Everything is checked against torch in ``tests/widgets/test_widget_layout.py``
(``as_strided`` over an ``arange`` storage).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import torch

__all__ = [
    "MAX_DIMS",
    "Layout",
    "layout_of",
    "new_meta",
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
# Positions come from arange storages this big at most (512 KiB), over parts of a view.
_ARANGE_LIMIT = 1 << 16
# Exact overlap answers past a drawing's 4096 elements: for views spanning this many cells
# at most (past it, enumerating the positions would take one torch call an element).
_ENUMERATED_SPAN = 1 << 20
# One meta storage of 2⁶² one-byte cells holds every layout we draw, and costs no memory:
# views of it are torch's own arithmetic (positions in the layout's own element units).
_META = torch.empty(2**62, dtype=torch.uint8, device="meta")
# A dtype of each itemsize, for torch's bounds check (which counts bytes).
_DTYPES = {t.itemsize: t for t in (torch.uint8, torch.int16, torch.int32, torch.int64,
                                   torch.complex128)}  # fmt: skip
# torch's refusal of a view over an empty storage: the bytes it needs, then "size 0".
_OUT_OF_EMPTY = re.compile(r"(setStorage: .* requiring a storage size of (\d+) are out of "
                           r"bounds for storage of size )0", re.S)


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
        if stride is None:  # torch's row-major strides (a size-0 dim counts as 1 for its left)
            fresh = new_meta(shape)  # None past int64: strides 0, and torch refuses the layout
            stride = (0,) * len(shape) if fresh is None else fresh.stride()
        stride = tuple(int(s) for s in stride)
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


def new_meta(shape) -> torch.Tensor | None:
    """A new row-major tensor of ``shape`` on "meta" (a byte an element, and no memory),
    negative sizes read as 0; None where torch cannot make one (past int64)."""
    try:
        return torch.empty([max(int(n), 0) for n in shape], dtype=torch.uint8, device="meta")
    except RuntimeError:
        return None


def _meta_view(shape, stride, offset=0) -> torch.Tensor:
    """A meta tensor with this layout: torch's own view of it, with no memory behind it."""
    return _META.as_strided(shape, stride, offset)


def _extent(shape, stride) -> int | None:
    """Cells from a view's first to its last, as torch sizes a new storage (0 if empty);
    None where torch cannot count its elements (past int64)."""
    try:
        fresh = torch.empty_strided(shape, stride, dtype=torch.uint8, device="meta")
    except RuntimeError:
        return None
    return fresh.untyped_storage().nbytes()


def _sizable(shape, stride) -> bool:
    """Whether torch can size a storage for this view: the CPU, over an empty storage,
    says how many bytes it would need, or that they are past int64 (which meta, and so
    ``_extent``, does not notice). Views that torch accepted (drawn ones) always are."""
    try:
        torch.empty(0, dtype=torch.uint8).as_strided(shape, [abs(s) for s in stride])
    except RuntimeError as refusal:
        return _OUT_OF_EMPTY.fullmatch(str(refusal)) is not None
    return True


def is_contiguous(layout: Layout) -> bool:
    """torch's answer: ``is_contiguous()`` of a meta tensor with this layout."""
    return _meta_view(layout.shape, layout.stride).is_contiguous()


def required_storage(shape, stride, offset=0) -> int:
    """Elements a storage needs for this view (0 when the view has no elements, or more
    than torch can count).

    torch sizes it: ``empty_strided`` allocates just enough for the view (on "meta").
    """
    if len(shape) != len(stride) or any(n <= 0 for n in shape):
        return 0
    extent = _extent(shape, stride) if _sizable(shape, stride) else None
    return 0 if extent is None else offset + extent


def bounds_error(layout: Layout) -> str | None:
    """Why ``as_strided`` would refuse this layout, in torch's words; None if it accepts it.

    torch makes every check, in its order: a meta view first (lengths, negative
    strides, a negative offset, a count of elements past int64), then ``as_strided``
    on the CPU over an empty storage, whose refusal names the bytes the view needs;
    only the storage's size in that message is the layout's own. Negative sizes are
    refused with our own message: torch's handling of them is inconsistent and not
    worth teaching.
    """
    shape, stride, offset = layout.shape, layout.stride, layout.offset
    try:
        _meta_view([max(n, 0) for n in shape], stride, offset)
    except RuntimeError as refusal:
        return str(refusal)
    if any(n < 0 for n in shape):
        return f"sizes must be non-negative, got {_torch_list(shape)}"
    try:  # torch skips the check for views with no elements: they read nothing.
        torch.empty(0, dtype=_DTYPES[layout.itemsize]).as_strided(shape, stride, offset)
    except RuntimeError as refusal:
        found = _OUT_OF_EMPTY.fullmatch(str(refusal))
        if found is None:
            return str(refusal)  # e.g. a storage size past int64
        have = layout.storage_size * layout.itemsize
        if int(found[2]) > have:
            return f"{found[1]}{have}"
    return None


def _torch_list(values) -> str:
    # torch prints IntArrayRefs as [a, b], never as Python tuples.
    return "[" + ", ".join(str(v) for v in values) + "]"


def storage_position(layout: Layout, index) -> int:
    """Storage position of ``index`` (negative indices count from the end, as in torch).

    torch indexes a meta view of the layout, one dim at a time so that an index out
    of range is reported with its dim; the position is the element's storage offset.
    """
    if len(index) != layout.ndim:
        raise IndexError(f"index {tuple(index)} has {len(index)} entries for {layout.ndim} dims")
    element = _meta_view(layout.shape, layout.stride, layout.offset)
    for dim, i in enumerate(index):
        try:
            element = element.select(0, i)
        except IndexError:
            size = layout.shape[dim]
            raise IndexError(f"index {i} is out of range for dim {dim} of size {size}") from None
    return element.storage_offset()


def storage_positions(layout: Layout, axes=None) -> list[int]:
    """Positions of the elements at ``axes`` (per dim, the indices to visit), row-major.

    Without ``axes``, every element: only sensible for small views. torch computes
    them: the layout over an ``arange`` storage holding the positions themselves
    (``_positions``), on no more than ``_ARANGE_LIMIT`` cells at a time.
    """
    if axes is None:
        axes = [range(n) for n in layout.shape]
    axes = [a if isinstance(a, range) else list(a) for a in axes]
    if any(len(indices) == 0 for indices in axes):
        return []  # no element (and the other dims may be too long to list)
    axes = [list(indices) for indices in axes]
    return _positions(_meta_view(layout.shape, layout.stride, layout.offset), axes)


def _positions(view: torch.Tensor, axes) -> list[int]:
    """The positions of ``view``'s elements at ``axes``, row-major.

    Dims are visited biggest stride first (so each one torch selects from leaves the
    smallest span behind), then the positions go back to row-major order.
    """
    order = sorted(range(view.dim()), key=view.stride, reverse=True)
    axes = [axes[d] for d in order]
    flat = _peeled(view.permute(order), axes, [torch.tensor(a, dtype=torch.long) for a in axes])
    grid = torch.tensor(flat, dtype=torch.long).view([len(a) for a in axes])
    return grid.permute([order.index(d) for d in range(view.dim())]).flatten().tolist()


def _peeled(view: torch.Tensor, axes, index_tensors) -> list[int]:
    # The view over an ``arange`` storage that holds the positions, once it spans at most
    # ``_ARANGE_LIMIT`` cells; until then torch selects one index of its first dim at a time.
    shape, stride, offset = tuple(view.shape), view.stride(), view.storage_offset()
    extent = _extent(shape, stride)
    if extent is not None and extent <= _ARANGE_LIMIT:
        grid = torch.arange(offset, offset + extent).as_strided(shape, stride)
        for dim, indices in enumerate(index_tensors):
            grid = grid.index_select(dim, indices)
        return grid.flatten().tolist()
    inner, inner_tensors = axes[1:], index_tensors[1:]
    return [p for i in axes[0] for p in _peeled(view.select(0, i), inner, inner_tensors)]


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
    """'none', 'overlapping' or 'unknown' (too big to enumerate and strides do not tell).

    Views spread over more than ``_ENUMERATED_SPAN`` cells are enumerated only up to
    a drawing's 4096 elements.
    """
    extent = _extent(layout.shape, layout.stride) if layout.numel > 4096 else 0
    spread = extent is None or extent > _ENUMERATED_SPAN
    if layout.numel <= MAX_ENUMERATED and not spread:
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
