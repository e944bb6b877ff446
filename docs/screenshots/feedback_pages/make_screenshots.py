"""Screenshots of a feedback page, read offline in Chromium (no request leaves the machine).

    python docs/screenshots/feedback_pages/make_screenshots.py PAGE.html PREFIX

writes ``PREFIX_diagonal_view.png`` and ``PREFIX_view_or_copy.png`` here: the
test cells of a student whose ``diagonal_view`` forgets the storage offset
(``grader/hidden/storage_strides/wrong_answers.py``, its third wrong answer) and
whose ``view_or_copy`` is right. ``before_*`` came from grading that
submission with a checkout of 6592cbb, ``after_*`` with this one.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tests"))

from lab.running import CHROMIUM, CHROMIUM_ARGS, offline_page  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def main(page_file: Path, prefix: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = offline_page(browser, viewport={"width": 1000, "height": 900})
        page.goto(page_file.as_uri())
        page.wait_for_timeout(1500)
        for exercise in ("diagonal_view", "view_or_copy"):
            cell = page.locator(".code_cell").filter(has_text=f"Hidden checks for {exercise}")
            cell.last.screenshot(path=HERE / f"{prefix}_{exercise}.png")
        page.locator(".text_cell").first.screenshot(path=HERE / f"{prefix}_maths.png")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
