"""Grades for a learning management system, beside nbgrader's own CSV.

nbgrader's export has a row per student and assignment, a missing submission
written as 0 and no exercise. Here, from the same gradebook:

* ``grades_wide.csv``: a row per student; per assignment a column per
  exercise, its total and whether it was late; a missing submission empty;
* ``canvas.csv``: Canvas's gradebook import (Student, ID, SIS User ID, SIS
  Login ID, Section, then an assignment per column, a Points Possible row);
* ``moodle.csv``: Moodle's grade import (a Username column to match students
  by, then a grade item per column).

The student's nbgrader id is their login (the hand-in's ``$USER``): Canvas's
SIS Login ID, Moodle's username; Canvas's own ID where nbgrader knows it
(``lms_user_id``), or where the id is that number (collected from a Canvas zip).
Every text cell (id, name, email) goes through ``spreadsheet_cell``: what a student
typed never opens as a formula.
"""

import csv
from dataclasses import dataclass, field
from pathlib import Path

from grader._ids import spreadsheet_cell

__all__ = ["Gradebook", "export_for_lms", "read_gradebook"]


@dataclass
class Gradebook:
    """What the files need: students, assignments with their exercises, the grades."""

    students: list[dict] = field(default_factory=list)  # id, first_name, last_name, email, ...
    assignments: dict[str, dict] = field(default_factory=dict)  # name → max, exercises
    grades: dict[tuple[str, str], dict] = field(default_factory=dict)  # (student, a) → grade


def _submission(submission) -> dict:
    exercises = {grade.name: grade.score for notebook in submission.notebooks
                 for grade in notebook.grades}
    return {"total": submission.score, "exercises": exercises,
            "late": submission.total_seconds_late > 0}


def read_gradebook(db_url: str) -> Gradebook:
    """Everything graded so far in nbgrader's gradebook at ``db_url``."""
    from nbgrader.api import Gradebook as NbgraderGradebook  # seconds to import

    book = Gradebook()
    with NbgraderGradebook(db_url) as gradebook:
        book.students = [student.to_dict() for student in gradebook.students]
        for assignment in gradebook.assignments:
            exercises = [cell.name for notebook in assignment.notebooks
                         for cell in notebook.grade_cells]
            book.assignments[assignment.name] = {"max": assignment.max_score,
                                                 "exercises": exercises}
            for submission in assignment.submissions:
                book.grades[submission.student.id, assignment.name] = _submission(submission)
    return book


def _text(value) -> str:
    """A cell someone typed (an id, a name, an email): empty if none, never a formula."""
    return spreadsheet_cell(value or "")


def _number(value) -> str:
    """A score as an LMS reads it; empty where there is none (not 0: not handed in)."""
    return "" if value is None else f"{value:g}"


def _totals(book: Gradebook, student: str, names: list[str]) -> list[str]:
    """The student's total in each assignment of ``names``, empty where not handed in."""
    return [_number((book.grades.get((student, n)) or {}).get("total")) for n in names]


def _wide_rows(book: Gradebook) -> list[list[str]]:
    header = ["student_id", "first_name", "last_name", "email"]
    for name, assignment in book.assignments.items():
        header += [f"{name}:{exercise}" for exercise in assignment["exercises"]]
        header += [f"{name}", f"{name}:late"]
    rows = [header + ["total", "max"]]
    for student in book.students:
        row = [_text(student[key]) for key in ("id", "first_name", "last_name", "email")]
        total = 0.0
        for name, assignment in book.assignments.items():
            grade = book.grades.get((student["id"], name))
            row += [_number(grade and grade["exercises"].get(e)) for e in assignment["exercises"]]
            row += [_number(grade and grade["total"]),
                    "" if grade is None else ("late" if grade["late"] else "on time")]
            total += (grade["total"] or 0.0) if grade else 0.0
        rows.append(row + [_number(total), _number(sum(a["max"] for a in
                                                       book.assignments.values()))])
    return rows


def _canvas_rows(book: Gradebook) -> list[list[str]]:
    names = list(book.assignments)
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *names],
            ["    Points Possible", "", "", "", "",
             *(_number(book.assignments[n]["max"]) for n in names)]]
    for student in book.students:
        display = ", ".join(filter(None, [student["last_name"], student["first_name"]]))
        # Collected from a Canvas zip, a student's id is their Canvas user id.
        canvas_id = student.get("lms_user_id") or (student["id"] if student["id"].isdigit()
                                                    else "")
        rows.append([_text(display or student["id"]), _text(canvas_id), "",
                     _text(student["id"]), "", *_totals(book, student["id"], names)])
    return rows


def _moodle_rows(book: Gradebook) -> list[list[str]]:
    names = list(book.assignments)
    rows = [["Username", "Email address", "First name", "Last name", *names]]
    for student in book.students:
        rows.append([*(_text(student[key]) for key in ("id", "email", "first_name", "last_name")),
                     *_totals(book, student["id"], names)])
    return rows


def export_for_lms(db_url: str, folder: Path) -> list[Path]:
    """Write the three files into ``folder``; their paths."""
    book = read_gradebook(db_url)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in (("grades_wide.csv", _wide_rows(book)), ("canvas.csv", _canvas_rows(book)),
                       ("moodle.csv", _moodle_rows(book))):
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as out:
            csv.writer(out).writerows(rows)
        written.append(path)
    return written
