"""The widgets in a real browser: JupyterLab 4 and Notebook 7, driven by headless Chromium.

A JupyterLab server starts on a free localhost port with a random token, over a
temporary copy of the chapter 1 lesson (so autosave never touches the repo).
Playwright drives Debian's Chromium (Playwright's own browser download does not
work offline). Screenshots go to ``tests/artifacts/browser/`` (git-ignored).

Skipped, with the reason, when Chromium or the ``playwright`` package is missing.
"""

import json
import re
import shutil
from pathlib import Path

import pytest
import torch
from lab.running import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Lab,
    css_hex,
    offline_page,
    run_all_until,
    wait_for_idle_kernel,
)
from support import ROOT

from anatomy_widgets._contrast import AA, contrast_ratio

LESSON = ROOT / "course" / "01_storage_strides.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
TIMEOUT_MS = 60_000
# Issue 20, item 7: one cell per thing a tester found in a real browser.
FOUND = Path("widget_findings.ipynb")
FOUND_CELLS = (
    "import torch\nfrom anatomy_widgets import Broadcast, MemoryLayout",
    "# typed shape\nMemoryLayout(torch.arange(12).view(3, 4))",
    "# bad input\nMemoryLayout(torch.arange(12).view(3, 4))",
    "# big grid\nMemoryLayout(torch.arange(640).view(10, 64))",
    "# new dim\nBroadcast((7,), (1000, 1))",
)


pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian chromium not installed (apt-get install chromium)"
)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright not installed (pip install -e '.[dev]')"
)


def _demo_notebook(path: Path, sources=("from anatomy_widgets import Broadcast\n\n"
                                          "Broadcast((3, 1), (4,))",)) -> None:  # fmt: skip
    """A notebook of code cells; by default the broadcasting widget, for Notebook 7."""
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{k}",
                   "metadata": {}, "outputs": [], "source": source}
                  for k, source in enumerate(sources)],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                    "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    path.write_text(json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a scratch copy of the lesson (autosave never touches it)."""
    work = tmp_path_factory.mktemp("lab")
    root = work / "notebooks"
    root.mkdir()
    shutil.copy(LESSON, root / LESSON.name)
    _demo_notebook(root / "broadcast_demo.ipynb")
    _demo_notebook(root / FOUND.name, FOUND_CELLS)
    with Lab(work, root) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = offline_page(browser, TIMEOUT_MS)  # a widget that needed a CDN would fail to load
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield page
    page.close()


def _cell(page, code: str):
    return page.locator(".jp-CodeCell").filter(has_text=code)


def _drawn_positions(cell) -> dict[str, int]:
    cells = cell.locator("svg.ta-memory g.elem")
    pairs = cells.evaluate_all("gs => gs.map(g => [g.dataset.index, g.dataset.pos])")
    return {index: int(pos) for index, pos in pairs}


def _as_drawn(view: torch.Tensor) -> dict[str, int]:
    return {", ".join(map(str, i)): view[i].item() for i in torch.cartesian_prod(
        *[torch.arange(n) for n in view.shape]).tolist() for i in [tuple(i)]}  # fmt: skip


def test_lesson_in_jupyterlab_stored_picture_then_live_widget(lab, page):
    base, token = lab.base, lab.token
    page.goto(f"{base}/lab/tree/{LESSON.name}?token={token}")
    widget_cell = _cell(page, "MemoryLayout(grid.t())")
    # Before anything runs, the stored output is the static SVG picture, not an error.
    stored = widget_cell.locator('img[alt^="MemoryLayout(shape=(4, 3)"]')
    stored.wait_for()
    assert stored.evaluate("img => img.complete && img.naturalWidth > 100")
    widget_cell.scroll_into_view_if_needed()
    widget_cell.screenshot(path=ARTIFACTS / "lab_stored_output.png")

    wait_for_idle_kernel(page, lab, LESSON.name)
    run_all_until(page, widget_cell.locator(".widget-html svg.ta-memory"))
    grid_t = torch.arange(12).view(3, 4).t()
    assert _drawn_positions(widget_cell) == _as_drawn(grid_t)

    stride = widget_cell.locator(".widget-text", has_text="stride").locator("input")
    stride.fill("4, 1")  # (4, 3) with strides (4, 1) reaches past 12 elements
    stride.press("Enter")
    widget_cell.locator(".ta-error").wait_for()
    with pytest.raises(RuntimeError) as torch_error:
        torch.arange(12).as_strided((4, 3), (4, 1))
    assert str(torch_error.value) in widget_cell.locator(".ta-error").text_content()
    assert widget_cell.locator("svg.ta-memory").count() == 0  # the error replaces the picture

    stride.fill("3, 1")
    stride.press("Enter")
    widget_cell.locator('g.elem[data-index="0, 1"][data-pos="1"]').wait_for()
    expected = torch.arange(12).as_strided((4, 3), (3, 1))
    assert _drawn_positions(widget_cell) == _as_drawn(expected)

    index_0 = widget_cell.get_by_role("spinbutton", name="index 0")
    index_0.focus()
    index_0.press("ArrowUp")
    widget_cell.locator('g.elem.selected[data-index="1, 0"][data-pos="3"]').wait_for()
    assert "0 + 1·3 + 0·1 = 3" in widget_cell.locator(".ta-info").text_content()
    widget_cell.screenshot(path=ARTIFACTS / "lab_live_widget.png")

    compare = _cell(page, "MemoryLayout(windows, base=signal)")
    compare.locator(".widget-html svg.ta-memory").wait_for()
    assert "share ONE storage" in compare.locator(".ta-info").text_content()
    compare.screenshot(path=ARTIFACTS / "lab_view_and_base.png")


def test_broadcast_widget_in_notebook_7(lab, page):
    base, token = lab.base, lab.token
    page.goto(f"{base}/notebooks/broadcast_demo.ipynb?token={token}")
    cell = _cell(page, "Broadcast((3, 1), (4,))")
    cell.wait_for()
    wait_for_idle_kernel(page, lab, "broadcast_demo.ipynb")
    run_all_until(page, cell.locator(".widget-html svg.ta-broadcast"))
    assert cell.locator('g[data-operand="a"][data-dim="-1"]').get_attribute("data-role") == (
        "stretched"
    )
    b_shape = cell.locator(".widget-text", has_text="b shape").locator("input")
    b_shape.fill("2, 4")  # dim -2: 3 against 2
    b_shape.press("Enter")
    cell.locator('g[data-operand="result"][data-dim="-2"][data-role="unknown"]').wait_for()
    with pytest.raises(RuntimeError) as torch_error:
        torch.empty(3, 1) + torch.empty(2, 4)
    assert str(torch_error.value) in cell.locator(".ta-info").text_content()
    cell.screenshot(path=ARTIFACTS / "notebook7_broadcast.png")


# --- issue 20, item 7: each thing the tester found, in JupyterLab ----------------------------


@pytest.fixture(scope="module")
def findings(lab, browser):
    """JupyterLab on FOUND with every cell run: (page, cell locator by its first line)."""
    base, token = lab.base, lab.token
    page = offline_page(browser, TIMEOUT_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{base}/lab/tree/{FOUND.name}?token={token}")
    _cell(page, "# new dim").wait_for()
    wait_for_idle_kernel(page, lab, FOUND.name)
    run_all_until(page, _cell(page, "# new dim").locator(".widget-html svg.ta-broadcast"))
    for first_line in ("# typed shape", "# bad input", "# big grid"):
        _cell(page, first_line).locator(".widget-html svg.ta-memory").wait_for()
    yield page
    page.close()


def test_typing_a_shape_refills_the_strides_and_draws_it(findings):
    cell = _cell(findings, "# typed shape")
    shape = cell.get_by_role("textbox", name="shape")
    shape.fill("2, 3, 2")
    shape.press("Enter")
    cell.locator('g.elem[data-index="1, 2, 1"]').wait_for()
    assert cell.get_by_role("textbox", name="stride").input_value() == "6, 2, 1"
    assert cell.locator(".ta-error").count() == 0
    assert _drawn_positions(cell) == _as_drawn(torch.arange(12).view(2, 3, 2))
    cell.screenshot(path=ARTIFACTS / "findings_typed_shape.png")


def test_bad_input_shows_the_error_and_no_picture(findings):
    cell = _cell(findings, "# bad input")
    shape = cell.get_by_role("textbox", name="shape")
    shape.fill("3, x")
    shape.press("Enter")
    cell.locator(".ta-error").wait_for()
    assert "expected whole numbers" in cell.locator(".ta-error").text_content()
    assert cell.locator(".widget-html svg").count() == 0
    shape.fill("3, 4")
    shape.press("Enter")
    cell.locator(".widget-html svg.ta-memory").wait_for()
    assert cell.locator(".ta-error").count() == 0


# Per cell or box: its position, label text, the label's rendered width and the box's.
_LABELS_JS = """svg => [...svg.querySelectorAll('g')].filter(g => g.querySelector(':scope > rect'))
  .map(g => { const t = g.querySelector(':scope > text[text-anchor="middle"]');
              const title = g.querySelector(':scope > title');
              return [g.dataset.pos ?? g.dataset.role, t ? t.textContent : null,
                      t ? t.getBBox().width : 0,
                      g.querySelector(':scope > rect').getBBox().width,
                      title ? title.textContent : ''] })"""


def test_every_cell_past_99_shows_its_number_inside_its_box(findings):
    cell = _cell(findings, "# big grid")
    labels = cell.locator("svg.ta-memory").evaluate(_LABELS_JS)
    numbered = {int(pos) for pos, text, *_ in labels if text == pos}
    assert set(range(640)) <= numbered  # every element, 100 to 639 included
    overflowing = [(text, w, box) for _, text, w, box, _ in labels if w > box]
    assert overflowing == []
    cell.screenshot(path=ARTIFACTS / "findings_big_grid.png")


def test_broadcast_labels_stay_inside_their_boxes(findings):
    cell = _cell(findings, "# new dim")
    labels = cell.locator("svg.ta-broadcast").evaluate(_LABELS_JS)
    assert ["(1)→1000"] == [text for _, text, *_ in labels if text.startswith("(1)")]
    assert [(text, w, box) for _, text, w, box, _ in labels if w > box - 4] == []
    assert all(title for *_, title in labels)  # each box also says its role in words
    cell.screenshot(path=ARTIFACTS / "findings_new_dim.png")


# Each text of a picture with its computed fill and the fill of the rect behind it.
_INKS_JS = """svg => [...svg.querySelectorAll('text')].map(t => {
  const box = t.parentNode.querySelector(':scope > rect') || svg.querySelector(':scope > rect');
  return [t.textContent, getComputedStyle(t).fill, getComputedStyle(box).fill] })"""


def test_every_text_keeps_4_5_to_1_contrast_as_rendered(findings):
    pairs = []
    for first_line in ("# big grid", "# new dim"):
        for svg in _cell(findings, first_line).locator(".widget-html svg").all():
            pairs += svg.evaluate(_INKS_JS)
        info = _cell(findings, first_line).locator(".ta-info")
        pairs.append(info.evaluate("d => ['info', getComputedStyle(d).color, "
                                   "getComputedStyle(d).backgroundColor]"))  # fmt: skip
    assert len(pairs) > 600
    low = [(t, fg, bg) for t, fg, bg in pairs if contrast_ratio(css_hex(fg), css_hex(bg)) < AA]
    assert low == []


def test_every_control_and_picture_has_an_accessible_name(findings):
    cells = findings.locator(".jp-CodeCell").filter(has=findings.locator(".widget-html"))
    controls = cells.locator("input, select, [role=slider]")
    names = controls.evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || [...(e.labels || [])]"
        ".map(l => l.textContent.trim()).join(' ') || e.title)"
    )
    assert len(names) >= 2 * 9 + 4 and all(names), names
    roles = {"preset": "combobox", "shape": "textbox", "stride": "textbox",
             "offset": "spinbutton", "storage": "spinbutton", "index 0": "spinbutton"}  # fmt: skip
    for name, role in roles.items():
        assert findings.get_by_role(role, name=name, exact=True).count() >= 3, name
    assert findings.get_by_role("checkbox", name="show example values").count() == 1
    assert findings.get_by_role("img", name=re.compile("^storage of 640 elements")).count() == 1
    assert findings.get_by_role("img", name=re.compile(r"^broadcasting: a\s+\(7,\)")).count() == 1
