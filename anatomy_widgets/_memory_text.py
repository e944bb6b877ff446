"""Pure descriptions for the memory layout widget: what to draw and what to say.

The widget class only holds state; these functions turn a state (a layout, an
optional base layout, a selected index) into panels, sentences and a repr. The
sentences are in the kernel's language (``translate``, context "memory"); the repr
and the presets' names (torch's words) are not.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ._language import translate
from ._layout import (
    MAX_DIMS,
    Layout,
    address_formula,
    bounds_error,
    distinct_positions,
    is_contiguous,
    overlap_kind,
    overlapping_elements,
    required_storage,
    shown_indices,
    slots_per_dim,
    storage_position,
)
from ._svg import Panel

__all__ = [
    "PRESETS",
    "drawing_error",
    "refusal_lines",
    "panel",
    "describe",
    "layout_repr",
    "compare_lines",
]

# Each preset is the torch code shown to the student and that code, run. The widget
# reads the layout off the real (tiny) tensor, so presets are right by construction.
PRESETS: dict[str, tuple[str, Callable[[], torch.Tensor]]] = {
    "contiguous": ("torch.arange(12).view(3, 4)", lambda: torch.arange(12).view(3, 4)),
    "transpose": ("torch.arange(12).view(3, 4).t()", lambda: torch.arange(12).view(3, 4).t()),
    "slice / narrow (offset)": (
        "torch.arange(12).view(3, 4).narrow(1, 1, 2)",
        lambda: torch.arange(12).view(3, 4).narrow(1, 1, 2),
    ),
    "expand (stride 0)": ("torch.arange(4).expand(3, 4)", lambda: torch.arange(4).expand(3, 4)),
    "diagonal": (
        "torch.arange(16).view(4, 4).diagonal()",
        lambda: torch.arange(16).view(4, 4).diagonal(),
    ),
    "sliding window (as_strided)": (
        "torch.arange(6).as_strided((4, 3), (1, 1))",
        lambda: torch.arange(6).as_strided((4, 3), (1, 1)),
    ),
    "permute (3-D)": (
        "torch.arange(24).view(2, 3, 4).permute(2, 0, 1)",
        lambda: torch.arange(24).view(2, 3, 4).permute(2, 0, 1),
    ),
    "channels_last (4-D)": (
        "torch.arange(24).view(2, 3, 2, 2).contiguous(memory_format=torch.channels_last)",
        lambda: torch.arange(24).view(2, 3, 2, 2).contiguous(memory_format=torch.channels_last),
    ),
}

_MAX_LISTED_OVERLAPS = 4


def drawing_error(layout: Layout) -> str | None:
    """Why this layout cannot be drawn: torch's refusal, or more dims than we draw."""
    reason = bounds_error(layout)
    if reason and reason.startswith("setStorage"):
        # Quoted verbatim, so students can match it to torch's; it alone counts bytes.
        return translate("as_strided refuses this layout (torch's words, storage sizes in "
                         "bytes): {reason}", "memory").format(reason=reason)
    if reason:
        return translate("as_strided refuses this layout: {reason}", "memory").format(
            reason=reason)
    if layout.ndim > MAX_DIMS:
        return translate("this widget draws up to {most} dims; got {ndim}", "memory").format(
            most=MAX_DIMS, ndim=layout.ndim)
    return None


def panel(title: str, layout: Layout, selected=None) -> Panel:
    """The grid to draw for ``layout``, elided per dim, keeping ``selected`` visible."""
    slots = slots_per_dim(layout.ndim)
    focus = selected if selected is not None else (None,) * layout.ndim
    axes = tuple(shown_indices(n, slots, f) for n, f in zip(layout.shape, focus))
    return Panel(title, layout, axes)


def layout_repr(layout: Layout) -> str:
    return (
        f"shape={layout.shape}, stride={layout.stride}, offset={layout.offset}, "
        f"storage={layout.storage_size}"
    )


def describe(layout: Layout, selected=None, name: str = "x") -> list[str]:
    """Sentences under the drawing: contiguity, overlap, elision, the selected address."""
    kind = overlap_kind(layout)
    first = (translate("{count:,} element · contiguous: {contiguous} · elements sharing a "
                       "storage cell: {overlap}", "memory") if layout.numel == 1 else
             translate("{count:,} elements · contiguous: {contiguous} · elements sharing a "
                       "storage cell: {overlap}", "memory"))
    lines = [first.format(count=layout.numel, contiguous=is_contiguous(layout),
                          overlap=_overlap_words(kind))]
    if layout.numel <= 4096 and kind == "overlapping":
        lines.extend(_overlap_lines(layout))
    if selected is not None:
        lines.append(_address_line(layout, selected, name))
    lines.append(_bytes_line(layout, selected, name))
    elided = [d for d, n in enumerate(layout.shape) if n > slots_per_dim(layout.ndim)]
    if elided:
        dims = ", ".join(str(d) for d in elided)
        sentence = (translate("too big to draw whole: dims {dims} show their first and last "
                              "indices around '…' (nothing was allocated or read)", "memory")
                    if len(elided) > 1 else
                    translate("too big to draw whole: dim {dims} shows its first and last "
                              "indices around '…' (nothing was allocated or read)", "memory"))
        lines.append(sentence.format(dims=dims))
    return lines


def _overlap_words(kind: str) -> str:
    if kind == "none":
        return translate("none", "memory")
    if kind == "overlapping":
        return translate("yes", "memory")
    return translate("cannot tell from strides alone", "memory")


def _overlap_lines(layout: Layout) -> list[str]:
    shared = sorted(overlapping_elements(layout).items())
    read_by = translate("storage[{position}] is read by {indices}", "memory")
    lines = [read_by.format(position=p, indices=", ".join(str(list(i)) for i in indices))
             for p, indices in shared[:_MAX_LISTED_OVERLAPS]]
    if len(shared) > _MAX_LISTED_OVERLAPS:
        lines.append(translate("... and {more} more shared cells", "memory").format(
            more=len(shared) - _MAX_LISTED_OVERLAPS))
    return lines


def _address_line(layout: Layout, selected, name: str) -> str:
    index = ", ".join(str(i) for i in selected)
    return translate("{name}[{index}] → offset + Σ index·stride = {formula}", "memory").format(
        name=name, index=index, formula=address_formula(layout, selected))


def _bytes_line(layout: Layout, selected, name: str) -> str:
    """The one line in bytes (every other counts elements): torch's own unit for storage."""
    line = translate("in bytes: itemsize {itemsize}, storage {nbytes:,}", "memory").format(
        itemsize=layout.itemsize, nbytes=layout.storage_size * layout.itemsize)
    if selected is not None:
        start = storage_position(layout, selected) * layout.itemsize
        index = ", ".join(str(i) for i in selected)
        line += translate(", {name}[{index}] starts at byte {start:,}", "memory").format(
            name=name, index=index, start=start)
    return line


def refusal_lines(layout: Layout) -> list[str]:
    """Under a refusal quoted from torch (which counts bytes): the same shortfall in elements."""
    needed = required_storage(layout.shape, layout.stride, layout.offset)
    if len(layout.shape) != len(layout.stride) or needed <= layout.storage_size:
        return []
    return [translate("in elements: this view reads up to storage[{last:,}], so it needs "
                      "{needed:,} elements; the storage has {size:,}", "memory").format(
        last=needed - 1, needed=needed, size=layout.storage_size)]


def compare_lines(view: Layout, base: Layout, shares: bool) -> list[str]:
    """How the view sits on the base's storage (or that it has storage of its own)."""
    if not shares:
        return [translate("view and base do NOT share storage: they are separate blocks of "
                          "memory", "memory")]
    return [
        translate("view and base share ONE storage of {size:,} elements: writing through "
                  "either changes what the other reads", "memory").format(size=view.storage_size),
        translate("the view reads {view} of its cells; the base reads {base}", "memory").format(
            view=_cells(view), base=_cells(base)),
    ]


def _cells(layout: Layout) -> str:
    count, exact = distinct_positions(layout)
    return f"{count:,}" if exact else translate("at most {count:,}", "memory").format(count=count)
