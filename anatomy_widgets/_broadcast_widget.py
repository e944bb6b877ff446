"""The broadcasting widget: two or three shapes, aligned from the right, and what torch does.

Like the memory widget it is plain ipywidgets; the class holds state and wires
controls, the sentences below are pure functions of the shapes, in the kernel's
language (``translate``, context "broadcast"; torch's own messages stay torch's).
"""

from __future__ import annotations

import math

import ipywidgets as widgets

from ._broadcast import Alignment, BroadcastError, align, broadcast_shapes, broadcast_values
from ._broadcast import expand_strides as _expand_strides
from ._broadcast_svg import alignment_svg
from ._controls import StaticFallback, format_ints, info_html, parse_ints, static_html
from ._language import translate
from ._layout import new_meta as _new_meta

__all__ = ["Broadcast", "broadcast_lines", "example_lines"]

NAMES = ("a", "b", "c")
_MAX_EXAMPLE = 64  # elements in the result; more would not fit on a screen


def broadcast_lines(shapes, strides, alignment: Alignment) -> list[str]:
    """What happens: the result and the stride-0 views, or torch's reasons for refusing."""
    names = NAMES[: len(shapes)]
    try:
        result = broadcast_shapes(*shapes)
    except BroadcastError as e:
        return _clash_lines(names, alignment) + [
            translate("torch.broadcast_shapes says: {message}", "broadcast").format(message=e),
            translate("{operation} says: {message}", "broadcast").format(
                operation=" + ".join(names), message=e.operator_message),
        ]
    lines = [translate("result shape: {result}", "broadcast").format(result=result)]
    for name, shape, stride, roles in zip(names, shapes, strides, alignment.roles):
        if "stretched" in roles or "new" in roles:
            try:
                if stride is None:
                    raise ValueError(translate("torch cannot make a tensor of shape {shape}",
                                               "broadcast").format(shape=tuple(shape)))
                expanded = _expand_strides(shape, stride, result)
            except ValueError as e:  # more elements than torch can count (int64)
                lines.append(f"{name}.expand{result}: {e}")
                continue
            lines.append(translate(
                "{name}.expand{result}: stride {stride} — stride 0 in a dim means every index "
                "there reads the same cells: nothing is copied", "broadcast").format(
                name=name, result=result, stride=expanded))
        else:
            lines.append(translate("{name} already has shape {result}: used as it is",
                                   "broadcast").format(name=name, result=result))
    return lines


def _clash_lines(names, alignment: Alignment) -> list[str]:
    ndim = len(alignment.result)
    has = translate("{name} has {size}", "broadcast")
    clash = translate("does not broadcast: in dim {dim}, {sizes}: sizes must be equal, or 1",
                      "broadcast")
    lines = []
    for dim in alignment.clash_dims:
        sizes = [has.format(name=name, size=row[ndim + dim])
                 for name, row in zip(names, alignment.rows) if row[ndim + dim] not in (None, 1)]
        lines.append(clash.format(dim=dim, sizes=", ".join(sizes)))
    return lines


def example_lines(shapes) -> list[str]:
    """A small example with values: each operand, stretched, and their sum."""
    try:
        result = broadcast_shapes(*shapes)
    except BroadcastError:
        return []
    if math.prod(result) > _MAX_EXAMPLE or max(map(math.prod, shapes)) > _MAX_EXAMPLE:
        return [translate("(values shown for up to {most} elements)", "broadcast").format(
            most=_MAX_EXAMPLE)]
    total = broadcast_values([0] * math.prod(result), result, result)
    stretched_to = translate("{name} = {values}  stretched to {result}: {stretched}", "broadcast")
    lines = []
    for k, (name, shape) in enumerate(zip(NAMES, shapes)):
        values = [v * 10**k for v in range(math.prod(shape))]  # a: 0 1 2.., b: 0 10 20..
        stretched = broadcast_values(values, shape, result)
        lines.append(stretched_to.format(name=name, values=_nested(values, shape), result=result,
                                         stretched=stretched))
        total = _add(total, stretched)
    return lines + [f"{' + '.join(NAMES[: len(shapes)])} = {total}"]


def _nested(values, shape):
    return broadcast_values(values, shape, shape)


def _add(x, y):
    if isinstance(x, list):
        return [_add(a, b) for a, b in zip(x, y)]
    return x + y


class Broadcast(StaticFallback, widgets.VBox):
    """Show how two or three shapes broadcast, or exactly why they do not.

    ``Broadcast((3, 1), (4,))`` or ``Broadcast(t1, t2)``: tensors contribute their
    shape and strides (so the expand strides shown are theirs). ``values=True``
    adds a small worked example.
    """

    def __init__(self, *operands, values: bool = False) -> None:
        operands = operands or ((3, 1), (4,))
        if not 1 <= len(operands) <= 3:
            raise ValueError(f"Broadcast takes one to three shapes, got {len(operands)}")
        self._shapes = [tuple(op.shape) if _is_tensor(op) else tuple(op) for op in operands]
        # Strides: a tensor's own, or torch's for a new tensor of that shape.
        self._strides = [_strides(op if _is_tensor(op) else _new_meta(op)) for op in operands]
        self._error: str | None = None
        text = dict(continuous_update=False, layout=widgets.Layout(width="220px"))
        # Each description is its control's accessible name (a <label for=…> in the page).
        self.boxes = [
            widgets.Text(description=_label(name), tooltip=_tip(name), **text) for name in NAMES
        ]
        for box, shape in zip(self.boxes, self._shapes):
            box.value = format_ints(shape)
        self.values_box = widgets.Checkbox(
            value=values, description=translate("show example values", "broadcast"),
            tooltip=translate("add a worked example", "broadcast"),
        )
        self.drawing = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        for control in (*self.boxes, self.values_box):
            control.observe(self._on_change, "value")
        super().__init__(children=[widgets.HBox(self.boxes), self.values_box, self.drawing])
        self.redraw()

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        return list(self._shapes)

    @property
    def result(self) -> tuple[int, ...] | None:
        """The broadcast shape, or None when the shapes do not broadcast."""
        try:
            return broadcast_shapes(*self._shapes)
        except BroadcastError:
            return None

    @property
    def error(self) -> str | None:
        """The current problem: unreadable text, or torch's reason for refusing."""
        return self._error

    @property
    def svg(self) -> str:
        """The picture drawn now; "" while unreadable text is explained instead."""
        return self._svg

    def __repr__(self) -> str:
        operands = ", ".join(str(s) for s in self._shapes)
        if self._error:
            return f"Broadcast({operands}): {self._error}"
        return f"Broadcast({operands}) -> {self.result}"

    def static_html(self) -> str:
        return static_html([self._svg] if self._svg else [], self._info, repr(self))

    def set_shapes(self, *shapes) -> None:
        """Show other shapes (as typing them would); strides become row-major."""
        texts = [format_ints(shape) for shape in shapes] + ["", ""]  # "" in c: no third
        for box, text in zip(self.boxes, texts):
            box.value = text  # fires _on_change, which redraws

    def redraw(self) -> None:
        self._error = self._parse_error or _reason(self._shapes)
        if self._parse_error:
            # Only the error: the last good shapes' picture would not be of the typed ones.
            self._svg, self._info = "", info_html([], self._parse_error)
        else:
            alignment = align(*self._shapes)
            lines = broadcast_lines(self._shapes, self._strides, alignment)
            if self.values_box.value:
                lines += example_lines(self._shapes)
            self._svg = alignment_svg(alignment, NAMES[: len(self._shapes)], self._shapes)
            self._info = info_html(lines)
        self.drawing.value = self._svg + self._info

    _parse_error: str | None = None

    def _on_change(self, change) -> None:
        try:
            typed = [parse_ints(box.value, _label(n)) for n, box in zip(NAMES, self.boxes)]
            _check_sizes(typed)
        except ValueError as e:
            self._parse_error = str(e)
            self.redraw()
            return
        # a and b are always operands; an empty c means "only two shapes".
        keep = 3 if self.boxes[2].value.strip() else 2
        shapes = typed[:keep]
        if shapes != self._shapes:
            self._strides = [_strides(_new_meta(s)) for s in shapes]
        self._shapes, self._parse_error = shapes, None
        self.redraw()


def _label(name: str) -> str:
    return translate("{name} shape", "broadcast").format(name=name)


def _tip(name: str) -> str:
    if name == "c":
        return translate("shape of operand {name}, e.g. 3, 1, or empty for none",
                         "broadcast").format(name=name)
    return translate("shape of operand {name}, e.g. 3, 1", "broadcast").format(name=name)


def _check_sizes(shapes) -> None:
    for shape in shapes:
        if any(n < 0 for n in shape):
            raise ValueError(translate("sizes must be non-negative, got {shape}",
                                       "broadcast").format(shape=shape))
        if len(shape) > 6:
            raise ValueError(translate("this widget draws up to {most} dims; got {ndim}",
                                       "broadcast").format(most=6, ndim=len(shape)))


def _reason(shapes) -> str | None:
    try:
        broadcast_shapes(*shapes)
    except BroadcastError as e:
        return e.operator_message
    return None


def _is_tensor(operand) -> bool:
    return hasattr(operand, "stride")


def _strides(tensor) -> tuple[int, ...] | None:
    return None if tensor is None else tuple(tensor.stride())
