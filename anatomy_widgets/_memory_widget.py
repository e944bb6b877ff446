"""The memory layout widget: controls and a drawing, wired to the pure layout logic.

Plain ipywidgets (an HTML widget holding an SVG string, plus standard controls),
so it runs in JupyterLab 4 and Notebook 7 with no front-end build step. Its labels,
tooltips and sentences are in the kernel's language (``translate``, context "memory");
its repr, the values of its controls and the presets' names are torch's words.
"""

from __future__ import annotations

import ipywidgets as widgets

from ._controls import (
    StaticFallback,
    format_ints,
    info_html,
    offered_strides,
    parse_ints,
    static_html,
)
from ._language import english, translate
from ._layout import MAX_DIMS, Layout, layout_of, storage_position
from ._memory_text import (
    PRESETS,
    compare_lines,
    describe,
    drawing_error,
    layout_repr,
    panel,
    refusal_lines,
)
from ._svg import memory_svg

__all__ = ["MemoryLayout", "shares_storage"]

CUSTOM = "(custom)"  # the preset control's value; its label is translated
# Each control's name (its description: its accessible name) and hover text.
_LABELS = {
    "preset": english("preset", "memory"),
    "shape": english("shape", "memory"),
    "stride": english("stride", "memory"),
    "offset": english("offset", "memory"),
    "storage": english("storage", "memory"),
}
_TIPS = {
    "preset": english("start from a view made by real torch code", "memory"),
    "shape": english("the view's size in each dim, e.g. 3, 4", "memory"),
    "stride": english("elements to step in storage per index, one per dim, e.g. 4, 1", "memory"),
    "offset": english("storage position of element [0, …, 0], in elements", "memory"),
    "storage": english("elements in the storage under the view", "memory"),
}


def _described(name: str) -> dict:
    return {"description": translate(_LABELS[name], "memory"),
            "tooltip": translate(_TIPS[name], "memory")}


def shares_storage(a, b) -> bool:
    """Whether two tensors are views of one storage (meta tensors included).

    ``_cdata`` is the address of the storage object itself: unlike the data
    pointer it tells storages apart when they hold no memory (empty, meta).
    """
    if a.device != b.device:
        return False
    return a.untyped_storage()._cdata == b.untyped_storage()._cdata


def _initial_layout(tensor, shape, stride, offset, storage_size, itemsize) -> Layout:
    if tensor is not None:
        layout = layout_of(tensor)
        if layout.ndim > MAX_DIMS:
            raise ValueError(f"MemoryLayout draws up to {MAX_DIMS} dims; got {layout.ndim}")
        return layout
    if shape is None:
        return Layout.of(**_preset_layout("transpose"))
    return Layout.of(shape, stride, offset, storage_size, itemsize)


def _preset_layout(name: str) -> dict:
    layout = layout_of(PRESETS[name][1]())
    return dict(shape=layout.shape, stride=layout.stride, offset=layout.offset,
                storage_size=layout.storage_size, itemsize=layout.itemsize)  # fmt: skip


class MemoryLayout(StaticFallback, widgets.VBox):
    """Draw where each element of a view lives in its flat storage.

    ``MemoryLayout(t)`` reads ``t``'s metadata only (never its data), so huge and
    meta tensors work. ``MemoryLayout(view, base=b)`` also draws ``b`` and says
    whether the two share storage. Without a tensor, give ``shape`` (and
    optionally ``stride``, ``offset``, ``storage_size``) or start from a preset.
    """

    def __init__(self, tensor=None, base=None, *, shape=None, stride=None, offset=0,
                 storage_size=None, itemsize=8, index=None):  # fmt: skip
        layout = _initial_layout(tensor, shape, stride, offset, storage_size, itemsize)
        self._base = layout_of(base) if base is not None else None
        self._shares = base is not None and tensor is not None and shares_storage(tensor, base)
        self._layout, self._error, self._syncing = layout, None, False
        self._strides_typed = False  # until the student types strides, shapes come with their own
        self._selected = tuple(index) if index is not None else (0,) * layout.ndim
        self._build_controls(layout)
        super().__init__(children=self._rows())
        self._apply(layout)

    # --- state, read by tests and by the repr ------------------------------------

    @property
    def layout(self) -> Layout:
        """The layout asked for last (drawn, unless ``error`` says why not)."""
        return self._layout

    @property
    def error(self) -> str | None:
        """Why the current controls cannot be drawn, or None."""
        return self._error

    @property
    def selected(self) -> tuple[int, ...] | None:
        """The index whose address arithmetic is shown (None for views without elements)."""
        return self._selected

    @property
    def svgs(self) -> list[str]:
        """The pictures drawn now: none while ``error`` explains why not."""
        return list(self._svgs)

    @property
    def sliders(self) -> list:
        """The index controls' old name (``benchmarks/widgets_bench.py`` still uses it)."""
        return self.index_boxes

    def __repr__(self) -> str:
        text = f"MemoryLayout({layout_repr(self._layout)}"
        if self._base is not None:
            text += f", base=({layout_repr(self._base)}), shares_storage={self._shares}"
        text += ")"
        return text + (f"\nrefused: {self._error}" if self._error else "")  # torch's words

    def static_html(self) -> str:
        return static_html(self._svgs, self._info, repr(self).splitlines()[0])

    # --- actions the controls call -----------------------------------------------

    def set_layout(self, shape, stride=None, offset=0, storage_size=None) -> None:
        """Show another layout (as the controls would); invalid ones show torch's reason."""
        self._strides_typed = stride is not None
        self._apply(Layout.of(shape, stride, offset, storage_size, self._layout.itemsize))

    def select(self, index) -> None:
        """Show the address arithmetic of ``index`` (it is kept visible in the drawing).

        Negative entries count from the end; an index out of range raises IndexError.
        """
        storage_position(self._layout, index)  # raises before any state changes
        self._selected = tuple(i % n for i, n in zip(index, self._layout.shape))
        self._sync_index_boxes()
        self.redraw()

    def apply_preset(self, name: str) -> None:
        self._strides_typed = False
        self._apply(Layout.of(**_preset_layout(name)))
        self._set_quietly(self.preset, name)

    def redraw(self) -> None:
        view = self._layout
        if self._error:
            # The error replaces the picture: a drawing beside it would be of another layout.
            self._svgs = []
            # The elements line belongs to the layout's own refusal, not to a typing error.
            own = self._error == drawing_error(view)
            self._info = info_html(refusal_lines(view) if own else [], self._error)
        else:
            self._svgs, lines = self._drawings()
            self._info = info_html(lines)
        self.drawing.value = "".join(self._svgs) + self._info

    def _drawings(self) -> tuple[list[str], list[str]]:
        view = self._layout
        title = translate("view {shape}, stride {stride}, offset {offset}", "memory").format(
            shape=view.shape, stride=view.stride, offset=view.offset)
        main = panel(title, view, self._selected)
        lines = describe(view, self._selected, "x" if self._base is None else "view")
        if self._base is None:
            return [memory_svg([main], view.storage_size, self._selected)], lines
        svgs, extra = self._compare_drawings(main)
        return svgs, lines + extra

    def _compare_drawings(self, main):
        base = self._base
        title = translate("base {shape}, stride {stride}, offset {offset}", "memory").format(
            shape=base.shape, stride=base.stride, offset=base.offset)
        base_panel = panel(title, base)
        lines = compare_lines(self._layout, base, self._shares)
        if self._shares:
            svg = memory_svg([main, base_panel], base.storage_size, self._selected)
            return [svg], lines
        view = self._layout
        return [
            memory_svg([main], view.storage_size, self._selected),
            memory_svg([base_panel], base.storage_size, None),
        ], lines

    # --- wiring ------------------------------------------------------------------

    def _build_controls(self, layout: Layout) -> None:
        # A description becomes a <label for=…> of the input: the control's accessible name.
        text = dict(continuous_update=False, layout=widgets.Layout(width="220px"))
        custom = (translate("(custom)", "memory"), CUSTOM)
        self.preset = widgets.Dropdown(options=[custom, *((name, name) for name in PRESETS)],
                                       value=CUSTOM, **_described("preset"))  # fmt: skip
        self.preset_code = widgets.HTML()
        self.shape_box, self.stride_box, self.offset_box, self.storage_box = (
            kind(**_described(name), **text)
            for kind, name in ((widgets.Text, "shape"), (widgets.Text, "stride"),
                               (widgets.IntText, "offset"), (widgets.IntText, "storage"))
        )  # fmt: skip
        self.index_boxes = [_index_box(d) for d in range(MAX_DIMS)]
        self.drawing = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        self.preset.observe(self._on_preset, "value")
        for box in (self.shape_box, self.stride_box, self.offset_box, self.storage_box):
            box.observe(self._on_typed, "value")
        for box in self.index_boxes:
            box.observe(self._on_index, "value")

    def _rows(self) -> list:
        return [
            widgets.HBox([self.preset, self.preset_code]),
            widgets.HBox([self.shape_box, self.stride_box]),
            widgets.HBox([self.offset_box, self.storage_box]),
            widgets.HBox(self.index_boxes),
            self.drawing,
        ]

    def _apply(self, layout: Layout) -> None:
        """Take a layout from any source; a refused one is kept, with torch's reason."""
        self._layout = layout
        self._error = drawing_error(layout)
        if self._error is None:
            self._selected = _clamped(self._selected, layout.shape)
        self._show_in_controls(layout)
        self._sync_index_boxes()
        self.redraw()

    def _show_in_controls(self, layout: Layout) -> None:
        self._set_quietly(self.shape_box, format_ints(layout.shape))
        self._set_quietly(self.stride_box, format_ints(layout.stride))
        self._set_quietly(self.offset_box, layout.offset)
        self._set_quietly(self.storage_box, layout.storage_size)
        self._set_quietly(self.preset, CUSTOM)
        self.preset_code.value = ""

    def _set_quietly(self, control, value) -> None:
        # Programmatic updates must not fire the handlers meant for the student's edits.
        self._syncing = True
        try:
            control.value = value
        finally:
            self._syncing = False
        if control is self.preset and value in PRESETS:
            self.preset_code.value = f"<code>{PRESETS[value][0]}</code>"

    def _sync_index_boxes(self) -> None:
        shape, selected = self._layout.shape, self._selected
        for d, box in enumerate(self.index_boxes):
            visible = not self._error and selected is not None and d < len(shape)
            box.layout.display = None if visible else "none"
            if visible:
                self._set_quietly(box, 0)
                box.max = shape[d] - 1
                self._set_quietly(box, selected[d])

    def _on_preset(self, change) -> None:
        if not self._syncing and change["new"] in PRESETS:
            self.apply_preset(change["new"])

    def _on_typed(self, change) -> None:
        if self._syncing:
            return
        self._strides_typed |= change["owner"] is self.stride_box
        try:
            shape = parse_ints(self.shape_box.value, self.shape_box.description)
            stride = parse_ints(self.stride_box.value, self.stride_box.description)
        except ValueError as e:
            self._error = str(e)
            self._sync_index_boxes()  # an index into a picture no longer shown explains nothing
            self.redraw()
            return
        if change["owner"] is self.shape_box:
            old = self._layout.shape
            stride = offered_strides(old, shape, stride, self._strides_typed)
            self._strides_typed &= len(shape) == len(old)
        layout = Layout(shape, stride, self.offset_box.value, self.storage_box.value,
                        self._layout.itemsize)  # fmt: skip
        self._apply(layout)

    def _on_index(self, change) -> None:
        if self._syncing or self._selected is None:
            return
        self._selected = tuple(b.value for b in self.index_boxes[: self._layout.ndim])
        self.redraw()


def _index_box(dim: int) -> widgets.BoundedIntText:
    # A number field, not an IntSlider: ipywidgets gives a slider's handle no accessible
    # name, and arrow keys step a number field just as they step a slider.
    return widgets.BoundedIntText(
        description=translate("index {dim}", "memory").format(dim=dim), min=0,
        continuous_update=True, layout=widgets.Layout(width="160px"),
        tooltip=translate("which index along dim {dim} to explain", "memory").format(dim=dim))


def _clamped(selected, shape) -> tuple[int, ...] | None:
    """The selected index moved inside ``shape`` (None when there is no element)."""
    if 0 in shape:
        return None
    old = list(selected or ())
    old += [0] * (len(shape) - len(old))
    return tuple(min(max(i, 0), n - 1) for i, n in zip(old, shape))
