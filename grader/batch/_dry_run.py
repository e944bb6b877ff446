"""A student's dry run: the real hidden checks on one notebook, points and a total.

``python -m grader validate NB`` (or ``make validate NB=…``) judges the notebook
as grading will, in the sandbox, and prints each exercise's verdict and a table
of points. A finite exercise (a few answers, each one of a few choices) is left
to grading: a count of wrong answers, or even "all right", run again after each
change, would give its answers away one run at a time. Exit status: 0 when
every other check passes, 1 when some fail, 2 when the notebook cannot be graded.
"""

import sys
from pathlib import Path

from grader import _notebook
from grader.bridge._verdict_text import report_lines, score
from grader.checks._digests import finite_exercises
from grader.judge._judge_server import judge

__all__ = ["dry_run", "points_table"]


AT_GRADING = ("decided at grading: a dry run says nothing of a finite exercise's answers "
              "(run after run, it would give them away)")


def points_table(verdict: dict, points: dict[str, float], withheld=frozenset()) -> list[str]:
    """One line per exercise (points earned of points), then the total; the ``withheld``
    exercises' points are left to grading."""
    rows = [(name, None if name in withheld else score(record, points.get(name, 1.0)),
             points.get(name, 1.0)) for name, record in verdict["exercises"].items()]
    width = max([len("total"), *(len(name) for name, _, _ in rows)])
    lines = [f"{name:<{width}}  {'?' if earned is None else f'{earned:g}'} / {most:g}"
             for name, earned, most in rows]
    earned = sum(r[1] for r in rows if r[1] is not None)
    most = sum(r[2] for r in rows if r[1] is not None)
    later = sum(r[2] for r in rows if r[1] is None)
    rest = f", and {later:g} decided at grading" if later else ""
    return [*lines, f"{'total':<{width}}  {earned:g} / {most:g}{rest}"]


def _verdict_lines(name: str, record: dict, points: float, withheld) -> list[str]:
    if name in withheld:
        return [f"Hidden checks for {name}: {AT_GRADING}"]
    return report_lines(name, record, points)


def dry_run(notebook: Path) -> int:
    """Judge ``notebook``, print its verdicts and points; the exit status."""
    assignment = notebook.resolve().parent.name
    try:
        nb = _notebook.load(notebook)
        verdict = judge(nb, assignment)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"could not grade {notebook}: {exc}", file=sys.stderr)
        return 2
    points = {name: float(cell["metadata"]["nbgrader"].get("points", 1))
              for name, cell in _notebook.exercise_cells(nb).items()}
    withheld = set(finite_exercises()) & set(verdict["exercises"])
    for name, record in verdict["exercises"].items():
        print("\n".join(_verdict_lines(name, record, points.get(name, 1.0), withheld)))
    print("\n" + "\n".join(points_table(verdict, points, withheld)))
    judged = {n: r for n, r in verdict["exercises"].items() if n not in withheld}
    failed = [n for n, r in judged.items() if r["passed"] < r["total"]]
    print(f"{len(judged) - len(failed)} of {len(judged)} exercises judged here pass every "
          "hidden check")
    return 1 if failed else 0
