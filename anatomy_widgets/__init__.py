"""Tensor Anatomy's widgets: see where a view's elements live, and how shapes broadcast.

``MemoryLayout(t)`` draws ``t``'s flat storage and its logical grid, coloured
so each element points at the cell it reads; ``Broadcast(shape_a, shape_b)``
lines shapes up from the right. Both are thin views over pure functions (also
exported here) that are property-tested against torch, and both fall back to a
static SVG picture wherever no live kernel is attached.
"""

from ._broadcast import (
    Alignment,
    BroadcastError,
    align,
    broadcast_shapes,
    broadcast_values,
    expand_strides,
)
from ._broadcast_widget import Broadcast
from ._layout import (
    Layout,
    address_formula,
    bounds_error,
    contiguous_strides,
    distinct_positions,
    is_contiguous,
    layout_of,
    overlap_kind,
    overlapping_elements,
    shown_indices,
    storage_position,
    storage_positions,
    storage_slots,
)
from ._memory_text import PRESETS
from ._memory_widget import MemoryLayout, shares_storage

__all__ = [
    "MemoryLayout",
    "Broadcast",
    "PRESETS",
    "Layout",
    "layout_of",
    "shares_storage",
    "contiguous_strides",
    "is_contiguous",
    "bounds_error",
    "storage_position",
    "storage_positions",
    "overlapping_elements",
    "overlap_kind",
    "distinct_positions",
    "shown_indices",
    "storage_slots",
    "address_formula",
    "BroadcastError",
    "broadcast_shapes",
    "Alignment",
    "align",
    "expand_strides",
    "broadcast_values",
]
