"""Regrading reports who moved and why (``grader/batch/_regrade.py``): before and after per
student and exercise, the hidden checks that flipped, the points value that changed, a
student who did not move left out, a score set by hand kept, no report on a first grading.

Unit tests on hand-made verdicts first; then a small class graded end to end on a copy of
the course, one hidden check changed so that it no longer rejects a stub and one exercise's
points raised, graded again.
"""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import COURSE, load_notebook
from support.course_copy import copy_course

from grader._verdict import with_verdict
from grader.batch import _gradebook, _regrade
from grader.batch._demo import synthetic_submission

pytestmark = pytest.mark.heavy  # grades a class twice in a fixture: scheduled first

OFFSET = ("test_diagonal_view_offset",
          "matches torch.diagonal, as a view, on matrices that start inside their storage")
BROADCAST = ("test_diagonal_view_broadcast",
             "matches torch.diagonal, as a view, on broadcast matrices (a stride of 0)")


def _verdict(points: float, *checks: tuple[tuple[str, str], bool], exercise="diagonal_view"):
    record = {"passed": sum(passed for _, passed in checks), "total": len(checks),
              "checks": [{"check": name, "description": description, "passed": passed,
                          "detail": "" if passed else "expected (2,), got (3,)"}
                         for (name, description), passed in checks],
              "misconceptions": []}
    return {"exercise": exercise, "points": points, "record": record}


def _graded(*verdicts: dict, answers: str = "the same answers") -> _regrade.Graded:
    return _regrade.Graded(answers, {verdict["exercise"]: verdict for verdict in verdicts})


def _class(offset_passes: dict[str, bool], points: float = 2.0) -> _regrade.Verdicts:
    return {student: _graded(_verdict(points, (BROADCAST, True), (OFFSET, passes)))
            for student, passes in offset_passes.items()}


def test_a_check_that_now_passes_moves_its_students_up_and_no_one_else():
    before = _class({"ada": False, "grace": False, "linus": True})
    after = _class({"ada": True, "grace": True, "linus": True})
    found = _regrade.moves(before, after)
    assert [(m.student, m.before, m.after, m.change, m.now_passing, m.now_failing)
            for m in found] == [
        ("ada", 1.0, 2.0, 1.0, ("test_diagonal_view_offset",), ()),
        ("grace", 1.0, 2.0, 1.0, ("test_diagonal_view_offset",), ())]
    assert _regrade.summary("01_storage_strides", found, 3, {}) == [
        "Regrade of 01_storage_strides: 2 of 3 students moved",
        "- 2 students gain 1 point on diagonal_view: test_diagonal_view_offset now passes "
        "(matches torch.diagonal, as a view, on matrices that start inside their storage)"]


def test_a_check_that_now_fails_and_a_new_points_value_are_both_named():
    before = _class({"ada": True}, points=2.0)
    after = _class({"ada": False}, points=4.0)
    (move,) = _regrade.moves(before, after)
    assert (move.before, move.after, move.change) == (2.0, 2.0, 0.0)
    assert move.now_failing == ("test_diagonal_view_offset",)
    assert _regrade.summary("a", [move], 1, {})[1] == (
        "- 1 student keeps the points on diagonal_view: it is worth 4 points, not 2; "
        "test_diagonal_view_offset now fails (matches torch.diagonal, as a view, on matrices "
        "that start inside their storage)")


def test_a_dropped_check_says_so_and_a_student_graded_once_is_no_move():
    before = _class({"ada": False, "new": False})
    after = {"ada": _graded(_verdict(2.0, (BROADCAST, True))),
             "late": _graded(_verdict(2.0, (BROADCAST, False)))}
    (move,) = _regrade.moves(before, after)
    assert (move.student, move.change, move.dropped) == ("ada", 1.0, ("test_diagonal_view_offset",))
    assert "test_diagonal_view_offset is no longer run" in _regrade.summary("a", [move], 1, {})[1]


def test_a_student_who_handed_in_again_is_told_apart_from_the_graders_move():
    before = _class({"ada": False, "grace": False})
    after = {**_class({"ada": True}),
             "grace": _graded(*_class({"grace": True})["grace"].exercises.values(),
                              answers="new answers")}
    found = _regrade.moves(before, after)
    assert [(m.student, m.handed_in_again) for m in found] == [("ada", False), ("grace", True)]
    assert _regrade.summary("a", found, 2, {})[1:] == [
        "- 1 student gains 1 point on diagonal_view: test_diagonal_view_offset now passes "
        f"({OFFSET[1]})",
        "- 1 student gains 1 point on diagonal_view: they handed in again; "
        f"test_diagonal_view_offset now passes ({OFFSET[1]})"]


def _autograded(instructor, student: str, verdict: dict, assignment="a1") -> None:
    cell = {"cell_type": "code", "execution_count": 1, "id": "c", "outputs": [],
            "source": "check('diagonal_view')",
            "metadata": {"nbgrader": {"grade": True, "solution": False, "locked": True,
                                      "grade_id": "diagonal_view", "points": verdict["points"],
                                      "schema_version": 3}}}
    with_verdict(cell, "diagonal_view", verdict["record"], verdict["points"])
    folder = instructor / "autograded" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{assignment}.ipynb").write_text(json.dumps(
        {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


def test_the_report_files_from_autograded_notebooks_formula_safe_hand_scores_kept(
        tmp_path, monkeypatch):
    for student, passes in {"=HYPERLINK(1)": False, "grace": False, "linus": True}.items():
        _autograded(tmp_path, student, _verdict(2.0, (BROADCAST, True), (OFFSET, passes)))
    assert _regrade.write_regrade_report(tmp_path, "sqlite://", "a1", {}) is None
    assert not (tmp_path / "reports").exists()  # a first grading: nothing to compare
    before = _regrade.previous_verdicts(tmp_path, ["a1"])["a1"]
    for student in ("=HYPERLINK(1)", "grace"):
        _autograded(tmp_path, student, _verdict(2.0, (BROADCAST, True), (OFFSET, True)))
    monkeypatch.setattr(_regrade, "_hand_changed", lambda db, a: {("grace", "diagonal_view"): 0.5})
    table, text = _regrade.write_regrade_report(tmp_path, "sqlite://", "a1", before)
    with open(table, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["student"], r["before"], r["after"], r["change"], r["tests_now_passing"],
             r["kept_by_hand"]) for r in rows] == [
        ("'=HYPERLINK(1)", "1", "2", "+1", "test_diagonal_view_offset", ""),
        ("grace", "1", "2", "+1", "test_diagonal_view_offset", "0.5")]
    assert text.read_text().splitlines()[1].endswith(
        "(1 keeps the score you set by hand: the gradebook keeps it)")



# --- a class graded, a hidden check changed, graded again ---------------------------------

ASSIGNMENT = "01_storage_strides"
LOOSENED = "test_diagonal_view_broadcast"  # made to pass whatever the student answers
BY_HAND = 1.5  # the instructor's score for blank's diagonal_view, set between the gradings


def _grade(course: Path, instructor: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "PYTHONPATH": str(course)}
    env.pop("TENSOR_ANATOMY_DB_URL", None)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT, "--jobs", "1"],
                          cwd=course, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _loosen_a_check(course: Path) -> None:
    """The broadcast check no longer rejects anything: it returns before it compares."""
    path = course / "grader" / "hidden" / ASSIGNMENT.split("_", 1)[1] / "test.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(f"def {LOOSENED}("))
    lines.insert(at + 2, "    return\n")  # after the docstring: the description stays
    path.write_text("".join(lines), encoding="utf-8")


def _raise_the_points(course: Path, exercise: str, points: int) -> None:
    """``exercise``'s test cell worth ``points`` in the source and the release (``make
    release``); the students' notebooks keep the old value, as handed in."""
    for path in (course / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                 course / "exercises" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            ours = cell["metadata"].get("nbgrader", {})
            if ours.get("grade") and ours.get("grade_id") == exercise:
                ours["points"] = points
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _set_by_hand(db_url: str, student: str, exercise: str, score: float) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(db_url) as gradebook:
        grade = gradebook.find_grade(exercise, ASSIGNMENT, ASSIGNMENT, student)
        grade.manual_score = score
        gradebook.db.commit()


@pytest.fixture(scope="module")
def regraded(tmp_path_factory):
    course = copy_course(tmp_path_factory.mktemp("course"))
    instructor = tmp_path_factory.mktemp("instructor")
    release = COURSE.release_notebook(ASSIGNMENT)
    for student, fraction in {"complete": 1.0, "blank": 0.0}.items():
        folder = instructor / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        notebook = synthetic_submission(load_notebook(release),
                                        load_notebook(COURSE.source_notebook(ASSIGNMENT)), fraction)
        (folder / release.name).write_text(json.dumps(notebook), encoding="utf-8")
    first = _grade(course, instructor)
    reports = sorted(p.name for p in (instructor / "reports").glob("*_regrade.*"))
    db_url = f"sqlite:///{instructor / 'gradebook.db'}"
    _set_by_hand(db_url, "blank", "diagonal_view", BY_HAND)
    _loosen_a_check(course)
    _raise_the_points(course, "contiguous_strides", 3)
    second = _grade(course, instructor)
    return {"first": first, "reports after the first": reports, "second": second,
            "instructor": instructor, "scores": _gradebook.scores(db_url, ASSIGNMENT)}


def test_a_first_grading_writes_no_regrade_report(regraded):
    assert regraded["reports after the first"] == []
    assert "Regrade of" not in regraded["first"].stdout


def test_the_regrade_names_who_moved_the_check_and_before_and_after(regraded):
    reports = regraded["instructor"] / "reports"
    with open(reports / f"{ASSIGNMENT}_regrade.csv", newline="", encoding="utf-8") as f:
        rows = {(row["student"], row["exercise"]): row for row in csv.DictReader(f)}
    # complete passed the loosened check before, blank scores 0 of 2 or 3 points: not there
    assert set(rows) == {("blank", "diagonal_view"), ("complete", "contiguous_strides")}
    loosened, raised = rows["blank", "diagonal_view"], rows["complete", "contiguous_strides"]
    assert (loosened["before"], loosened["tests_now_passing"], loosened["tests_now_failing"],
            loosened["kept_by_hand"]) == ("0", LOOSENED, "", f"{BY_HAND:g}")
    gained = float(loosened["after"])
    assert 0 < gained < 2 and loosened["change"] == f"{gained:+g}"
    assert (raised["before"], raised["after"], raised["change"], raised["points_before"],
            raised["points_after"], raised["tests_now_passing"]) == ("2", "3", "+1", "2", "3", "")
    summary = (reports / f"{ASSIGNMENT}_regrade.md").read_text(encoding="utf-8").splitlines()
    lines = [f"- 1 student gains {gained:g} points on diagonal_view: {LOOSENED} now passes "
             "(matches torch.diagonal, as a view, on broadcast matrices (a stride of 0)) "
             "(1 keeps the score you set by hand: the gradebook keeps it)",
             "- 1 student gains 1 point on contiguous_strides: it is worth 3 points, not 2"]
    assert summary[0] == f"Regrade of {ASSIGNMENT}: 2 of 2 students moved"
    assert sorted(summary[1:]) == sorted(lines)
    assert all(line in regraded["second"].stdout for line in lines)
    assert regraded["scores"]["blank"]["diagonal_view"] == BY_HAND  # the hand's score stands
    assert regraded["scores"]["complete"]["contiguous_strides"] == 3
