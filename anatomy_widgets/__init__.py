"""Tensor Anatomy's widgets: where elements live, how shapes broadcast, what backward saves.

``MemoryLayout(t)`` draws ``t``'s flat storage and its logical grid, coloured
so each element points at the cell it reads; ``Broadcast(shape_a, shape_b)``
lines shapes up from the right; ``AutogradGraph(loss)`` draws the grad_fn graph
behind a tensor, with what each node saved (stale, freed) and the leaves' grads.
Each is a thin view over pure functions (in the private modules, tested against
torch), and each falls back to a static SVG picture wherever no live kernel is
attached. ``profiler_timeline(trace)`` draws a torch.profiler Chrome trace as a
matplotlib figure: host ops, CUDA runtime calls, device kernels and copies, one row
each, coloured by ``record_function`` scene, titled with where it was recorded.
The lessons use these four names; nothing else is public.
"""

from ._autograd_widget import AutogradGraph
from ._broadcast_widget import Broadcast
from ._memory_widget import MemoryLayout
from ._timeline_figure import profiler_timeline

__all__ = ["MemoryLayout", "Broadcast", "AutogradGraph", "profiler_timeline"]
