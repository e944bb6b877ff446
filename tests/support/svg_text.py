"""Reading the widgets' SVG back: each text with the colour behind it, each label with its box.

Shared by the unit tests of both widgets. A text's background is the ``<rect>`` of
its own ``<g>`` (a cell or a dim box), else the picture's own background.
"""

import xml.etree.ElementTree as ET

from anatomy_widgets._contrast import BACKGROUND, INK

SVG = "{http://www.w3.org/2000/svg}"


def _groups(root):
    """(group or None, its rect or None, its texts) for every text in the picture."""
    grouped = set()
    for g in root.iter(f"{SVG}g"):
        texts = g.findall(f"{SVG}text")
        grouped.update(map(id, texts))
        yield g, g.find(f"{SVG}rect"), texts
    loose = [t for t in root.iter(f"{SVG}text") if id(t) not in grouped]
    yield None, None, loose


def text_pairs(svg: str) -> list[tuple[str, str, str]]:
    """(text, its fill, the fill behind it) for every text drawn."""
    root = ET.fromstring(svg)
    pairs = []
    for _, rect, texts in _groups(root):
        behind = rect.get("fill") if rect is not None else BACKGROUND
        pairs.extend((t.text or "", t.get("fill", INK), behind) for t in texts)
    return pairs


def labelled_boxes(svg: str) -> list[tuple[ET.Element, ET.Element, ET.Element | None]]:
    """(group, rect, centred label or None) for every cell or dim box."""
    root = ET.fromstring(svg)
    boxes = []
    for g, rect, texts in _groups(root):
        if g is not None and rect is not None:
            centred = [t for t in texts if t.get("text-anchor") == "middle"]
            boxes.append((g, rect, centred[0] if centred else None))
    return boxes
