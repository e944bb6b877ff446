"""The instructor's flow end to end: nbgrader autograde → feedback → CSV → table.

``make demo`` writes three synthetic students; we add a fourth who tampers
with torch and the grader, and grade all four through nbgrader itself.
"""

import base64
import copy
import csv
import json
import os
import re
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup
from lab.running import CHROMIUM, CHROMIUM_ARGS, offline_page
from support import ASSIGNMENTS, ROOT, load_notebook
from support.tampering import (
    TAMPERING,
    delete_a_test_cell,
    duplicate_cells_and_ids,
    edit_a_test_cell_and_its_points,
    forge_an_old_schema,
    leaked,
)

from grader import _notebook
from grader._course import Course
from grader.batch import _gradebook
from grader.batch._demo import synthetic_submission
from grader.hidden.wrong_answers import named_wrong_answers
from grader.judge import _replay_file
from grader.store import _verdicts

pytestmark = pytest.mark.heavy  # grades a class in a fixture: scheduled first


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("instructor")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    for assignment in ASSIGNMENTS:
        _write_tamperer(Course(ROOT), instructor, assignment)
    _write_restructurer(Course(ROOT), instructor, ASSIGNMENTS[0])
    for assignment, (exercise, mistake) in MISTAKES.items():
        _write_mistaken(Course(ROOT), instructor, assignment, exercise, mistake)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "demo", "--into", str(instructor)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    return instructor, done


# A student who makes one named mistake per assignment: their feedback draws the input and
# names the misconception.
MISTAKES = {"01_storage_strides": ("diagonal_view", 2),
            "03_shape_ops_broadcasting": ("broadcast_shape", 0)}


def _write_mistaken(course: Course, instructor, assignment: str, exercise: str,
                    mistake: int) -> None:
    nb = synthetic_submission(load_notebook(course.release_notebook(assignment)),
                              load_notebook(course.source_notebook(assignment)), 1.0)
    answer = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution")
                  and f"def {exercise}(" in "".join(c["source"]))
    answer["source"] = named_wrong_answers(assignment)[exercise][mistake][1]
    folder = instructor / "submitted" / "mistaken" / assignment
    folder.mkdir(parents=True)
    (folder / course.release_notebook(assignment).name).write_text(json.dumps(nb))


def _write_restructurer(course: Course, instructor, assignment: str) -> None:
    """The complete solution with its grade cells deleted, duplicated, edited and forged:
    an old metadata schema alone makes stock nbgrader abort the whole batch."""
    nb = synthetic_submission(load_notebook(course.release_notebook(assignment)),
                              load_notebook(course.source_notebook(assignment)), 1.0)
    for tamper in (duplicate_cells_and_ids, edit_a_test_cell_and_its_points,
                   forge_an_old_schema, delete_a_test_cell):
        tamper(nb)
    folder = instructor / "submitted" / "restructurer" / assignment
    folder.mkdir(parents=True)
    (folder / course.release_notebook(assignment).name).write_text(json.dumps(nb))


def _write_tamperer(course: Course, instructor, assignment: str) -> None:
    release = course.release_notebook(assignment)
    nb = copy.deepcopy(load_notebook(release))
    names = list(_notebook.exercise_cells(nb))
    nb["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None,
                        "outputs": [], "source": TAMPERING + "\n".join(
                            f"{n} = _anything" for n in names)})
    folder = instructor / "submitted" / "tamperer" / assignment
    folder.mkdir(parents=True)
    (folder / release.name).write_text(json.dumps(nb), encoding="utf-8")


def test_demo_ends_with_the_deserved_scores(graded):
    _, done = graded
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "as deserved" in done.stdout
    for student in ("complete", "partial", "blank", "tamperer"):
        assert student in done.stdout


def test_nbgrader_s_own_warnings_go_to_its_step_logs_not_the_terminal(graded):
    """``grader/bridge/_step_warnings.py``: its SQLAlchemy and nbformat warnings are noise on
    the terminal, one pair of lines per warning among the progress lines."""
    instructor, done = graded
    assert "Warning:" not in done.stderr, done.stderr[-3000:]
    logs = "".join(log.read_text(encoding="utf-8") for log in (instructor / "logs").iterdir())
    assert "Warning:" in logs  # kept, where an instructor looks for what nbgrader said


def test_tampering_through_nbgrader_scores_like_the_blank_stub(graded):
    instructor, _ = graded
    db_url = f"sqlite:///{instructor / 'gradebook.db'}"
    for assignment in ASSIGNMENTS:
        table = _gradebook.scores(db_url, assignment)
        assert table["tamperer"]["total"] == table["blank"]["total"] == 0
        assert table["complete"]["total"] == table["complete"]["max"] > 0


def test_structural_tampering_through_nbgrader_changes_no_grade(graded):
    instructor, _ = graded
    table = _gradebook.scores(f"sqlite:///{instructor / 'gradebook.db'}", ASSIGNMENTS[0])
    assert table["restructurer"] == table["complete"]
    page = next((instructor / "feedback" / "restructurer" / ASSIGNMENTS[0]).glob("*.html"))
    assert "the released versions were graded instead" in page.read_text(encoding="utf-8")


def test_feedback_explains_failures_without_leaking_hidden_checks(graded):
    instructor, _ = graded
    for assignment in ASSIGNMENTS:
        for student in ("complete", "partial", "blank", "tamperer"):
            page = next((instructor / "feedback" / student / assignment).glob("*.html"))
            html = page.read_text(encoding="utf-8")
            assert "Hidden checks for" in html
            assert not leaked(html, assignment)
        blank = next((instructor / "feedback" / "blank" / assignment).glob("*.html"))
        assert "not attempted yet" in blank.read_text(encoding="utf-8")


def test_the_judges_keep_each_assignments_examples_for_the_judges_after_them(graded):
    """Where the next run's judges look (``grader.store.examples_file``), each assignment's
    file holds the examples of the checks its complete notebook passed."""
    instructor, _ = graded
    for assignment in ASSIGNMENTS:
        stem = _verdicts.examples_file(instructor / "verdicts", assignment)
        kept = _replay_file.read(_replay_file.device_file(stem))
        assert len(kept) >= 10, assignment  # 15 to 34 checks a chapter (04: 15 of 18)


def test_grades_are_exported_as_csv(graded):
    instructor, _ = graded
    with open(instructor / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    students = {row["student_id"] for row in rows}
    assert students == {"complete", "partial", "blank", "tamperer", "restructurer", "mistaken"}
    assert {row["assignment"] for row in rows} == set(ASSIGNMENTS)
    # ... and for an LMS: a row per student, a column per assignment and per exercise.
    with open(instructor / "export" / "grades_wide.csv", newline="", encoding="utf-8") as f:
        wide = list(csv.DictReader(f))
    assert {row["student_id"] for row in wide} == students
    complete = next(row for row in wide if row["student_id"] == "complete")
    assert all(float(complete[a]) > 0 for a in ASSIGNMENTS) and complete["total"] == \
        complete["max"]
    with open(instructor / "export" / "canvas.csv", newline="", encoding="utf-8") as f:
        canvas = list(csv.reader(f))
    assert canvas[0][5:] == ASSIGNMENTS and len(canvas) == 2 + len(students)


def test_each_assignment_gets_a_plot_of_its_score_distribution(graded):
    instructor, done = graded
    for assignment in ASSIGNMENTS:
        plot = instructor / "reports" / f"{assignment}_scores.png"
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"score distribution: {plot}" in done.stdout


def test_each_nbgrader_step_keeps_its_log_per_notebook(graded):
    instructor, done = graded
    for assignment in ASSIGNMENTS:
        for step in ("autograde", "generate_feedback"):
            log = (instructor / "logs" / f"{step}-{assignment}.log").read_text(encoding="utf-8")
            assert {"--- complete", "--- blank", "--- tamperer"} <= set(log.splitlines())
            assert f"nbgrader {step} {assignment}" in done.stdout


def test_demo_grades_in_a_folder_of_its_own_never_the_instructors(monkeypatch, tmp_path):
    from grader import cli
    from grader.batch import _demo

    instructor = tmp_path / "instructor"
    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(instructor))
    seen = []
    monkeypatch.setattr(_demo, "demo", lambda course, grade: seen.append(course.instructor) or 0)
    assert cli.main(["demo"]) == 0
    assert seen == [ROOT / "demo"] and not instructor.exists()
    assert cli.main(["demo", "--into", str(tmp_path / "elsewhere")]) == 0
    assert seen[-1] == tmp_path / "elsewhere"


def _pictures(html: str) -> list[str]:
    """The SVG pictures in a page (nbconvert writes each as a data: URI of an <img>)."""
    return [base64.b64decode(data).decode() for data in
            re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", html)]


def _page(instructor, student: str, assignment: str) -> str:
    return next((instructor / "feedback" / student / assignment).glob("*.html")).read_text(
        encoding="utf-8")


def test_feedback_draws_the_failing_input_names_the_mistake_and_needs_no_internet(graded):
    instructor, _ = graded
    for assignment, (exercise, mistake) in MISTAKES.items():
        html = _page(instructor, "mistaken", assignment)
        picture = "ta-broadcast" if exercise == "broadcast_shape" else "ta-memory"
        assert any(f'class="{picture}"' in svg for svg in _pictures(html)), assignment
        images = BeautifulSoup(html, "html.parser").find_all("img")  # each says what it shows
        assert images and all(image.get("alt", "").strip() for image in images), assignment
        name = named_wrong_answers(assignment)[exercise][mistake][0]
        assert f"Looks like: {name}" in BeautifulSoup(html, "html.parser").get_text()
    intro = _page(instructor, "mistaken", "01_storage_strides")  # "$$\text{offset} + ...$$"
    assert BeautifulSoup(intro, "html.parser").find(
        "math", attrs={"display": "block", "xmlns": "http://www.w3.org/1998/Math/MathML"})
    assert "\\text{offset}" not in intro


def test_a_manual_grade_change_shows_in_the_verdict_of_the_feedback(graded):
    """The formgrader's manual score, not the autograded one, in the verdict's points."""
    from nbgrader.api import Gradebook

    instructor, _ = graded
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    assignment = ASSIGNMENTS[0]
    with Gradebook(f"sqlite:///{instructor / 'gradebook.db'}") as gradebook:
        grade = next(g for g in gradebook.find_submission(assignment, "partial").notebooks[0]
                     .grades if g.auto_score is not None and g.auto_score < g.max_score)
        name, auto, most = grade.name, grade.auto_score, grade.max_score
        grade.manual_score = most
        gradebook.db.commit()
    done = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", assignment,
                           "--student", "partial", "--force"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    html = _page(instructor, "partial", assignment)
    said = f"→ {most:g} / {most:g} points (your instructor changed it from {auto:g})"
    assert f"Hidden checks for {name}:" in html and said in html


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")
def test_the_feedback_page_offline_in_a_browser_draws_its_maths_and_inputs(graded):
    """Nothing from the internet: MathML and inline SVG, drawn by Chromium itself."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    instructor, _ = graded
    artifacts = ROOT / "tests" / "artifacts" / "browser"
    artifacts.mkdir(parents=True, exist_ok=True)
    page_file = next((instructor / "feedback" / "mistaken" / "01_storage_strides").glob("*.html"))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = offline_page(browser)
        page.goto(page_file.as_uri())
        formula = page.locator('math[display="block"]').first.bounding_box()
        assert formula["width"] > 100 and formula["height"] > 5  # drawn, not raw TeX
        assert "\\text{offset}" not in page.locator("body").inner_text()
        cell = page.locator(".code_cell").filter(has_text="Hidden checks for diagonal_view")
        picture = cell.locator('img[src^="data:image/svg+xml"]').first
        assert picture.evaluate("img => img.complete && img.naturalWidth > 100")
        verdict = cell.locator("pre", has_text="Hidden checks for").first
        assert verdict.evaluate("pre => pre.scrollWidth <= pre.clientWidth")  # lines wrap
        assert "Looks like: uses x's strides but forgets its storage offset" in \
            verdict.inner_text()
        cell.screenshot(path=artifacts / "feedback_drawn_input.png")
        browser.close()
