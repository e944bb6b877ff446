"""The instructor's flow end to end: nbgrader autograde → feedback → CSV → table.

``make demo`` writes three synthetic students; we add a fourth who tampers
with torch and the grader, and grade all four through nbgrader itself.
"""

import copy
import csv
import json
import os
import subprocess
import sys

import pytest
from conftest import ASSIGNMENTS, ROOT, load_notebook
from test_grading import TAMPERING

from grader import _gradebook, _notebook
from grader._course import Course
from grader._judge import hidden_checks_path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("instructor")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    for assignment in ASSIGNMENTS:
        _write_tamperer(Course(ROOT), instructor, assignment)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "demo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=1800)
    return instructor, done


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


def test_tampering_through_nbgrader_scores_like_the_blank_stub(graded):
    instructor, _ = graded
    db_url = f"sqlite:///{instructor / 'gradebook.db'}"
    for assignment in ASSIGNMENTS:
        table = _gradebook.scores(db_url, assignment)
        assert table["tamperer"]["total"] == table["blank"]["total"] == 0
        assert table["complete"]["total"] == table["complete"]["max"] > 0


def test_feedback_explains_failures_without_leaking_hidden_checks(graded):
    instructor, _ = graded
    for assignment in ASSIGNMENTS:
        hidden_source = hidden_checks_path(assignment).read_text(encoding="utf-8")
        hidden_lines = {line.strip() for line in hidden_source.splitlines()
                        if len(line.strip()) > 30}
        for student in ("complete", "partial", "blank", "tamperer"):
            page = next((instructor / "feedback" / student / assignment).glob("*.html"))
            html = page.read_text(encoding="utf-8")
            assert "Hidden checks for" in html
            assert "BEGIN HIDDEN TESTS" not in html
            assert not [line for line in hidden_lines if line in html]
        blank = next((instructor / "feedback" / "blank" / assignment).glob("*.html"))
        assert "NotImplementedError" in blank.read_text(encoding="utf-8")


def test_grades_are_exported_as_csv(graded):
    instructor, _ = graded
    with open(instructor / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    students = {row["student_id"] for row in rows}
    assert students == {"complete", "partial", "blank", "tamperer"}
    assert {row["assignment"] for row in rows} == set(ASSIGNMENTS)
