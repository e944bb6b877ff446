"""``make demo``: three synthetic students, graded end to end.

complete — every solution cell filled with the instructor's solution;
partial  — the first half of the solution cells filled, the rest left blank;
blank    — the released notebook, untouched.
"""

import copy
import json
import sys

from grader import _notebook
from grader._course import Course
from grader.batch import _gradebook

__all__ = ["demo", "synthetic_submission"]

_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def _solution_sources(source_nb: dict) -> dict[str, str]:
    """Solution cells of the source notebook by grade id, markers removed."""
    found = {}
    for cell in source_nb["cells"]:
        meta = _notebook.nbgrader_metadata(cell)
        if meta.get("solution"):
            kept = [line for line in _notebook.source(cell).splitlines()
                    if line.strip() not in _MARKERS]
            found[meta["grade_id"]] = "\n".join(kept)
    return found


def synthetic_submission(release_nb: dict, source_nb: dict, fraction: float) -> dict:
    """The released notebook with the first ``fraction`` of its answers filled in."""
    solutions = _solution_sources(source_nb)
    submission = copy.deepcopy(release_nb)
    answer_cells = [c for c in submission["cells"]
                    if _notebook.nbgrader_metadata(c).get("solution")]
    for cell in answer_cells[: round(fraction * len(answer_cells))]:
        cell["source"] = solutions[cell["metadata"]["nbgrader"]["grade_id"]]
    return submission


STUDENTS = {"complete": 1.0, "partial": 0.5, "blank": 0.0}


def _write_students(course: Course, assignment: str) -> None:
    release_path = course.release_notebook(assignment)
    release_nb = json.loads(release_path.read_text(encoding="utf-8"))
    source_nb = json.loads(course.source_notebook(assignment).read_text(encoding="utf-8"))
    for student, fraction in STUDENTS.items():
        folder = course.submitted(student, assignment)
        folder.mkdir(parents=True, exist_ok=True)
        notebook = synthetic_submission(release_nb, source_nb, fraction)
        (folder / release_path.name).write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def _deserved(row: dict, student: str) -> bool:
    if student == "complete":
        return row["total"] == row["max"]
    if student == "blank":
        return row["total"] == 0
    return 0 < row["total"] < row["max"]


def demo(course: Course, grade) -> int:
    """Write the three students for every assignment, grade them all, check the scores."""
    assignments = course.assignments()
    for assignment in assignments:
        _write_students(course, assignment)
    status = grade(course, assignments)
    wrong = [f"grading exit {status}"] if status else []
    for assignment in assignments:
        table = _gradebook.scores(course.db_url, assignment)
        wrong += [f"{assignment}/{s}" for s in STUDENTS
                  if s not in table or not _deserved(table[s], s)]
    if wrong:
        print(f"demo: scores are not what the submissions deserve: {wrong}", file=sys.stderr)
        return 1
    print("demo: complete = 100%, partial in between, blank = 0%, as deserved")
    return 0
