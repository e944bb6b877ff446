"""Grades for a learning management system, beside nbgrader's own CSV.

nbgrader's export has a row per student and assignment, a missing submission
written as 0 and no exercise. Here, from the same gradebook:

* ``grades_wide.csv``: a row per student; per assignment a column per
  exercise, its raw total, its total after the late policy, whether it was
  late and the late days it spent; a missing submission empty;
* ``canvas.csv``: Canvas's gradebook import (Student, ID, SIS User ID, SIS
  Login ID, Section, then an assignment per column, a Points Possible row);
* ``moodle.csv``: Moodle's grade import (a Username column to match students
  by, then a grade item per column);
* ``late_days.csv``: each student's late-day statement, a row per submission.

Canvas and Moodle get the score after the late policy (``_late_policy``, from
``late_policy.toml`` in the instructor folder; none: no penalty).

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
from grader.batch._late_policy import (
    HandIn,
    LatePolicy,
    apply_late_policy,
    in_due_order,
    read_late_policy,
)
from grader.batch._result_files import write_result_files

__all__ = ["Gradebook", "apply_policy", "export_for_lms", "read_gradebook"]


@dataclass
class Gradebook:
    """What the files need: students, assignments with their exercises, the grades."""

    students: list[dict] = field(default_factory=list)  # id, first_name, last_name, email, ...
    assignments: dict[str, dict] = field(default_factory=dict)  # name → max, exercises
    grades: dict[tuple[str, str], dict] = field(default_factory=dict)  # (student, a) → grade


def _submission(submission) -> dict:
    exercises = {grade.name: grade.score for notebook in submission.notebooks
                 for grade in notebook.grades}
    # The student's due date (their extension included) and collect's time of hand-in.
    return {"total": submission.score, "exercises": exercises,
            "late": submission.total_seconds_late > 0,
            "submitted": submission.timestamp, "due": submission.duedate}


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
                                                 "exercises": exercises,
                                                 "due": assignment.duedate}
            for submission in assignment.submissions:
                book.grades[submission.student.id, assignment.name] = _submission(submission)
    return book


def apply_policy(book: Gradebook, policy: LatePolicy) -> None:
    """Each grade gains the policy's outcome (``late``: past the due date and grace)."""
    due = {name: assignment["due"] for name, assignment in book.assignments.items()}
    handed_in = {key: HandIn(grade["submitted"], grade["due"], grade["total"] or 0.0)
                 for key, grade in book.grades.items()}
    for key, outcome in apply_late_policy(due, handed_in, policy).items():
        book.grades[key].update(outcome=outcome, late=outcome.days_late > 0)


def _text(value) -> str:
    """A cell someone typed (an id, a name, an email): empty if none, never a formula."""
    return spreadsheet_cell(value or "")


def _number(value) -> str:
    """A score as an LMS reads it; empty where there is none (not 0: not handed in)."""
    return "" if value is None else f"{value:g}"


def _totals(book: Gradebook, student: str, names: list[str]) -> list[str]:
    """The student's total in each assignment of ``names``, empty where not handed in."""
    return [_number(_penalised(book.grades.get((student, n)))) for n in names]


def _penalised(grade: dict | None) -> float | None:
    """The score after the late policy; None where not handed in."""
    return None if grade is None else grade["outcome"].penalised


def _wide_rows(book: Gradebook) -> list[list[str]]:
    header = ["student_id", "first_name", "last_name", "email"]
    for name, assignment in book.assignments.items():
        header += [f"{name}:{exercise}" for exercise in assignment["exercises"]]
        header += [f"{name}:raw", f"{name}", f"{name}:late", f"{name}:late_days"]
    rows = [header + ["raw_total", "total", "max"]]
    for student in book.students:
        row = [_text(student[key]) for key in ("id", "first_name", "last_name", "email")]
        raw_total = total = 0.0
        for name, assignment in book.assignments.items():
            grade = book.grades.get((student["id"], name))
            row += [_number(grade and grade["exercises"].get(e)) for e in assignment["exercises"]]
            row += _wide_assignment_cells(grade)
            raw_total += (grade["total"] or 0.0) if grade else 0.0
            total += _penalised(grade) or 0.0
        rows.append(row + [_number(raw_total), _number(total),
                           _number(sum(a["max"] for a in book.assignments.values()))])
    return rows


def _wide_assignment_cells(grade: dict | None) -> list[str]:
    """Raw total, penalised total, late or on time, late days spent."""
    if grade is None:
        return ["", "", "", ""]
    outcome = grade["outcome"]
    return [_number(grade["total"]), _number(outcome.penalised),
            "late" if grade["late"] else "on time", str(outcome.late_days_spent)]


def _statement_rows(book: Gradebook) -> list[list[str]]:
    """Per student, per submission in due-date order: what it cost them."""
    rows = [["student_id", "assignment", "submitted", "due", "days_late", "late_days_spent",
             "late_days_left", "penalty"]]
    names = in_due_order({name: a["due"] for name, a in book.assignments.items()})
    for student in book.students:
        for name in names:
            grade = book.grades.get((student["id"], name))
            if grade is None:
                continue
            outcome = grade["outcome"]
            rows.append([_text(student["id"]), _text(name), _time(grade["submitted"]),
                         _time(grade["due"]), str(outcome.days_late),
                         str(outcome.late_days_spent), str(outcome.late_days_left),
                         _number(outcome.penalty)])
    return rows


def _time(moment) -> str:
    return "" if moment is None else moment.isoformat(sep=" ", timespec="seconds")


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


def export_for_lms(db_url: str, folder: Path, policy: LatePolicy | None = None) -> list[Path]:
    """Write the four files into ``folder``; their paths. The policy, if not given, is
    ``late_policy.toml`` in the folder above (``instructor/export`` → ``instructor``)."""
    book = read_gradebook(db_url)
    apply_policy(book, policy or read_late_policy(folder.parent / "late_policy.toml"))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in (("grades_wide.csv", _wide_rows(book)), ("canvas.csv", _canvas_rows(book)),
                       ("moodle.csv", _moodle_rows(book)),
                       ("late_days.csv", _statement_rows(book))):
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as out:
            csv.writer(out).writerows(rows)
        written.append(path)
    return written + write_result_files(book, folder.parent / "autograded", folder)
