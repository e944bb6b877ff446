"""Pure SVG drawing of an alignment: shapes lined up from the right, stretched dims marked.

Deterministic like ``_svg``: each dim box carries ``data-operand``, ``data-dim``
(negative, counted from the right) and ``data-role`` so tests can read it back.
"""

from __future__ import annotations

from html import escape

from ._broadcast import Alignment

__all__ = ["alignment_svg", "ROLE_STYLE"]

_CELL_W, _CELL_H, _LABEL_W = 64, 30, 190
# Role → (fill, stroke, dash): what each dim does, at a glance.
ROLE_STYLE = {
    "kept": ("#dfe9f5", "#5b7fa6", ""),
    "stretched": ("#ffd8a8", "#e67e22", ""),
    "new": ("#fff4e6", "#e67e22", ' stroke-dasharray="4 3"'),
    "clash": ("#f8c0c0", "#c0392b", ""),
    "result": ("#d5f5e3", "#1e8449", ""),
    "unknown": ("#f8c0c0", "#c0392b", ' stroke-dasharray="4 3"'),
}


def _text(x: int, y: int, text: str, size: int = 12, anchor: str = "start") -> str:
    return f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}">{escape(text)}</text>'


def _box_label(size: int | None, role: str, result: int | None) -> str:
    if role == "new":
        return f"(1)→{result}" if result is not None else "(1)"
    if role == "stretched" and result is not None:
        return f"1→{result}"
    return "?" if size is None else str(size)


def _box(x: int, y: int, operand: str, dim: int, role: str, label: str) -> str:
    fill, stroke, dash = ROLE_STYLE[role]
    return (
        f'<g class="dim {role}" data-operand="{operand}" data-dim="{dim}" data-role="{role}">'
        f'<rect x="{x}" y="{y}" width="{_CELL_W - 6}" height="{_CELL_H - 6}" rx="4" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"{dash}/>'
        f"{_text(x + (_CELL_W - 6) // 2, y + 17, label, 12, 'middle')}</g>"
    )


def alignment_svg(alignment: Alignment, names, shapes) -> str:
    """One row per operand and one for the result; columns are dims, aligned right."""
    ndim = len(alignment.result)
    width = _LABEL_W + max(ndim, 1) * _CELL_W + 8
    parts = [_text(_LABEL_W + d * _CELL_W + _CELL_W // 2 - 3, 14, f"dim {d - ndim}", 11, "middle")
             for d in range(ndim)]  # fmt: skip
    y = 22
    for name, shape, row, roles in zip(names, shapes, alignment.rows, alignment.roles):
        parts.append(_text(6, y + 18, f"{name}  {tuple(shape)}", 13))
        for d, (size, role) in enumerate(zip(row, roles)):
            label = _box_label(size, role, alignment.result[d])
            parts.append(_box(_LABEL_W + d * _CELL_W, y, name, d - ndim, role, label))
        y += _CELL_H
    y += 6
    parts.append(f'<line x1="4" y1="{y}" x2="{width - 4}" y2="{y}" stroke="#888888"/>')
    y += 6
    clash = None in alignment.result
    result_name = "result: no shape" if clash else f"result  {tuple(alignment.result)}"
    parts.append(_text(6, y + 18, result_name, 13))
    for d, size in enumerate(alignment.result):
        role = "unknown" if size is None else "result"
        label = "✗" if size is None else str(size)
        parts.append(_box(_LABEL_W + d * _CELL_W, y, "result", d - ndim, role, label))
    height = y + _CELL_H + 6
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ta-broadcast" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">'
    )
    return head + "".join(parts) + "</svg>"
