"""The autograd graph widget: a live tensor's grad_fn graph, redrawn on demand.

The graph is read when the widget is made and on Refresh, never behind the
student's back: an in-place change shows up (as a stale saved tensor) once they
press Refresh. ``backward()`` is the real call on the real tensor, so its
effects (grads, freed buffers) and its errors are torch's own. Its words are in the
kernel's language (``translate``, context "autograd"); its repr is English.
"""

from __future__ import annotations

import ipywidgets as widgets

from ._autograd import Graph, graph_of
from ._autograd_svg import graph_svg, summary
from ._controls import StaticFallback, info_html, static_html
from ._language import translate

__all__ = ["AutogradGraph", "graph_lines"]


def graph_lines(graph: Graph) -> list[str]:
    """What the picture says, in sentences (the same facts, for readers of text)."""
    lines = []
    stale = translate("{node} saved {saved} at version {then}; it is now at version {now}: "
                      "backward() will raise", "autograd")
    for node, saved in graph.saved("stale"):
        lines.append(stale.format(node=node.name, saved=saved.name, then=saved.saved_version,
                                  now=saved.version))
    freed = graph.saved("freed")
    if freed:
        lines.append(translate("{count} saved tensor(s) freed by backward(): a second backward "
                               "raises unless the first had retain_graph=True",
                               "autograd").format(count=len(freed)))
    if graph.retained is not None:
        lines.append(f"root.grad: {graph.retained.grad}")
    return lines or [translate("every saved tensor is as it was saved: backward() can run",
                               "autograd")]


class AutogradGraph(StaticFallback, widgets.VBox):
    """Draw the backward graph behind ``tensor``: nodes, saved tensors, leaves and grads.

    ``AutogradGraph(loss, names=dict(w=w, x=x))`` labels leaves (and named
    intermediate tensors) by name. Refresh reads the graph again; the backward()
    button calls ``tensor.backward(retain_graph=...)`` and shows the result, or
    torch's error in place of the drawing.
    """

    def __init__(self, tensor, names: dict | None = None) -> None:
        self._tensor, self._names = tensor, dict(names or {})
        self._error: str | None = None
        # Each description is its control's accessible name. No icons: an icon font's glyph
        # (CSS generated content) would become part of the button's name.
        self.refresh_button = widgets.Button(
            description=translate("Refresh", "autograd"),
            tooltip=translate("read the tensor's graph again", "autograd"),
        )
        self.backward_button = widgets.Button(
            description="backward()",
            tooltip=translate("call backward() on the root tensor", "autograd"),
        )
        self.retain_box = widgets.Checkbox(
            value=False,
            description="retain_graph",
            tooltip=translate("keep the saved tensors for another backward", "autograd"),
        )
        self.drawing = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        self.refresh_button.on_click(lambda _: self.refresh())
        self.backward_button.on_click(lambda _: self.backward())
        row = widgets.HBox([self.refresh_button, self.backward_button, self.retain_box])
        super().__init__(children=[row, self.drawing])
        self.refresh()

    @property
    def graph(self) -> Graph:
        """The graph as last read (it may be older than the tensor: press Refresh)."""
        return self._graph

    @property
    def error(self) -> str | None:
        """The last backward()'s error, shown instead of the drawing; None otherwise."""
        return self._error

    @property
    def svg(self) -> str:
        return self._svg

    def __repr__(self) -> str:
        text = f"AutogradGraph({summary(self._graph, 'en')})"
        return text + (f"\nbackward() raised: {self._error}" if self._error else "")

    def static_html(self) -> str:
        return static_html([self._svg] if self._svg else [], self._info, summary(self._graph))

    def refresh(self) -> None:
        """Read the live tensor's graph again and draw it (clears a shown error)."""
        self._error = None
        self._graph = graph_of(self._tensor, self._names)
        self._svg = graph_svg(self._graph)
        self._info = info_html(graph_lines(self._graph))
        self.drawing.value = self._svg + self._info

    def backward(self, retain_graph: bool | None = None) -> None:
        """Call ``backward()`` on the root; then draw the graph, or torch's error alone."""
        retain = self.retain_box.value if retain_graph is None else retain_graph
        try:
            self._tensor.backward(retain_graph=retain)
        except Exception as e:  # noqa: BLE001 - whatever torch (or a custom backward) raised
            self._error = f"{type(e).__name__}: {e}"
            # The error replaces the picture: the graph did not change, the call failed.
            said = translate("backward() raised {error}", "autograd").format(error=self._error)
            self._svg, self._info = "", info_html([], said)
            self.drawing.value = self._info
            return
        self.refresh()
