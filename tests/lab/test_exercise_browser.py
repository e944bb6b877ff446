"""A fresh exercise notebook in JupyterLab, as a student meets it (real Chromium).

The server runs the way ``make lab`` runs it (``grader.lab.KernelMetadataContents``)
over a scratch copy of the released assignment. Opening it does not mark it
modified; Run All reaches the last cell, each unattempted exercise saying so; a
wrong answer's check is one short line. Screenshots go to ``tests/artifacts/browser/``.
"""

import shutil

import pytest
from lab.running import CHROMIUM, CHROMIUM_ARGS, Lab, offline_page, wait_for_idle_kernel
from support import ROOT

from grader import _notebook

ASSIGNMENT = "01_storage_strides"
NOTEBOOK = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
CONTENTS = "--ServerApp.contents_manager_class=grader.lab.KernelMetadataContents"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("exercise-lab")
    root = work / "student"
    shutil.copytree(ROOT / "exercises" / ASSIGNMENT, root / ASSIGNMENT)
    with Lab(work, root, env={"PYTHONPATH": str(ROOT)}, options=[CONTENTS]) as running:
        yield running


@pytest.fixture(scope="module")
def page(lab):
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = offline_page(browser)
        page.goto(lab.url(NOTEBOOK))
        page.locator(".jp-Notebook").wait_for()
        wait_for_idle_kernel(page, lab, NOTEBOOK)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        yield page
        browser.close()


def _tab_is_dirty(page) -> bool:
    return page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-dirty").count() > 0


def _test_cell(page, name: str):
    return page.locator(".jp-CodeCell").filter(has_text=f"with checking({name}):")


def test_opening_an_exercise_does_not_mark_it_modified(page):
    page.wait_for_timeout(2000)  # the kernel's info has reached the notebook by now
    assert not _tab_is_dirty(page)


def test_run_all_reaches_the_end_and_says_not_attempted_yet(page):
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    last = page.locator(".jp-CodeCell").last
    last.locator(".jp-InputPrompt", has_text="[").filter(has_not_text="*").wait_for()
    page.wait_for_function("() => ![...document.querySelectorAll('.jp-InputPrompt')]"
                           ".some(p => p.textContent.includes('*'))")
    nb = _notebook.load(ROOT / "exercises" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    for name in _notebook.exercise_cells(nb):
        said = _test_cell(page, name).locator(".jp-OutputArea-output").inner_text()
        assert f"{name}: not attempted yet" in said
    # An error renders as stderr too: its traceback would say so.
    assert page.locator(".jp-OutputArea-output", has_text="Traceback").count() == 0
    assert "[ ]" not in page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
    _test_cell(page, "contiguous_strides").screenshot(path=ARTIFACTS / "not_attempted.png")


def test_a_wrong_answer_is_one_short_line(page):
    answer = page.locator(".jp-CodeCell").filter(has_text="def contiguous_strides(")
    editor = answer.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text("def contiguous_strides(shape):\n"
                              "    return tuple(1 for _ in shape)  # wrong: every stride 1\n")
    page.keyboard.press("Shift+Enter")  # run it, then the test cell below
    test_cell = _test_cell(page, "contiguous_strides")
    test_cell.click()
    page.keyboard.press("Shift+Enter")
    error = test_cell.locator(".jp-OutputArea-output", has_text="Mismatch")
    error.wait_for()
    text = error.inner_text().strip()
    assert text.startswith("Mismatch: contiguous_strides: "), text
    assert "grader/" not in text and len(text.splitlines()) <= 3, text
    test_cell.screenshot(path=ARTIFACTS / "check_failure.png")
