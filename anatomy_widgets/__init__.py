"""Tensor Anatomy's widgets: see where a view's elements live, and how shapes broadcast.

``MemoryLayout(t)`` draws ``t``'s flat storage and its logical grid, coloured
so each element points at the cell it reads; ``Broadcast(shape_a, shape_b)``
lines shapes up from the right. Both are thin views over pure functions (in the
private modules, property-tested against torch), and both fall back to a
static SVG picture wherever no live kernel is attached. The lessons use these
two names; nothing else is public.
"""

from ._autograd_widget import AutogradGraph
from ._broadcast_widget import Broadcast
from ._memory_widget import MemoryLayout

__all__ = ["MemoryLayout", "Broadcast", "AutogradGraph"]
