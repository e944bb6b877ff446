"""Regrading reports who moved and why (``grader/batch/_regrade.py``): before and after per
student and exercise, the hidden checks that flipped, the points value that changed, a
student who did not move left out, a score set by hand kept, no report on a first grading.

Unit tests on hand-made verdicts first; then a small class graded end to end on a copy of
the course, one hidden check changed so that it no longer rejects a stub, graded again.
"""

import csv
import json

from grader._verdict import with_verdict
from grader.batch import _regrade

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


def _class(offset_passes: dict[str, bool], points: float = 2.0) -> _regrade.Verdicts:
    return {student: {"diagonal_view": _verdict(points, (BROADCAST, True), (OFFSET, passes))}
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
        "- 1 student keep their points on diagonal_view: it is worth 4 points, not 2; "
        "test_diagonal_view_offset now fails (matches torch.diagonal, as a view, on matrices "
        "that start inside their storage)")


def test_a_dropped_check_says_so_and_a_student_graded_once_is_no_move():
    before = _class({"ada": False, "new": False})
    after = {"ada": {"diagonal_view": _verdict(2.0, (BROADCAST, True))},
             "late": {"diagonal_view": _verdict(2.0, (BROADCAST, False))}}
    (move,) = _regrade.moves(before, after)
    assert (move.student, move.change, move.dropped) == ("ada", 1.0, ("test_diagonal_view_offset",))
    assert "test_diagonal_view_offset is no longer run" in _regrade.summary("a", [move], 1, {})[1]


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
        _autograded(tmp_path, student, _class({student: passes})[student]["diagonal_view"])
    assert _regrade.write_regrade_report(tmp_path, "sqlite://", "a1", {}) is None
    assert not (tmp_path / "reports").exists()  # a first grading: nothing to compare
    before = _regrade.previous_verdicts(tmp_path, ["a1"])["a1"]
    for student in ("=HYPERLINK(1)", "grace"):
        _autograded(tmp_path, student, _class({student: True})[student]["diagonal_view"])
    monkeypatch.setattr(_regrade, "_hand_changed", lambda db, a: {("grace", "diagonal_view"): 0.5})
    table, text = _regrade.write_regrade_report(tmp_path, "sqlite://", "a1", before)
    with open(table, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["student"], r["before"], r["after"], r["change"], r["tests_now_passing"],
             r["kept_by_hand"]) for r in rows] == [
        ("'=HYPERLINK(1)", "1", "2", "+1", "test_diagonal_view_offset", ""),
        ("grace", "1", "2", "+1", "test_diagonal_view_offset", "0.5")]
    assert text.read_text().splitlines()[1].endswith(
        "(1 keep the score you set by hand)")

