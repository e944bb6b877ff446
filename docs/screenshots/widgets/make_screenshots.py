"""Before/after pictures of the widget fixes of issue 20, item 7.

Each scene puts a widget in the state a tester reached by typing, then renders what
its live view shows (the values in its text controls and its ``drawing`` HTML) in
Debian's Chromium, and saves the crop. ``PREFIX`` names the pictures:

    PYTHONPATH=/tmp/old .venv/bin/python docs/screenshots/widgets/make_screenshots.py before
    .venv/bin/python docs/screenshots/widgets/make_screenshots.py after

(``/tmp/old`` holding ``git archive <old commit> anatomy_widgets``.)
"""

import sys
from html import escape
from pathlib import Path

import torch
from playwright.sync_api import sync_playwright

import anatomy_widgets
from anatomy_widgets import Broadcast, MemoryLayout

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/lib/chromium/chromium"


def _controls(widget) -> str:
    boxes = [b for b in ("shape_box", "stride_box") if hasattr(widget, b)]
    fields = "".join(
        f'<label style="margin-right:12px">{escape(getattr(widget, b).description)} '
        f'<input value="{escape(str(getattr(widget, b).value))}" style="width:120px"></label>'
        for b in boxes
    )
    return f'<div style="margin-bottom:6px;font-family:sans-serif">{fields}</div>'


def typed_shape():
    widget = MemoryLayout(torch.arange(12).view(3, 4))
    widget.shape_box.value = "2, 3, 2"
    return _controls(widget) + widget.drawing.value


def bad_input():
    widget = MemoryLayout(torch.arange(12).view(3, 4))
    widget.shape_box.value = "3, x"
    return _controls(widget) + widget.drawing.value


def big_labels():
    return MemoryLayout(torch.arange(640).view(10, 64), index=(2, 40)).drawing.value


def contrast():
    return MemoryLayout(torch.arange(24).view(4, 6)).drawing.value


def broadcast_label():
    return Broadcast((7,), (1000, 1)).drawing.value


SCENES = [typed_shape, bad_input, big_labels, contrast, broadcast_label]


def main(prefix: str) -> None:
    print("anatomy_widgets from", Path(anatomy_widgets.__file__).parent)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        for scene in SCENES:
            html = f'<div id="w" style="display:inline-block;padding:6px">{scene()}</div>'
            page.set_content(f"<html><body style='margin:0;background:#fff'>{html}</body></html>")
            page.locator("#w").screenshot(path=HERE / f"{prefix}_{scene.__name__}.png")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1])
