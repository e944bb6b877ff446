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

``say(template, **values)`` prints a lesson's conclusion, and ``words`` returns one, in
the kernel's language (``_language``: English, or Chinese in a ``zh-CN`` folder).
``gpu_printed(cell_id, device)`` shows, on the CPU path, what a chapter 4 cell printed on
a real GPU (``_gpu_outputs``). The lessons use these seven names; nothing else is public.

A widget is imported when first named: ``import anatomy_widgets._language`` (the public
checks translate their messages with it) loads no ipywidgets (0.5 s measured here).
"""

from importlib import import_module

from ._gpu_outputs import gpu_printed
from ._language import say, words

__all__ = ["MemoryLayout", "Broadcast", "AutogradGraph", "profiler_timeline", "say", "words",
           "gpu_printed"]

_WHERE = {"MemoryLayout": "_memory_widget", "Broadcast": "_broadcast_widget",
          "AutogradGraph": "_autograd_widget", "profiler_timeline": "_timeline_figure"}


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value  # the next lookup finds it without this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
