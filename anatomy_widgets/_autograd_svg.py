"""Pure SVG drawing of an autograd graph: the root on top, leaves at the bottom.

One row per layer of ``Graph`` (every edge points down a row or more). Each node
is a box: its class name in a coloured band, then one line per saved tensor, with
its state written out ("stale", "freed by backward()"), never said by colour
alone, in the kernel's language (``translate``, context "autograd"). Deterministic
text, like the other pictures: integer coordinates, no ids. Boxes carry
``data-node``/``data-name``, saved lines ``data-saved``/``data-state``, so tests read
the drawing back.
"""

from __future__ import annotations

from html import escape

from ._autograd import Graph, Node
from ._contrast import BACKGROUND, ERROR_INK, INK, UNREAD_INK, ink_on
from ._labels import text_width
from ._language import translate

__all__ = ["graph_svg", "summary", "BANDS", "LINE_INKS"]

FONT = 11
LINE = 15  # px per text line
GAP_X, GAP_Y, MARGIN = 24, 36, 8
BANDS = {"node": "#1f3a93", "leaf": "#2e6b30"}  # header fills; the ink is computed
LINE_INKS = {"ok": INK, "none": UNREAD_INK, "freed": UNREAD_INK, "stale": ERROR_INK,
             "unreadable": ERROR_INK}  # fmt: skip
_MIN_BOX = 150


def summary(graph: Graph, lang: str | None = None) -> str:
    """One line for the picture's name and the widget's repr: counts only, deterministic;
    in ``lang`` (default: the kernel's language; the repr's is English)."""
    counts = {state: len(graph.saved(state)) for state in ("ok", "stale", "freed")}
    text = translate("autograd graph of {root}: {nodes} nodes, {saved} saved tensors",
                     "autograd", lang).format(root=graph.root, nodes=len(graph.nodes),
                                              saved=sum(counts.values()))
    extra = []
    if counts["stale"]:
        extra.append(translate("{count} stale", "autograd", lang).format(count=counts["stale"]))
    if counts["freed"]:
        extra.append(translate("{count} freed", "autograd", lang).format(count=counts["freed"]))
    return text + (f" ({', '.join(extra)})" if extra else "")


def _lines(node: Node) -> list[tuple[str, str, str, str | None]]:
    """(text, ink, state, saved name or None) of each line under the node's name."""
    lines = []
    if node.leaf is not None:
        leaf = node.leaf
        name = leaf.name or translate("leaf", "autograd")
        lines.append((f"{name}: {_shape(leaf.shape)} {leaf.dtype}, v{leaf.version}", INK, "var",
                      None))  # fmt: skip
        lines.append((f"grad: {leaf.grad}", INK if leaf.grad else UNREAD_INK, "grad", None))
    if node.output is not None:
        out = node.output
        lines.append((translate("makes {name}: {shape}", "autograd").format(
            name=out.name, shape=_shape(out.shape)), INK, "output", None))
        if out.grad is not None:
            lines.append((f"{out.name}.grad: {out.grad}", INK, "grad", None))
    saved_line = translate("saved {which}: {mark}", "autograd")
    for saved in node.saved:
        which = f"{saved.name} ({saved.of})" if saved.of else saved.name
        lines.append((saved_line.format(which=which, mark=saved.mark()), LINE_INKS[saved.state],
                      saved.state, saved.name))  # fmt: skip
    lines += [(f"{name} = {value}", INK, "attr", None) for name, value in node.attrs]
    if node.untracked:
        lines.append((translate("+{count} input(s) needing no grad", "autograd").format(
            count=node.untracked), UNREAD_INK, "untracked", None))
    return lines


def _shape(shape) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _size(node: Node) -> tuple[int, int]:
    texts = [node.name] + [line[0] for line in _lines(node)]
    width = max(_MIN_BOX, max(int(text_width(t, FONT)) + 12 for t in texts))
    return width, LINE + 6 + LINE * (len(texts) - 1) + 4


_VIA = 10  # width kept in a row for an edge passing through it


def _rows(graph: Graph) -> list[list]:
    """Each layer's items: its nodes, then a slot for each edge passing it by (edge, layer),
    so that a long edge runs beside the boxes in between rather than behind them."""
    rows = [[n.id for n in graph.nodes if n.layer == k] for k in range(graph.layers)]
    for e, (parent, child) in enumerate(graph.edges):
        for k in range(graph.nodes[parent].layer + 1, graph.nodes[child].layer):
            rows[k].append((e, k))
    return rows


def _positions(graph: Graph):
    """(x, y, w, h) of each node id and each passing slot: centred rows, as tall as their boxes."""
    sizes = {n.id: _size(n) for n in graph.nodes}
    rows = _rows(graph)
    size = {item: sizes.get(item, (_VIA, 0)) for row in rows for item in row}
    widths = [sum(size[i][0] for i in row) + GAP_X * (len(row) - 1) for row in rows]
    total = max(widths, default=0)
    boxes, y = {}, MARGIN + 20
    for row, width in zip(rows, widths):
        x, height = MARGIN + (total - width) // 2, max(size[i][1] for i in row)
        for item in row:
            w, h = size[item]
            boxes[item] = (x, y, w, h if item in sizes else height)
            x += w + GAP_X
        y += height + GAP_Y
    return boxes, total + 2 * MARGIN, y - GAP_Y + MARGIN


def _edge(e: int, parent, child, boxes) -> str:
    """A polyline from the parent's bottom to the child's top, through its passing slots."""
    px, py, pw, ph = boxes[parent]
    cx, cy, cw, _ = boxes[child]
    points = [(px + pw // 2, py + ph)]
    for x, y, w, h in sorted(v for k, v in boxes.items() if isinstance(k, tuple) and k[0] == e):
        points += [(x + w // 2, y), (x + w // 2, y + h)]
    x2, y2 = cx + cw // 2, cy - 1
    points.append((x2, y2 - 6))
    line = " ".join(f"{x},{y}" for x, y in points)
    # A small arrowhead drawn as a polygon: no <marker> (it needs an id, shared page-wide).
    head = f"{x2},{y2} {x2 - 4},{y2 - 7} {x2 + 4},{y2 - 7}"
    return (f'<polyline points="{line}" fill="none" stroke="{UNREAD_INK}" stroke-width="1.5"/>'
            f'<polygon points="{head}" fill="{UNREAD_INK}"/>')  # fmt: skip


def _text(x: int, y: int, text: str, ink: str, extra: str = "") -> str:
    return f'<text x="{x}" y="{y}" font-size="{FONT}" fill="{ink}"{extra}>{escape(text)}</text>'


def _box(node: Node, box) -> str:
    x, y, w, h = box
    band = BANDS["leaf" if node.leaf is not None else "node"]
    parts = [
        f'<g class="ta-node" data-node="{node.id}" data-name="{escape(node.name)}">'
        f"<title>{escape(node.name)}</title>"
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{BACKGROUND}" stroke="{band}"/>'
        f'<rect x="{x}" y="{y}" width="{w}" height="{LINE + 4}" fill="{band}"/>',
        _text(x + 6, y + LINE, node.name, ink_on(band), ' font-weight="bold"'),
    ]
    for k, (text, ink, state, saved) in enumerate(_lines(node)):
        extra = (f' class="ta-saved" data-saved="{escape(saved)}" data-state="{state}"'
                 if saved else f' class="ta-{state}"')  # fmt: skip
        parts.append(_text(x + 6, y + LINE + 6 + LINE * (k + 1) - 3, text, ink, extra))
    return "".join(parts) + "</g>"


def graph_svg(graph: Graph) -> str:
    """The whole picture, named for screen readers (``role="img"``, ``aria-label``, ``<title>``)."""
    boxes, width, height = _positions(graph)
    title = translate("grad_fn graph of {root}", "autograd").format(root=graph.root)
    width = max(width, int(text_width(title, 12)) + 2 * MARGIN)
    if not graph.nodes:
        height = MARGIN + 30
    name = escape(summary(graph))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ta-autograd" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" role="img" '
        f'aria-label="{name}"><title>{name}</title>'
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        f'<text x="{MARGIN}" y="{MARGIN + 10}" font-size="12" fill="{INK}" class="ta-title">'
        f"{escape(title)}</text>",
    ]
    parts += [_edge(e, a, b, boxes) for e, (a, b) in enumerate(graph.edges)]
    parts += [_box(node, boxes[node.id]) for node in graph.nodes]
    return "".join(parts) + "</svg>"
