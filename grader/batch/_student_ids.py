"""Before grading: the student ids that submissions are filed under, checked.

A submission's folder name (``submitted/<student>/<assignment>``) is its student's id,
and the student may have chosen it: through the exchange's folder names, an LMS
profile, a login. It becomes a gradebook row, a cell of every export, a line of the
summary and a folder of feedback. ``grader._ids.id_problem`` says which ids cannot be
graded; such a submission is refused before anything reads it, with one line, and
costs only its owner. Ids that print alike (``Ada`` and ``ada``) are flagged, not
refused: each is a login of its own, and refusing either could cost an innocent
student; the imitations that are not (non-NFKC, mixed scripts) ``id_problem`` refuses.
"""

import collections
from pathlib import Path

from grader._ids import id_problem, look_alike, terminal_safe

__all__ = ["check_ids", "look_alike_groups", "refused_ids", "shown", "submitted_ids"]


def shown(student_id: str) -> str:
    """The id as the terminal should show it: quoted (a space is seen), no control acting."""
    return f'"{terminal_safe(student_id)}"'


def submitted_ids(submitted: Path, assignments: list[str]) -> list[str]:
    """Every student id with a submission of one of ``assignments``, sorted."""
    return sorted({folder.parent.name for assignment in assignments
                   for folder in submitted.glob(f"*/{assignment}")})


def refused_ids(ids: list[str]) -> dict[str, str]:
    """id → why it cannot be graded, for each of ``ids`` that cannot."""
    return {student: problem for student in ids if (problem := id_problem(student))}


def look_alike_groups(ids: list[str]) -> list[list[str]]:
    """The ids that print alike, in groups of two or more."""
    groups = collections.defaultdict(list)
    for student in ids:
        groups[look_alike(student)].append(student)
    return [group for group in groups.values() if len(group) > 1]


def check_ids(submitted: Path, assignments: list[str]) -> dict[str, str]:
    """Say which submitted ids are refused and which look alike; the refused ones, id → why."""
    ids = submitted_ids(submitted, assignments)
    refused = refused_ids(ids)
    for student, problem in refused.items():
        print(f"refused the submissions of student id {shown(student)}: {problem}", flush=True)
    for group in look_alike_groups(ids):
        graded = [student for student in group if student not in refused]
        print(f"student ids that look alike: {', '.join(map(shown, group))} "
              f"({len(graded)} graded, each as its own student: check none poses as another)",
              flush=True)
    return refused
