"""Pure SVG drawing of storage strips and logical grids, from the layout logic's output.

Deterministic text (integer coordinates, no ids, no randomness): the same layout
always gives the same bytes, which is what lets nbval compare stored outputs.
Every element cell carries ``data-index`` and ``data-pos`` so tests (and browser
tests) can read the drawing back and compare it with torch. Titles, tooltips and the
picture's name are in the kernel's language (``translate``, context "memory"),
looked up once a drawing, not once an element.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape

from ._contrast import BACKGROUND, UNREAD, UNREAD_INK, colour
from ._labels import box_for, centred_text, columns
from ._language import translate
from ._layout import Layout, storage_positions, storage_slots

__all__ = ["Panel", "memory_svg", "MAX_WIDTH"]

MAX_WIDTH = 960
_MARKS = ("#1f3a93", "#e67e22")  # which panel reads a storage cell, in compare mode
_STORAGE_PER_ROW = 32
_LABEL_BOX = 24


@dataclass(frozen=True)
class Panel:
    """One logical grid to draw: its layout and, per dim, the indices shown (None = gap)."""

    title: str
    layout: Layout
    axes: tuple[tuple[int | None, ...], ...]

    def drawn_axes(self) -> list[list[int]]:
        return [[i for i in axis if i is not None] for axis in self.axes]

    def positions(self) -> list[int]:
        """Storage positions of the drawn elements, row-major (plain ints: cheap to make)."""
        return storage_positions(self.layout, self.drawn_axes())


def _label(x: int, y: int, text: str, size: int = 11, anchor: str = "start", cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{attr}>'
        f"{escape(text)}</text>"
    )


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.width = 0
        self.height = 0

    def grow(self, right: int, bottom: int) -> None:
        self.width, self.height = max(self.width, right), max(self.height, bottom)

    def svg(self, cls: str, label: str) -> str:
        """The picture, named for screen readers (``role="img"``, ``aria-label``, ``<title>``)."""
        w, h = self.width + 8, self.height + 8
        name = escape(label)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
            f'role="img" aria-label="{name}"><title>{name}</title>'
            f'<rect width="{w}" height="{h}" fill="{BACKGROUND}"/>'
        )
        return head + "".join(self.parts) + "</svg>"


def memory_svg(panels, storage_size: int, selected=None) -> str:
    """Storage strip on top, then each panel's grid; colours pair elements with cells.

    ``selected`` is an index into the first panel, outlined in red in both places.
    """
    drawn = [panel.positions() for panel in panels]
    used = sorted({p for positions in drawn for p in positions})
    ranks = {p: colour(r, len(used)) for r, p in enumerate(used)}
    readers = [_count(positions) for positions in drawn]
    chosen = _selected_position(panels, selected)
    canvas = _Canvas()
    slots = storage_slots(storage_size, used)
    y = _draw_storage(canvas, slots, storage_size, ranks, readers, chosen)
    for n, (panel, counts) in enumerate(zip(panels, readers)):
        mark = _MARKS[n] if len(panels) > 1 else None
        chosen_index = tuple(selected) if n == 0 and selected is not None else None
        y = _draw_panel(canvas, panel, counts, ranks, y + 18, chosen_index, mark)
    storage = (translate("storage of {count:,} element", "memory") if storage_size == 1 else
               translate("storage of {count:,} elements", "memory"))
    names = [storage.format(count=storage_size)] + [p.title for p in panels]
    return canvas.svg("ta-memory", "; ".join(names))


def _count(positions) -> dict[int, int]:
    return Counter(positions)


def _selected_position(panels, selected) -> int | None:
    if selected is None or not panels:
        return None
    layout = panels[0].layout
    return layout.offset + sum(i * s for i, s in zip(selected, layout.stride))


def _draw_storage(canvas, slots, storage_size, ranks, readers, chosen) -> int:
    per_row = max(1, min(len(slots), _STORAGE_PER_ROW))
    size = max(18, min(36, MAX_WIDTH // per_row))
    elided = len(slots) < storage_size
    # Elements only: bytes are said on a line of their own under the picture.
    title = (translate("storage: {count:,} element", "memory") if storage_size == 1 else
             translate("storage: {count:,} elements", "memory")).format(count=storage_size)
    if elided:
        title += translate(" (drawn: the {drawn} cells read or at an end)", "memory").format(
            drawn=sum(isinstance(s, int) for s in slots))
    canvas.parts.append(_label(4, 14, title, 12, cls="ta-title"))
    canvas.grow(4 + columns(title) * 8, 14)
    top = 22
    gap_title = translate("positions {start:,}..{last:,} ({count:,}) not drawn", "memory")
    cell_title = translate("storage[{position:,}]: read by {readers} drawn element(s) of one "
                           "view", "memory")
    for k, slot in enumerate(slots):
        x, y = 4 + (k % per_row) * size, top + (k // per_row) * (size + 8)
        if isinstance(slot, tuple):
            canvas.parts.append(_gap(x, y, size, slot, gap_title))
        else:
            canvas.parts.append(_storage_cell(x, y, size, slot, ranks, readers, chosen,
                                              cell_title))
    rows = (len(slots) + per_row - 1) // per_row
    bottom = top + rows * (size + 8)
    canvas.grow(4 + per_row * size, bottom)
    return bottom


def _gap(x: int, y: int, size: int, gap: tuple[int, int], title: str) -> str:
    start, stop = gap
    said = escape(title.format(start=start, last=stop - 1, count=stop - start))
    return (
        f'<g class="gap"><title>{said}'
        f"</title>{_label(x + size // 2, y + size // 2 + 4, '…', 14, 'middle')}</g>"
    )


def _storage_cell(x, y, size, position, ranks, readers, chosen, title) -> str:
    fill, ink = ranks.get(position, (UNREAD, UNREAD_INK))
    counts = [r.get(position, 0) for r in readers]
    # The badge counts readers within one tensor (overlap), not base and view together.
    total = max(counts, default=0)
    stroke = ' stroke="#d62728" stroke-width="3"' if position == chosen else ' stroke="#ffffff"'
    parts = [
        f'<g class="cell" data-pos="{position}" data-readers="{total}">'
        f"<title>{escape(title.format(position=position, readers=total))}</title>"
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}"{stroke}/>',
        centred_text(x, y, size, str(position), ink),
    ]
    if total > 1:
        parts.append(f'<text x="{x + size - 2}" y="{y + 9}" font-size="8" text-anchor="end" '
                     f'class="badge" fill="{ink}">×{total}</text>')  # fmt: skip
    if len(readers) > 1:
        for n, count in enumerate(counts):
            if count:
                mark_y = y + size + 1 + 3 * n
                parts.append(f'<rect x="{x}" y="{mark_y}" width="{size}" height="3" '
                             f'fill="{_MARKS[n]}"/>')  # fmt: skip
    parts.append("</g>")
    return "".join(parts)


def _blocks(axes) -> tuple[list[tuple], int]:
    """The 2-D blocks a grid is cut into (their leading indices) and how many go across."""
    lead = axes[:-2]
    if not lead:
        return [()], 1
    if len(lead) == 1:
        return [(i,) for i in lead[0]], len(lead[0])
    return [(i, j) for i in lead[0] for j in lead[1]], len(lead[1])


def _cell_size(cells_across: int, largest_position: int) -> int:
    """Cells shrink to fit MAX_WIDTH, but not below what their longest label needs.

    Up to ``_LABEL_BOX`` px (four digits readable) a grid rather grows wider and
    scrolls; longer labels are left to each cell's tooltip.
    """
    fit = max(12, min(36, (MAX_WIDTH - 24) // max(1, cells_across)))
    return max(fit, box_for(len(str(largest_position)), _LABEL_BOX))


def _draw_panel(canvas, panel, counts, ranks, top, selected, mark) -> int:
    axes = panel.axes
    rows = axes[-2] if len(axes) >= 2 else (0,)
    cols = axes[-1] if axes else (0,)
    blocks, across = _blocks(axes)
    size = _cell_size(across * (len(cols) + 1), max(counts, default=0))
    block_w, block_h = len(cols) * size, len(rows) * size + 16
    across = max(1, min(across, (MAX_WIDTH - 24 + size) // (block_w + size)))
    if mark:
        canvas.parts.append(f'<rect x="4" y="{top + 3}" width="10" height="10" fill="{mark}"/>')
    canvas.parts.append(_label(18 if mark else 4, top + 12, panel.title, 12, cls="ta-title"))
    canvas.grow(18 + columns(panel.title) * 8, top)
    if not counts:
        empty = translate("no elements: this view reads nothing", "memory")
        canvas.parts.append(_label(24, top + 34, empty, 11))
        canvas.grow(max(300, 24 + columns(empty) * 7), top + 40)
        return top + 40
    grid = _Grid(panel.layout, size, rows, cols, ranks, {p for p, n in counts.items() if n > 1},
                 escape(translate("[{name}] reads storage[{position}]", "memory")))
    top += 20
    for k, lead in enumerate(blocks):
        x = 24 + (k % across) * (block_w + size)
        y = top + (k // across) * (block_h + 8)
        canvas.parts.append(grid.block(x, y, lead, selected))
    bottom = top + ((len(blocks) + across - 1) // across) * (block_h + 8)
    canvas.grow(24 + across * (block_w + size), bottom)
    return bottom


@dataclass(frozen=True)
class _Grid:
    """What every 2-D block of a panel shares: layout, cell size, shown rows and columns."""

    layout: Layout
    size: int
    rows: tuple
    cols: tuple
    ranks: dict
    overlap: set
    reads: str  # each element's title, escaped: "[{name}] reads storage[{position}]"

    def block(self, x: int, y: int, lead: tuple, selected) -> str:
        """One 2-D slice ``[*lead, :, :]``; positions come from the strides, row by row."""
        ndim, stride = self.layout.ndim, self.layout.stride
        if None in lead:
            return _label(x, y + 12, "…", 14)
        parts = []
        if lead:
            name = "[" + ", ".join([str(i) for i in lead] + [":"] * (ndim - len(lead))) + "]"
            parts.append(_label(x, y + 11, name, 10))
        base = self.layout.offset + sum(i * s for i, s in zip(lead, stride))
        prefix = "".join(f"{i}, " for i in lead)
        row_step = stride[-2] if ndim >= 2 else 0
        col_step = stride[-1] if ndim else 0
        for r, row in enumerate(self.rows):
            cy = y + 16 + r * self.size
            if row is None:
                parts.extend(self._gap(x, cy, c, col, "⋮") for c, col in enumerate(self.cols))
                continue
            row_index = lead + (row,) if ndim >= 2 else lead
            row_name = f"{prefix}{row}, " if ndim >= 2 else prefix
            chosen_row = selected is not None and selected[:-1] == row_index
            row_pos = base + row * row_step
            for c, col in enumerate(self.cols):
                if col is None:
                    parts.append(self._gap(x, cy, c, None, "⋯"))
                    continue
                position = row_pos + col * col_step
                chosen = chosen_row and (not ndim or selected[-1] == col)
                name = f"{row_name}{col}" if ndim else ""
                parts.append(self._element(x + c * self.size, cy, name, position, chosen))
        return "".join(parts)

    def _gap(self, x: int, y: int, c: int, col, glyph: str) -> str:
        glyph = "⋱" if col is None and glyph == "⋮" else glyph
        middle = self.size // 2
        return _label(x + c * self.size + middle, y + middle + 4, glyph, 12, "middle")

    def _element(self, x: int, y: int, name: str, position: int, chosen: bool) -> str:
        # Called up to 4096 times a redraw: one lookup, one f-string, no containers.
        fill, ink = self.ranks[position]
        size = self.size
        if chosen:
            classes = "elem overlap selected" if position in self.overlap else "elem selected"
            stroke = ' stroke="#d62728" stroke-width="3"'
        elif position in self.overlap:
            classes, stroke = (
                "elem overlap",
                ' stroke="#000000" stroke-width="2" stroke-dasharray="3 2"',
            )
        else:
            classes, stroke = "elem", ' stroke="#ffffff"'
        return (
            f'<g class="{classes}" data-index="{name}" data-pos="{position}">'
            f"<title>{self.reads.format(name=name, position=position)}</title>"
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}"{stroke}/>'
            f"{centred_text(x, y, size, str(position), ink)}</g>"
        )
