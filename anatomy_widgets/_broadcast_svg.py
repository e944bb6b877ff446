"""Pure SVG drawing of an alignment: shapes lined up from the right, stretched dims marked.

Deterministic like ``_svg``: each dim box carries ``data-operand``, ``data-dim``
(negative, counted from the right) and ``data-role`` so tests can read it back.
Boxes and the name column widen to their longest label, so a size such as
``(1)→1000`` never spills out of its box (widths from ``_labels``' estimate). Words
are in the kernel's language (``translate``, context "broadcast").
"""

from __future__ import annotations

import math
from html import escape

from ._broadcast import Alignment
from ._contrast import BACKGROUND, INK
from ._labels import CHAR_EM, PAD, columns, fit_font
from ._language import english, translate

__all__ = ["alignment_svg", "ROLE_STYLE", "ROLE_WORDS"]

_CELL_W, _CELL_H, _LABEL_W = 64, 30, 190
_BOX_FONT, _NAME_FONT = 12, 13
# Role → (fill, stroke, dash): what each dim does, at a glance. Text on them is INK.
ROLE_STYLE = {
    "kept": ("#dfe9f5", "#5b7fa6", ""),
    "stretched": ("#ffd8a8", "#e67e22", ""),
    "new": ("#fff4e6", "#e67e22", ' stroke-dasharray="4 3"'),
    "clash": ("#f8c0c0", "#c0392b", ""),
    "result": ("#d5f5e3", "#1e8449", ""),
    "unknown": ("#f8c0c0", "#c0392b", ' stroke-dasharray="4 3"'),
}
# Said by each box's tooltip (and screen readers): colour alone must not carry the meaning.
ROLE_WORDS = {
    "kept": english("kept as it is", "broadcast"),
    "stretched": english("size 1, stretched (stride 0)", "broadcast"),
    "new": english("no such dim: acts as size 1, stretched (stride 0)", "broadcast"),
    "clash": english("clashes: sizes must be equal, or 1", "broadcast"),
    "result": english("the result's size", "broadcast"),
    "unknown": english("no result: the sizes clash", "broadcast"),
}
_RESULT = "result"  # the result row's data-operand


def _text(x: int, y: int, text: str, size: int = 12, anchor: str = "start") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{INK}">'
        f"{escape(text)}</text>"
    )


def _box_label(size: int | None, role: str, result: int | None) -> str:
    if role == "new":
        return f"(1)→{result}" if result is not None else "(1)"
    if role == "stretched" and result is not None:
        return f"1→{result}"
    return "?" if size is None else str(size)


def _width_for(text: str, font: int, least: int) -> int:
    return max(least, math.ceil(columns(text) * CHAR_EM * font) + 2 * PAD + 8)


def _box(x: int, y: int, width: int, where: tuple[str, int], role: str, label: str) -> str:
    fill, stroke, dash = ROLE_STYLE[role]
    operand, dim = where
    w, h = width - 6, _CELL_H - 6
    font = fit_font(columns(label), w, h, _BOX_FONT) or _BOX_FONT  # columns are sized to fit
    shown = translate("result", "broadcast") if operand == _RESULT else operand
    title = translate("{operand}, dim {dim}: {label}, {role}", "broadcast").format(
        operand=shown, dim=dim, label=label, role=translate(ROLE_WORDS[role], "broadcast"))
    return (
        f'<g class="dim {role}" data-operand="{operand}" data-dim="{dim}" data-role="{role}">'
        f"<title>{escape(title, quote=False)}</title>"
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"{dash}/>'
        f"{_text(x + w // 2, y + h // 2 + font * 35 // 100, label, font, 'middle')}</g>"
    )


def _grid(alignment: Alignment, names) -> tuple[list[list[tuple]], list[int]]:
    """Per row (operands, then the result) its (name, role, label) boxes; per column its width."""
    ndim = len(alignment.result)
    rows = [
        [(name, role, _box_label(size, role, alignment.result[d]))
         for d, (size, role) in enumerate(zip(row, roles))]
        for name, row, roles in zip(names, alignment.rows, alignment.roles)
    ]  # fmt: skip
    rows.append([(_RESULT, "unknown", "✗") if n is None else (_RESULT, "result", str(n))
                 for n in alignment.result])  # fmt: skip
    widths = [max(_width_for(row[d][2], _BOX_FONT, _CELL_W) for row in rows) for d in range(ndim)]
    return rows, widths


def alignment_svg(alignment: Alignment, names, shapes) -> str:
    """One row per operand and one for the result; columns are dims, aligned right."""
    ndim = len(alignment.result)
    rows, widths = _grid(alignment, names)
    clash = None in alignment.result
    titles = [f"{name}  {tuple(shape)}" for name, shape in zip(names, shapes)]
    titles.append(translate("result: no shape", "broadcast") if clash else
                  translate("result  {shape}", "broadcast").format(shape=tuple(alignment.result)))
    left = max(_width_for(t, _NAME_FONT, _LABEL_W) for t in titles)
    xs = [left + sum(widths[:d]) for d in range(ndim)]
    width = left + max(sum(widths), _CELL_W) + 8
    dim = translate("dim {dim}", "broadcast")
    parts = [_text(x + w // 2 - 3, 14, dim.format(dim=d - ndim), 11, "middle")
             for d, (x, w) in enumerate(zip(xs, widths))]  # fmt: skip
    y = 22
    for k, (title, row) in enumerate(zip(titles, rows)):
        if k == len(rows) - 1:  # a rule above the result
            parts.append(f'<line x1="4" y1="{y + 6}" x2="{width - 4}" y2="{y + 6}" '
                         'stroke="#888888"/>')  # fmt: skip
            y += 12
        parts.append(_text(6, y + 18, title, _NAME_FONT))
        for d, (x, w, (name, role, label)) in enumerate(zip(xs, widths, row)):
            parts.append(_box(x, y, w, (name, d - ndim), role, label))
        y += _CELL_H
    return _svg(width, y + 6, parts, "; ".join(titles))


def _svg(width: int, height: int, parts, label: str) -> str:
    name = escape(translate("broadcasting: {shapes}", "broadcast").format(shapes=label))
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ta-broadcast" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'role="img" aria-label="{name}"><title>{name}</title>'
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>'
    )
    return head + "".join(parts) + "</svg>"
