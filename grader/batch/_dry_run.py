"""A student's dry run: the real hidden checks on one notebook, points and a total.

``python -m grader validate NB`` (or ``make validate NB=…``) judges the notebook
as grading will, in the sandbox, and prints each exercise's verdict and a table
of points. A finite exercise (a few answers, each one of a few choices) is left
to grading: a count of wrong answers, or even "all right", run again after each
change, would give its answers away one run at a time. Exit status: 0 when
every other check passes, 1 when some fail, 2 when the notebook cannot be graded.

It speaks the student's language (``grader._language``): ``$TENSOR_ANATOMY_LANG`` if
set, else the notebook's (a notebook of ``exercises/zh-CN/`` is Chinese); what a hidden
check says of a failure is the judge's, in English.
"""

import sys
from pathlib import Path

from anatomy_widgets._language import columns
from grader import _language, _notebook
from grader._course import Course
from grader._language import ENGLISH, localized, marked
from grader._settings import Settings
from grader.bridge._verdict_text import report_lines, score
from grader.checks._digests import finite_exercises
from grader.judge._judge_server import judge

__all__ = ["AT_GRADING", "dry_run", "language_for", "points_table"]


AT_GRADING = marked("decided at grading: a dry run says nothing of a finite exercise's "
                    "answers (run after run, it would give them away)", "validate")


def _padded(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` monospace columns (a wide character takes two)."""
    return text + " " * (width - columns(text))


def points_table(verdict: dict, points: dict[str, float], withheld=frozenset(),
                 language: str = ENGLISH) -> list[str]:
    """One line per exercise (points earned of points), then the total; the ``withheld``
    exercises' points are left to grading."""
    rows = [(name, None if name in withheld else score(record, points.get(name, 1.0)),
             points.get(name, 1.0)) for name, record in verdict["exercises"].items()]
    total = localized("total", "validate", language)
    width = max([columns(total), *(columns(name) for name, _, _ in rows)])
    lines = [f"{_padded(name, width)}  {'?' if earned is None else f'{earned:g}'} / {most:g}"
             for name, earned, most in rows]
    earned = sum(r[1] for r in rows if r[1] is not None)
    most = sum(r[2] for r in rows if r[1] is not None)
    later = sum(r[2] for r in rows if r[1] is None)
    rest = localized(", and {later} decided at grading", "validate", language).format(
        later=f"{later:g}") if later else ""
    return [*lines, f"{_padded(total, width)}  {earned:g} / {most:g}{rest}"]


def _verdict_lines(name: str, record: dict, points: float, withheld, language: str) -> list[str]:
    if name in withheld:
        return [localized("Hidden checks for {name}: {why}", "validate", language).format(
            name=name, why=localized(AT_GRADING, "validate", language))]
    return report_lines(name, record, points, language)


def language_for(nb: dict, assignment: str) -> str:
    """The language to speak: ``$TENSOR_ANATOMY_LANG`` if it names one, else the notebook's
    (of the assignment's releases, the one its cells hold; else its metadata's)."""
    setting = _language.named(Settings.from_environment().language)
    if setting:
        return setting
    try:
        releases = _language.releases(Course.find(), assignment)
    except (OSError, ValueError):  # not an assignment of this course: the metadata says
        releases = {}
    return _language.notebook_language(nb, releases) if releases else \
        _language.named(nb.get("metadata", {}).get(_language.KEY, {}).get("language")) \
        or ENGLISH


def dry_run(notebook: Path) -> int:
    """Judge ``notebook``, print its verdicts and points; the exit status."""
    assignment = notebook.resolve().parent.name
    language = _language.named(Settings.from_environment().language) or ENGLISH
    try:
        nb = _notebook.load(notebook)
        language = language_for(nb, assignment)
        verdict = judge(nb, assignment)
    except (OSError, ValueError, RuntimeError) as exc:
        print(localized("could not grade {notebook}: {error}", "validate", language).format(
            notebook=notebook, error=exc), file=sys.stderr)
        return 2
    points = {name: float(cell["metadata"]["nbgrader"].get("points", 1))
              for name, cell in _notebook.exercise_cells(nb).items()}
    withheld = set(finite_exercises()) & set(verdict["exercises"])
    for name, record in verdict["exercises"].items():
        print("\n".join(_verdict_lines(name, record, points.get(name, 1.0), withheld,
                                       language)))
    print("\n" + "\n".join(points_table(verdict, points, withheld, language)))
    judged = {n: r for n, r in verdict["exercises"].items() if n not in withheld}
    failed = [n for n, r in judged.items() if r["passed"] < r["total"]]
    print(localized("{passed} of {judged} exercises judged here pass every hidden check",
                    "validate", language).format(passed=len(judged) - len(failed),
                                                 judged=len(judged)))
    return 1 if failed else 0
