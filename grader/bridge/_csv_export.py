"""nbgrader's ``grades.csv``, written so that a spreadsheet and an LMS read it as it is meant.

nbgrader's ``CsvExportPlugin`` joins each row's cells with ``","``: a student id or
name holding a comma shifts the columns after it (a blank stub's row then read back
as full marks), and a name starting with ``=`` opened as a formula. This plugin
writes the same columns, in the same order, with the ``csv`` module (a comma or a
quote is quoted, never a separator), each text cell through ``spreadsheet_cell``.
``nbgrader_config.py`` makes it ``nbgrader export``'s plugin; ``make grade`` writes
``grades.csv`` with it too (``_steps.NbgraderSteps.export``).
"""

import csv

from nbgrader.api import MissingEntry
from nbgrader.plugins import ExportPlugin

from grader._ids import spreadsheet_cell

__all__ = ["COLUMNS", "SafeCsvExportPlugin"]

COLUMNS = ("assignment", "duedate", "timestamp", "student_id", "last_name", "first_name",
           "email", "raw_score", "late_submission_penalty", "score", "max_score")  # nbgrader's
TEXT = ("assignment", "student_id", "last_name", "first_name", "email")  # typed by someone


def _scores(gradebook, assignment: str, student: str) -> dict:
    """A submission's scores; a missing one as nbgrader writes it: 0, no timestamp."""
    try:
        submission = gradebook.find_submission(assignment, student)
    except MissingEntry:
        return {"timestamp": "", "raw_score": 0.0, "late_submission_penalty": 0.0, "score": 0.0}
    penalty = submission.late_submission_penalty
    return {"timestamp": submission.timestamp, "raw_score": submission.score,
            "late_submission_penalty": penalty,
            "score": max(0.0, submission.score - penalty)}


def _cells(row: dict) -> list[str]:
    """The row in nbgrader's order and spelling (None as empty), text never a formula."""
    cells = {key: "" if value is None else str(value) for key, value in row.items()}
    return [spreadsheet_cell(cells[key]) if key in TEXT else cells[key] for key in COLUMNS]


class SafeCsvExportPlugin(ExportPlugin):
    """nbgrader's CSV export (``--to``, ``--student``, ``--assignment``), written safely."""

    def _rows(self, gradebook):
        only_students = {str(s) for s in self.student}
        only_assignments = {str(a) for a in self.assignment}
        for assignment in gradebook.assignments:
            if only_assignments and assignment.name not in only_assignments:
                continue
            for student in gradebook.students:
                if only_students and student.id not in only_students:
                    continue
                yield _cells({"assignment": assignment.name, "duedate": assignment.duedate,
                              "student_id": student.id, "last_name": student.last_name,
                              "first_name": student.first_name, "email": student.email,
                              "max_score": assignment.max_score,
                              **_scores(gradebook, assignment.name, student.id)})

    def export(self, gradebook) -> None:
        destination = self.to or "grades.csv"
        self.log.info("Exporting grades to %s", destination)
        with open(destination, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")  # nbgrader's line ends: same bytes
            writer.writerow(COLUMNS)
            writer.writerows(self._rows(gradebook))
