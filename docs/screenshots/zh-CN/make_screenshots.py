"""Screenshots of the Chinese edition (issue 22), made in a scratch copy of this checkout.

    .venv/bin/python docs/screenshots/zh-CN/make_screenshots.py

writes here:

* ``lesson_widget.png``: JupyterLab with ``course/zh-CN/01_storage_strides.ipynb``, its
  cells run up to the ``MemoryLayout`` widget, which the kernel draws live (in a ``zh-CN``
  folder, so its labels are Chinese), the Chinese prose around it;
* ``exercise_failing_check.png``: ``exercises/zh-CN/01_storage_strides``'s notebook, a
  wrong ``contiguous_strides`` (column-major strides) in its answer cell and its test
  cell run: the check's one-line Chinese verdict;
* ``feedback_page.png``: the feedback page ``grader.cli grade`` writes for a Chinese
  submission with that same wrong answer (the rest the instructor's solution), read
  offline in Chromium.

Everything runs in a temporary folder (``tests/support/course_copy.py``: the files git knows),
removed at the end: nothing in the checkout is opened, graded or saved. Chromium needs a
font with Chinese glyphs (Debian: ``apt-get install fonts-noto-cjk``); without one the
script stops rather than draw empty boxes. Not part of ``make test``.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from lab.running import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    Lab,
    offline_page,
    run_all_until,
    wait_for_idle_kernel,
)
from playwright.sync_api import sync_playwright  # noqa: E402
from support.course_copy import copy_course  # noqa: E402

from grader._course import Course  # noqa: E402
from grader.batch._demo import synthetic_submission  # noqa: E402
from grader.translation import _exercises  # noqa: E402

LANGUAGE = "zh-CN"
ASSIGNMENT = "01_storage_strides"
LESSON = f"course/{LANGUAGE}/01_storage_strides.ipynb"
EXERCISE = f"exercises/{LANGUAGE}/{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
STUDENT = "xiaoming"
CONTENTS = "--ServerApp.contents_manager_class=grader.lab.KernelMetadataContents"
WIDTH = 1200
# The first named wrong answer (grader/hidden/storage_strides/wrong_answers.py): column-major
# strides, as a student would write it, the release's Chinese docstring kept.
WRONG_BODY = """\
    strides, step = [], 1
    for size in shape:  # 从第一个维度开始累乘
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
"""


def _has_chinese_font() -> bool:
    try:
        listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True,
                                text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    return bool(listed.strip())


def _wrong_answer(release_answer: str) -> str:
    """The release's answer cell with its stub replaced by the wrong body."""
    head = release_answer.split("    # YOUR CODE HERE")[0]
    assert head != release_answer, "the answer cell has no stub to replace"
    return head + WRONG_BODY


def _release_answer(course: Path) -> str:
    nb = json.loads((course / EXERCISE).read_text(encoding="utf-8"))
    return "".join(_cells(nb)["contiguous_strides_answer"]["source"])


def _cells(nb: dict) -> dict[str, dict]:
    return {c["metadata"].get("nbgrader", {}).get("grade_id"): c for c in nb["cells"]}


def grade(course: Path, instructor: Path) -> Path:
    """Grade one Chinese submission (the solution, a wrong ``contiguous_strides``) in the
    course copy; its feedback page."""
    copy = Course(course)
    release = json.loads((_exercises.release_folder(copy, LANGUAGE) / ASSIGNMENT
                          / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8"))
    catalog = _exercises.catalogues(copy, LANGUAGE)[ASSIGNMENT]
    source = _exercises.translated_source(copy, LANGUAGE, ASSIGNMENT, catalog)
    nb = synthetic_submission(release, source, 1.0)
    answer = _cells(nb)["contiguous_strides_answer"]
    answer["source"] = _wrong_answer(_release_answer(course))
    folder = instructor / "submitted" / STUDENT / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "PYTHONPATH": str(course)}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT],
                          cwd=course, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"grading failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return next((instructor / "feedback" / STUDENT / ASSIGNMENT).glob("*.html"))


def _cell(page, text: str):
    return page.locator(".jp-Cell").filter(has_text=text).first


def _wait_for_idle(page, lab: Lab, notebook: str) -> None:
    page.wait_for_timeout(1000)
    wait_for_idle_kernel(page, lab, notebook, seconds=300)


def _to_top(cell) -> None:
    cell.evaluate("e => e.scrollIntoView({block: 'start'})")
    cell.page.wait_for_timeout(500)


def lesson_widget(page, lab: Lab) -> None:
    page.set_viewport_size({"width": WIDTH, "height": 1100})  # the widget's last lines too
    page.goto(lab.url(LESSON, app="lab/workspaces/lesson/tree"))  # no other tab
    page.locator(".jp-Notebook").wait_for()
    wait_for_idle_kernel(page, lab, LESSON)
    widget_cell = _cell(page, "MemoryLayout(grid.t())")
    widget_cell.locator(".jp-InputPrompt").click()
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('.lm-Menu-item[data-command="notebook:run-all-above"]').click()
    _wait_for_idle(page, lab, LESSON)
    widget_cell.locator(".jp-InputPrompt").click()
    page.keyboard.press("Shift+Enter")
    widget_cell.locator(".jp-OutputArea-output .widget-box, .jp-OutputArea-output "
                        ".jupyter-widgets").first.wait_for(timeout=120_000)
    _wait_for_idle(page, lab, LESSON)
    page.wait_for_timeout(1500)
    _to_top(_cell(page, "### 动手试试"))
    page.screenshot(path=HERE / "lesson_widget.png")


def exercise_failing_check(page, lab: Lab) -> None:
    page.goto(lab.url(EXERCISE, app="lab/workspaces/exercise/tree"))
    page.locator(".jp-Notebook").wait_for()
    wait_for_idle_kernel(page, lab, EXERCISE)
    test_cell = _cell(page, "with checking(contiguous_strides):")
    run_all_until(page, test_cell.locator(".jp-OutputArea-output").first)
    _wait_for_idle(page, lab, EXERCISE)
    answer = _cell(page, "def contiguous_strides(")
    answer.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(_wrong_answer(_release_answer(lab.root)))
    page.keyboard.press("Shift+Enter")
    _wait_for_idle(page, lab, EXERCISE)
    test_cell.locator(".jp-InputPrompt").click()
    page.keyboard.press("Control+Enter")  # run it and stay on it
    test_cell.locator(".jp-OutputArea-output", has_text="contiguous_strides").first.wait_for()
    _wait_for_idle(page, lab, EXERCISE)
    page.wait_for_timeout(1500)
    _to_top(_cell(page, "## 1. 新张量的步长"))
    bottom = test_cell.bounding_box()
    page.screenshot(path=HERE / "exercise_failing_check.png",  # down to the verdict
                    clip={"x": 0, "y": 0, "width": WIDTH,
                          "height": bottom["y"] + bottom["height"] + 12})


def feedback_page(browser, page_file: Path) -> None:
    page = offline_page(browser, viewport={"width": WIDTH, "height": 900})
    page.goto(page_file.as_uri())
    page.wait_for_timeout(1500)
    # From the exercise's text to its hidden checks' verdict (the page not scrolled:
    # boxes in page coordinates).
    task = page.locator(".text_cell").filter(has_text="1. 新张量的步长").first.bounding_box()
    cell = page.locator(".code_cell").filter(has_text="contiguous_strides 的隐藏检查").last
    verdict = cell.bounding_box()
    top = task["y"] - 8
    page.screenshot(path=HERE / "feedback_page.png", full_page=True,
                    clip={"x": 0, "y": top, "width": WIDTH,
                          "height": verdict["y"] + verdict["height"] + 16 - top})
    page.close()


def main() -> None:
    if not _has_chinese_font():
        raise SystemExit("no font with Chinese glyphs (fc-list :lang=zh is empty): "
                         "apt-get install fonts-noto-cjk, then run this again")
    with tempfile.TemporaryDirectory(prefix="zh-screenshots-") as tmp:
        work = Path(tmp)
        course = copy_course(work / "course")
        print("grading a Chinese submission ...", flush=True)
        feedback = grade(course, work / "instructor")
        with Lab(work / "lab", course, env={"PYTHONPATH": str(course)},
                 options=[CONTENTS]) as lab, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            feedback_page(browser, feedback)
            for scene in (lesson_widget, exercise_failing_check):
                print(scene.__name__, "...", flush=True)
                page = offline_page(browser, viewport={"width": WIDTH, "height": 1000},
                                    locale=LANGUAGE)
                scene(page, lab)
                page.close()
            browser.close()
    for name in ("lesson_widget", "exercise_failing_check", "feedback_page"):
        print(HERE / f"{name}.png")


if __name__ == "__main__":
    main()
