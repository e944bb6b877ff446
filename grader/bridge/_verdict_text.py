"""The verdict in words: what a student reads in a graded test cell.

One header line per exercise with its points, then the hidden checks (a failed
one with why and on which input), then the misconceptions the failures look
like. Rendered from the verdict as data (``grader._verdict``: the judge's record
in the test cell's metadata) wherever it is read, in the reader's language: the
autograded notebook (English, for the instructor in the formgrader), the feedback
page (``_feedback_verdict``, the student's language and the gradebook's score),
``python -m grader validate``. Nothing reads these lines back.

A hidden check's description and a misconception's name are the judge's English; in
another language each is written by its entry of the grading catalogue (msgctxt
"hidden-check", "misconception": ``grader.translation._grading`` collects them from the
hidden checks' docstrings and the named wrong answers), or as it is where there is
none. Why a check failed and on which input (a detail line) stay the judge's words.
"""

from nbformat import v4

from grader._language import ENGLISH, localized, marked
from grader._verdict import verdict_of

__all__ = ["LOOKS_LIKE", "NOT_ATTEMPTED", "misconceptions_shown", "report_lines", "score",
           "shown_failures", "verdict_outputs"]


def score(record: dict, points: float) -> float:
    """Points earned: the fraction of checks passed, rounded to 2 decimals."""
    if not record["total"]:
        return 0.0
    return round(points * record["passed"] / record["total"], 2)


_HEADER = marked("Hidden checks for {name}: {passed} of {total} passed → {score} / {points} "
                 "points", "verdict")
# Added to the header where an instructor changed the score in the gradebook.
_CHANGED = marked(" (your instructor changed it from {auto})", "verdict")
_INDENT, _DETAIL_INDENT = "  ", "      "
# A line per named wrong answer the failures look like (``grader.judge._misconceptions``);
# the instructor's table counts the same names (``misconceptions_shown``).
_LOOKS_LIKE = marked("Looks like: {mistake}", "verdict")
LOOKS_LIKE = _INDENT + _LOOKS_LIKE.removesuffix("{mistake}")
_NOT_ATTEMPTED = marked("not attempted yet: the answer cell is still the stub "
                        "(NotImplementedError)", "verdict")
NOT_ATTEMPTED = _INDENT + _NOT_ATTEMPTED
# A group of checks (one description): passed with a count, passed, failed with counts,
# failed alone.
_GROUPS = (marked("✓ {description} ({count} examples)", "verdict"),
           marked("✓ {description}", "verdict"),
           marked("✗ {description}: {failed} of {count} wrong", "verdict"),
           marked("✗ {description}", "verdict"))
_MORE = marked("… and {more} more", "verdict")
# A finite table made for another student's variant (``grader.bridge._variants``): the
# judge's record says so (``another_variant``), whatever the notebook claims.
_ANOTHER_VARIANT = marked("These answers are for another variant than yours: answer the "
                          "items your notebook lists.", "verdict")
_SHOWN_FAILURES = 3  # per group of checks: the first few say enough


def _not_attempted(record: dict) -> bool:
    # Every check failed on the stub's NotImplementedError (raised where torch returns,
    # or where torch raises something else).
    return record["passed"] == 0 and bool(record["checks"]) and all(
        "NotImplementedError" in check["detail"] for check in record["checks"])


def _groups(checks: list[dict]) -> list[tuple[str, list[dict]]]:
    """Checks with the same description (one per example of a finite exercise), together,
    in the order they first appear."""
    groups: dict[str, list[dict]] = {}
    for check in checks:
        groups.setdefault(check["description"], []).append(check)
    return list(groups.items())


# The grading catalogue's contexts of the judge's own words (``grader.translation._grading``).
HIDDEN_CHECK, MISCONCEPTION = "hidden-check", "misconception"
_JUDGES_WORDS = {"description": HIDDEN_CHECK, "mistake": MISCONCEPTION}


def _said(template: str, language: str, **values) -> str:
    """``template`` in ``language`` with ``values``; a description or a mistake's name (the
    judge's English) through its own catalogue entry."""
    values = {field: localized(value, _JUDGES_WORDS[field], language)
              if field in _JUDGES_WORDS else value for field, value in values.items()}
    return localized(template, "verdict", language).format(**values)


def _group_lines(description: str, checks: list[dict], language: str) -> list[str]:
    failed = [check for check in checks if not check["passed"]]
    passed_with_count, passed, failed_with_count, failed_alone = _GROUPS
    count = str(len(checks))
    if not failed:
        template = passed_with_count if len(checks) > 1 else passed
        return [_INDENT + _said(template, language, description=description, count=count)]
    template = failed_with_count if len(checks) > 1 else failed_alone
    lines = [_INDENT + _said(template, language, description=description,
                             failed=str(len(failed)), count=count)]
    for check in failed[:_SHOWN_FAILURES]:
        lines += [_DETAIL_INDENT + line for line in check["detail"].splitlines()]
    if len(failed) > _SHOWN_FAILURES:
        lines.append(_DETAIL_INDENT + _said(_MORE, language,
                                            more=str(len(failed) - _SHOWN_FAILURES)))
    return lines


def _header(name: str, record: dict, points: float, language: str,
            given: float | None) -> str:
    """The header line: the autograded score, or ``given`` (the gradebook's) and, where an
    instructor changed it, from what."""
    auto = score(record, points)
    shown = auto if given is None else given
    head = _said(_HEADER, language, name=name, passed=str(record["passed"]),
                 total=str(record["total"]), score=f"{shown:g}", points=f"{points:g}")
    changed = abs(auto - shown) >= 0.005  # a score is rounded to 2 decimals (``score``)
    return head + _said(_CHANGED, language, auto=f"{auto:g}") if changed else head


def _named(record: dict) -> list[str]:
    """The misconceptions the verdict names: none for a stub (nothing was attempted)."""
    return [] if _not_attempted(record) else list(record.get("misconceptions", []))


def report_lines(name: str, record: dict, points: float, language: str = ENGLISH,
                 given: float | None = None) -> list[str]:
    """What the student reads in the test cell: a line per group of hidden checks (the
    checks of one description, e.g. one per entry of a finite exercise), why the first
    failed ones failed, then the misconceptions the failures look like. ``given``: the
    gradebook's score, where it is known (a feedback page)."""
    head = _header(name, record, points, language, given)
    if _not_attempted(record):
        return [head, _INDENT + localized(_NOT_ATTEMPTED, "verdict", language)]
    lines = [head]
    if record.get("another_variant"):
        lines.append(_INDENT + localized(_ANOTHER_VARIANT, "verdict", language))
    for description, checks in _groups(record["checks"]):
        lines += _group_lines(description, checks, language)
    return lines + [_INDENT + _said(_LOOKS_LIKE, language, mistake=mistake)
                    for mistake in _named(record)]


def shown_failures(record: dict) -> list[dict]:
    """The failed checks whose detail ``report_lines`` shows, in its order."""
    if _not_attempted(record):
        return []
    return [check for _, checks in _groups(record["checks"])
            for check in [c for c in checks if not c["passed"]][:_SHOWN_FAILURES]]


def misconceptions_shown(cell) -> list[str]:
    """The misconceptions a graded test cell's verdict names (its ``Looks like:`` lines),
    read from the verdict's data (``grader._verdict``); none where the cell has none."""
    verdict = verdict_of(cell)
    return _named(verdict["record"]) if verdict else []


def verdict_outputs(verdict: dict, language: str, given: float | None = None) -> list:
    """A test cell's outputs for ``verdict`` (``verdict_of``): the report in ``language``,
    then the score, ``given`` (the gradebook's) where known, as the cell's result."""
    record, points = verdict["record"], float(verdict["points"])
    lines = report_lines(verdict["exercise"], record, points, language, given)
    shown = score(record, points) if given is None else given
    return [v4.new_output("stream", name="stdout", text="\n".join(lines) + "\n"),
            v4.new_output("execute_result", data={"text/plain": f"{shown:g}"})]
