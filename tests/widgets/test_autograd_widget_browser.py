"""The autograd graph widget in JupyterLab, driven by headless Chromium.

A scratch notebook builds a graph; the test reads the drawing back (nodes, saved
tensors), presses backward() and finds the grads torch computes and the saved
tensors freed, presses it again and finds torch's own error in place of the
drawing; an in-place change made after the widget was drawn shows up as a stale
saved tensor once Refresh is pressed. The screenshot goes to
``tests/artifacts/browser/autograd_widget.png`` (git-ignored).
"""

import json
import re

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

from anatomy_widgets._autograd import values_text
from anatomy_widgets._contrast import AA, contrast_ratio

ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
NOTEBOOK = "autograd_widget.ipynb"
CELLS = (
    "import torch\nfrom anatomy_widgets import AutogradGraph",
    "# graph\na = torch.tensor([1.0, 2.0], requires_grad=True)\n"
    "b = torch.tensor([3.0, 4.0], requires_grad=True)\n"
    'AutogradGraph((a * b).exp().sum(), names={"a": a, "b": b})',
    "# stale\nx = torch.tensor([0.0, 1.0], requires_grad=True)\ns = torch.sigmoid(x)\n"
    'AutogradGraph(s.sum(), names={"x": x})',
    "# change\nwith torch.no_grad():\n    s.mul_(2)",
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")


def _write_notebook(path) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"cell{k}", "metadata": {},
              "outputs": [], "source": source} for k, source in enumerate(CELLS)]  # fmt: skip
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb = {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")


def _cell(page, first_line: str):
    return page.locator(".jp-CodeCell").filter(has_text=first_line)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """JupyterLab on the scratch notebook, every cell run (the change cell last)."""
    work = tmp_path_factory.mktemp("autograd-lab")
    root = work / "root"
    root.mkdir()
    _write_notebook(root / NOTEBOOK)
    with Lab(work, root, env={"PYTHONPATH": str(ROOT)}) as lab, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = offline_page(browser)
        page.goto(lab.url(NOTEBOOK))
        _cell(page, "# change").wait_for()
        wait_for_idle_kernel(page, lab, NOTEBOOK)
        run_all_until(page, _cell(page, "# stale").locator(".widget-html svg.ta-autograd"))
        page.locator(".jp-InputPrompt", has_text="[4]").wait_for()  # the change cell ran
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        yield page
        browser.close()


def _saved_states(cell) -> dict[str, list[str]]:
    lines = cell.locator("svg.ta-autograd text.ta-saved")
    pairs = lines.evaluate_all("ts => ts.map(t => [t.dataset.saved, t.dataset.state])")
    states: dict[str, list[str]] = {}
    for name, state in pairs:
        states.setdefault(name, []).append(state)
    return states


def _torch_run():
    """The graph of the '# graph' cell, built here: what backward gives, and then refuses."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (a * b).exp().sum()
    y.backward()
    with pytest.raises(RuntimeError) as second:
        y.backward()
    return a.grad, b.grad, str(second.value)


def test_backward_fills_grads_frees_saved_tensors_then_torch_refuses(page):
    cell = _cell(page, "# graph")
    names = cell.locator("svg.ta-autograd g.ta-node").evaluate_all(
        "gs => gs.map(g => g.dataset.name)")  # fmt: skip
    assert names == ["SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad",
                     "AccumulateGrad"]  # fmt: skip
    assert _saved_states(cell) == {"result": ["ok"], "other": ["ok"], "self": ["ok"]}
    assert cell.locator("svg.ta-autograd", has_text="grad: None").count() == 1

    a_grad, b_grad, refusal = _torch_run()
    cell.get_by_role("button", name="backward()").click()
    cell.locator('svg.ta-autograd text[data-state="freed"]').first.wait_for()
    assert _saved_states(cell) == {"result": ["freed"], "other": ["freed"], "self": ["freed"]}
    drawn = cell.locator("svg.ta-autograd").text_content()
    assert f"grad: {values_text(a_grad)}" in drawn and f"grad: {values_text(b_grad)}" in drawn
    assert drawn.count("freed by backward()") == 3
    cell.screenshot(path=ARTIFACTS / "autograd_widget.png")

    cell.get_by_role("button", name="backward()").click()
    cell.locator(".ta-error").wait_for()
    assert refusal in cell.locator(".ta-error").text_content()
    assert cell.locator(".widget-html svg").count() == 0  # the error replaces the drawing
    cell.screenshot(path=ARTIFACTS / "autograd_widget_second_backward.png")


def test_refresh_shows_an_inplace_change_as_a_stale_saved_tensor(page):
    cell = _cell(page, "# stale")
    assert _saved_states(cell) == {"result": ["ok"]}  # drawn before the change cell ran
    cell.get_by_role("button", name="Refresh").click()
    stale = cell.locator('svg.ta-autograd text[data-state="stale"]')
    stale.wait_for()
    assert "v1, saved at v0 → stale" in stale.text_content()
    assert "backward() will raise" in cell.locator(".ta-info").text_content()
    cell.screenshot(path=ARTIFACTS / "autograd_widget_stale.png")


def test_every_control_and_picture_has_an_accessible_name(page):
    cell = _cell(page, "# stale")
    for role, name in (("button", "Refresh"), ("button", "backward()"),
                       ("checkbox", "retain_graph")):  # fmt: skip
        assert cell.get_by_role(role, name=name, exact=True).count() == 1, name
    picture = cell.get_by_role("img", name=re.compile(r"^autograd graph of \(\) float32"))
    assert picture.count() == 1
    assert "1 stale" in picture.get_attribute("aria-label")


# Each text of the picture with its computed fill and the fill behind it: a node's name
# sits on its band (the box's second rect), every other line on the box (its first).
_INKS_JS = """svg => [...svg.querySelectorAll('text')].map(t => {
  const rects = [...t.parentNode.querySelectorAll(':scope > rect')];
  const behind = rects.length ? rects[t.previousElementSibling === rects[1] ? 1 : 0]
                              : svg.querySelector(':scope > rect');
  return [t.textContent, getComputedStyle(t).fill, getComputedStyle(behind).fill] })"""

_ERROR_JS = (
    "d => ['error', getComputedStyle(d).color, getComputedStyle(d.parentNode).backgroundColor]"
)


def test_every_text_keeps_4_5_to_1_contrast_as_rendered(page):
    pairs = []
    for first_line in ("# graph", "# stale"):
        for svg in _cell(page, first_line).locator(".widget-html svg").all():
            pairs += svg.evaluate(_INKS_JS)
        for info in _cell(page, first_line).locator(".ta-info").all():
            pairs.append(info.evaluate("d => ['info', getComputedStyle(d).color, "
                                       "getComputedStyle(d).backgroundColor]"))  # fmt: skip
        for error in _cell(page, first_line).locator(".ta-error").all():
            pairs.append(error.evaluate(_ERROR_JS))
    assert len(pairs) > 8 and "error" in [t for t, *_ in pairs]  # the second backward's
    low = [(t, fg, bg) for t, fg, bg in pairs if contrast_ratio(css_hex(fg), css_hex(bg)) < AA]
    assert low == []
