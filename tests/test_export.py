"""Grades for an LMS (``grader/batch/_export.py``): laid out as Canvas and Moodle import
them (``tests/lms/``), a missing submission empty, not 0, a late one flagged."""

import csv
import datetime
import os
import sys
from pathlib import Path

import pytest

from grader.batch._export import export_for_lms

EXAMPLES = Path(__file__).parent / "lms"
DUE = datetime.datetime(2026, 11, 1, 12, 0)
# student → (first, last, email, lms id, {assignment: (timestamp, {exercise: score})})
CLASS = {
    "ada": ("Ada", "Lovelace", "ada@example.org", "1234",
            {"a1": (DUE - datetime.timedelta(hours=1), {"x": 2.0, "y": 1.0}),
             "a2": (DUE - datetime.timedelta(hours=2), {"z": 3.0})}),
    "grace": ("Grace", "Hopper", "grace@example.org", None,
              {"a1": (DUE + datetime.timedelta(hours=5), {"x": 1.5, "y": 0.0})}),
    "linus": (None, None, None, None, {}),
}
POINTS = {"a1": {"x": 2.0, "y": 3.0}, "a2": {"z": 4.0}}


def _with_alembic(patch, db_url: str) -> str:
    """nbgrader makes a new gradebook with ``alembic``, which it finds on PATH."""
    patch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    return db_url


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from nbgrader.api import Gradebook

    folder = tmp_path_factory.mktemp("export")
    db_url = f"sqlite:///{folder / 'gradebook.db'}"
    with pytest.MonkeyPatch.context() as patch, Gradebook(_with_alembic(patch, db_url)) as book:
        for assignment, cells in POINTS.items():
            book.update_or_create_assignment(assignment, duedate=DUE)
            book.update_or_create_notebook(assignment, assignment)
            for name, points in cells.items():
                book.update_or_create_grade_cell(name, assignment, assignment,
                                                 max_score=points, cell_type="code")
        for student, (first, last, email, lms, handed_in) in CLASS.items():
            book.update_or_create_student(student, first_name=first, last_name=last,
                                          email=email, lms_user_id=lms)
            for assignment, (timestamp, scores) in handed_in.items():
                book.add_submission(assignment, student, timestamp=timestamp)
                for name, score in scores.items():
                    grade = book.find_grade(name, assignment, assignment, student)
                    grade.auto_score = score
                book.db.commit()
    export_for_lms(db_url, folder / "out")
    return folder / "out"


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_canvas_file_has_canvas_columns_points_row_and_empty_missing(exported):
    ours, theirs = _rows(exported / "canvas.csv"), _rows(EXAMPLES / "canvas_gradebook_example.csv")
    assert ours[0][:5] == theirs[0][:5] and ours[0][5:] == ["a1", "a2"]
    assert ours[1][0] == theirs[1][0] and ours[1][5:] == ["5", "4"]
    rows = {row[3]: row for row in ours[2:]}  # by SIS Login ID: the nbgrader student id
    assert rows["ada"][:2] == ["Lovelace, Ada", "1234"] and rows["ada"][5:] == ["3", "3"]
    assert rows["grace"][5:] == ["1.5", ""]  # a2 not handed in: empty, not 0
    assert rows["linus"][0] == "linus" and rows["linus"][5:] == ["", ""]


def test_moodle_file_matches_students_by_username(exported):
    ours, theirs = _rows(exported / "moodle.csv"), _rows(EXAMPLES / "moodle_grades_example.csv")
    assert ours[0][:4] == theirs[0][:4] and ours[0][4:] == ["a1", "a2"]
    rows = {row[0]: row for row in ours[1:]}
    assert rows["ada"] == ["ada", "ada@example.org", "Ada", "Lovelace", "3", "3"]
    assert rows["grace"][4:] == ["1.5", ""] and rows["linus"][4:] == ["", ""]


def test_wide_file_has_a_row_per_student_and_a_column_per_exercise(exported):
    header, *rows = _rows(exported / "grades_wide.csv")
    assert header == ["student_id", "first_name", "last_name", "email", "a1:x", "a1:y", "a1",
                      "a1:late", "a2:z", "a2", "a2:late", "total", "max"]
    by_id = {row[0]: dict(zip(header, row)) for row in rows}
    assert len(rows) == len(CLASS)
    assert by_id["ada"]["a1:x"] == "2" and by_id["ada"]["a1:late"] == "on time"
    assert by_id["grace"]["a1:late"] == "late" and by_id["grace"]["a2"] == ""
    assert by_id["grace"]["total"] == "1.5" and by_id["grace"]["max"] == "9"
    assert by_id["linus"]["a1"] == "" and by_id["linus"]["a1:late"] == ""
