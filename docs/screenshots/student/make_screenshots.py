"""Screenshots of what a student meets in an exercise notebook, from any checkout.

    python docs/screenshots/student/make_screenshots.py CHECKOUT PREFIX

opens ``CHECKOUT``'s chapter 1 exercise in JupyterLab (with that checkout's
``grader`` on PYTHONPATH), runs Run All on the fresh notebook, then a wrong
``contiguous_strides`` and its test cell, and writes ``PREFIX_run_all.png``
and ``PREFIX_check_failure.png`` here. ``before_*`` came from a checkout of
6592cbb (before issue 20), ``after_*`` from this one.
"""

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tests"))

from lab.running import CHROMIUM, CHROMIUM_ARGS, Lab, offline_page, wait_for_idle_kernel  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

NOTEBOOK = "01_storage_strides/01_storage_strides.ipynb"
WRONG = "def contiguous_strides(shape):\n    return tuple(1 for _ in shape)  # every stride 1\n"


def _run_all(page) -> None:
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    page.wait_for_timeout(8000)  # Run All ends, or stops at its first error


def main(checkout: Path, prefix: str) -> None:
    work = Path(tempfile.mkdtemp())
    shutil.copytree(checkout / "exercises" / "01_storage_strides", work / "root" /
                    "01_storage_strides")
    lab_options = []
    if (checkout / "grader" / "lab").is_dir():
        lab_options.append("--ServerApp.contents_manager_class="
                           "grader.lab.KernelMetadataContents")
    with Lab(work, work / "root", env={"PYTHONPATH": str(checkout)},
             options=lab_options) as lab, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = offline_page(browser, viewport={"width": 1100, "height": 900})
        page.goto(lab.url(NOTEBOOK))
        wait_for_idle_kernel(page, lab, NOTEBOOK)
        _run_all(page)
        test_cell = page.locator(".jp-CodeCell").filter(has_text="check(contiguous_strides)")
        test_cell.scroll_into_view_if_needed()
        page.screenshot(path=HERE / f"{prefix}_run_all.png")
        answer = page.locator(".jp-CodeCell").filter(has_text="def contiguous_strides(")
        answer.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(WRONG)
        page.keyboard.press("Shift+Enter")
        test_cell.click()
        page.keyboard.press("Shift+Enter")
        page.wait_for_timeout(6000)
        test_cell.screenshot(path=HERE / f"{prefix}_check_failure.png")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
