"""Each graded submission as Gradescope and PrairieLearn read an autograder's result.

A ``results.json`` per student and assignment, in ``export/gradescope/<student>/<assignment>/``
and ``export/prairielearn/<student>/<assignment>/``: a test per exercise whose points are the
gradebook's (a score an instructor changed by hand shows), whose pass or fail and output
are the hidden checks' verdict as the judge stored it in the autograded test cell
(``grader._verdict``): each group of checks, why the first failed ones failed, the
misconceptions the failures look like. The formats: Gradescope's "Autograder
Specifications" (https://gradescope-autograders.readthedocs.io/en/latest/specs/) and
PrairieLearn's "External Grading", Grading results
(https://prairielearn.readthedocs.io/en/latest/externalGrading/#grading-results). Neither
publishes a JSON Schema: ``grader/export_schemas/`` holds one written from each page, and
the tests validate every file against it.

The score is the raw one, before the late policy: both platforms apply their own late
rules (Gradescope's ``extra_data`` keeps ours). What the files say is partly the student's
(a check's detail quotes their answer): every line goes through ``terminal_safe`` (no
control, bidi or ANSI escape character reaches a page: PrairieLearn renders ANSI colours),
Gradescope is told each text is plain (its top-level output is HTML by default), and each
text is cut to a bound. A student id that is not one safe path component is never a
folder name: its submission is skipped and said so on stderr.
"""

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from grader import _notebook
from grader._ids import id_problem, terminal_safe
from grader._verdict import verdict_of

__all__ = ["PLATFORMS", "write_result_files"]

PLATFORMS = ("gradescope", "prairielearn")
_NAME_LIMIT = 200  # characters of a test's name
_OUTPUT_LIMIT = 8000  # characters of one output: a check's detail is cut at 600 already
_SHOWN_FAILURES = 3  # failed checks shown per group, as on the feedback page
_INDENT = "    "


@dataclass(frozen=True)
class _Exercise:
    name: str
    score: float  # the gradebook's: autograded, or as the instructor changed it
    max: float | None  # the grade cell's points; None where no notebook says
    record: dict | None  # the judge's verdict; None where none is stored (graded by hand)


def _safe(text: object, limit: int) -> str:
    """``text`` with every control or format character escaped, line breaks kept, cut."""
    text = "\n".join(terminal_safe(line) for line in str(text).splitlines())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _path_problem(name: str) -> str | None:
    """Why ``name`` (a student id, an assignment) cannot be a folder name; None if it can."""
    return id_problem(name)  # refuses '/', '.' and '..': none climbs out of the folder


def _autograded(folder: Path) -> tuple[dict[str, float], dict[str, dict]]:
    """Each grade cell's points and each test cell's verdict, by grade id (the exercise),
    from the autograded notebooks in ``folder``; none where nbgrader wrote none."""
    points: dict[str, float] = {}
    records: dict[str, dict] = {}
    for path in sorted(folder.glob("*.ipynb")):
        notebook = _notebook.load(path)
        for cell in notebook.get("cells", []):
            nbgrader = _notebook.nbgrader_metadata(cell)
            if nbgrader.get("grade") and isinstance(nbgrader.get("grade_id"), str):
                points[nbgrader["grade_id"]] = float(nbgrader.get("points") or 0.0)
        for name, cell in _notebook.exercise_cells(notebook).items():
            verdict = verdict_of(cell)
            if verdict is not None and verdict["exercise"] == name:
                records[name] = verdict["record"]
    return points, records


def _exercises(names: list[str], grade: dict, folder: Path) -> list[_Exercise]:
    points, records = _autograded(folder)
    scores = grade.get("exercises", {})
    return [_Exercise(name, float(scores.get(name) or 0.0), points.get(name), records.get(name))
            for name in names]


def _checks(record: dict) -> list[dict]:
    checks = record.get("checks")
    return [c for c in checks if isinstance(c, dict)] if isinstance(checks, list) else []


def _group_lines(description: str, group: list[dict]) -> list[str]:
    """A group of checks (one description, e.g. one per example): ✓, or ✗ and why the first
    failed ones failed."""
    failed = [check for check in group if not check.get("passed")]
    examples = f" ({len(group)} examples)" if len(group) > 1 else ""
    if not failed:
        return [f"✓ {description}{examples}"]
    wrong = f": {len(failed)} of {len(group)} wrong" if len(group) > 1 else ""
    lines = [f"✗ {description}{wrong}"]
    for check in failed[:_SHOWN_FAILURES]:
        lines += [_INDENT + line for line in str(check.get("detail", "")).splitlines()]
    if len(failed) > _SHOWN_FAILURES:
        lines.append(f"{_INDENT}… and {len(failed) - _SHOWN_FAILURES} more")
    return lines


def _misconceptions(record: dict) -> list[str]:
    found = record.get("misconceptions")
    return [_safe(m, _NAME_LIMIT) for m in found if isinstance(m, str)] \
        if isinstance(found, list) else []


def _verdict_lines(exercise: _Exercise) -> list[str]:
    """The verdict in words: a summary line, then its groups of checks and misconceptions."""
    record = exercise.record
    if record is None:
        return ["no hidden checks recorded for this exercise (graded by hand)"]
    groups: dict[str, list[dict]] = {}
    for check in _checks(record):
        groups.setdefault(str(check.get("description", "")), []).append(check)
    lines = [f"{record.get('passed', 0)} of {record.get('total', 0)} hidden checks passed"]
    for description, group in groups.items():
        lines += _group_lines(description, group)
    return lines + [f"Looks like: {mistake}" for mistake in _misconceptions(record)]


def _passed(exercise: _Exercise) -> bool:
    """Every hidden check passed; without checks, full marks."""
    checks = _checks(exercise.record or {})
    if checks:
        return all(check.get("passed") for check in checks)
    return exercise.max is not None and exercise.score >= exercise.max


def _gradescope_test(exercise: _Exercise) -> dict:
    test = {"name": _safe(exercise.name, _NAME_LIMIT), "name_format": "text",
            "score": exercise.score, "status": "passed" if _passed(exercise) else "failed",
            "output": _safe("\n".join(_verdict_lines(exercise)), _OUTPUT_LIMIT),
            "output_format": "text"}
    if exercise.max is not None:
        test["max_score"] = exercise.max
    if exercise.record is not None:
        test["extra_data"] = {"checks_passed": len([c for c in _checks(exercise.record)
                                                    if c.get("passed")]),
                              "checks_total": len(_checks(exercise.record)),
                              "misconceptions": _misconceptions(exercise.record)}
    return test


def _summary(total: float, most: float) -> str:
    return f"{total:g} / {most:g} points (before any late penalty)"


def _gradescope_result(exercises: list[_Exercise], grade: dict, most: float) -> dict:
    """Gradescope's results.json: the gradebook's total overrides the tests' sum (extra
    credit counts), every text declared plain text."""
    total = float(grade.get("total") or 0.0)
    result = {"score": total, "output": _summary(total, most), "output_format": "text",
              "test_output_format": "text", "test_name_format": "text",
              "tests": [_gradescope_test(exercise) for exercise in exercises]}
    outcome = grade.get("outcome")
    if outcome is not None:  # the late policy's, for an instructor who wants it there too
        result["extra_data"] = {"score_after_late_policy": outcome.penalised,
                                "late_days_spent": outcome.late_days_spent}
    return result


def _points(exercise: _Exercise) -> str:
    most = "" if exercise.max is None else f" / {exercise.max:g}"
    return f"{exercise.name}: {exercise.score:g}{most}"


def _prairielearn_test(exercise: _Exercise) -> dict:
    first, *rest = _verdict_lines(exercise)
    test = {"name": _safe(exercise.name, _NAME_LIMIT), "points": exercise.score,
            "message": _safe(first, _NAME_LIMIT), "output": _safe("\n".join(rest), _OUTPUT_LIMIT)}
    if exercise.max is not None:  # without it on every test the element shows no points
        test["max_points"] = exercise.max
    return test


def _prairielearn_result(exercises: list[_Exercise], grade: dict, most: float) -> dict:
    """PrairieLearn's results.json: the score a fraction in [0, 1] of the assignment's
    points (a total above them, extra credit, counts as 1)."""
    total = float(grade.get("total") or 0.0)
    fraction = min(1.0, max(0.0, total / most)) if most > 0 else 0.0
    return {"gradable": True, "score": fraction, "message": _summary(total, most),
            "output": "\n".join(_safe(_points(e), _NAME_LIMIT) for e in exercises),
            "tests": [_prairielearn_test(exercise) for exercise in exercises]}


def _write(root: Path, student: str, assignment: str, result: dict) -> None:
    path = root / student / assignment / "results.json"
    if not path.resolve().is_relative_to(root.resolve()):  # the names were checked: belt
        raise ValueError(f"{path} is outside {root}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_result_files(book, autograded: Path, folder: Path) -> list[Path]:
    """A results.json per graded submission of ``book`` (``_export.Gradebook``) for each
    platform, under ``folder``; the verdicts from ``autograded`` (``instructor/autograded``).
    The platforms' folders are written afresh: a submission gone leaves no file behind."""
    roots = [folder / platform for platform in PLATFORMS]
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
    for (student, assignment), grade in sorted(book.grades.items()):
        problem = _path_problem(student) or _path_problem(assignment)
        if problem:
            print(f"no Gradescope or PrairieLearn file for {terminal_safe(student)!r}, "
                  f"{terminal_safe(assignment)!r}: {problem}", file=sys.stderr)
            continue
        known = book.assignments[assignment]
        exercises = _exercises(known["exercises"], grade, autograded / student / assignment)
        for root, make in zip(roots, (_gradescope_result, _prairielearn_result)):
            _write(root, student, assignment, make(exercises, grade, float(known["max"] or 0)))
    return roots
