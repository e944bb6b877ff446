"""The verdict in words: what a student reads in a graded test cell.

One header line per exercise with its points, then the hidden checks (a failed
one with why and on which input), then the misconceptions the failures look
like. The feedback page and the instructor's reports read these lines back.

Written in English (the autograded notebook is the instructor's, and the reports
read it), or in the student's language (``python -m grader validate``); a feedback
page in another language rewrites the English lines with ``in_language``, which
reads each line back by the template that wrote it (``grader._language.reworded``).
A hidden check's description and a misconception's name are the judge's English; in
another language each is written by its entry of the grading catalogue (msgctxt
"hidden-check", "misconception": ``grader.translation._grading`` collects them from the
hidden checks' docstrings and the named wrong answers), or as it is where there is
none. Why a check failed and on which input (a detail line) stay the judge's words.
"""

from grader._language import ENGLISH, localized, marked, reworded, values

__all__ = ["CHANGED", "LOOKS_LIKE", "NOT_ATTEMPTED", "VERDICT_HEADER", "in_language",
           "misconceptions_shown", "report_lines", "score"]


def score(record: dict, points: float) -> float:
    """Points earned: the fraction of checks passed, rounded to 2 decimals."""
    if not record["total"]:
        return 0.0
    return round(points * record["passed"] / record["total"], 2)


VERDICT_HEADER = "Hidden checks for"  # how the English verdict starts (``missing_verdicts``)
_HEADER = marked("Hidden checks for {name}: {passed} of {total} passed → {score} / {points} "
                 "points", "verdict")
# Added to the header where an instructor changed the score (``_gradebook_score``).
CHANGED = marked(" (your instructor changed it from {auto})", "verdict")
_INDENT, _DETAIL_INDENT = "  ", "      "
# A line per named wrong answer the failures look like (``grader.judge._misconceptions``);
# the instructor's table counts them (``grader.batch._misconception_report``).
_LOOKS_LIKE = marked("Looks like: {mistake}", "verdict")
LOOKS_LIKE = _INDENT + _LOOKS_LIKE.removesuffix("{mistake}")
_NOT_ATTEMPTED = marked("not attempted yet: the answer cell is still the stub "
                        "(NotImplementedError)", "verdict")
NOT_ATTEMPTED = _INDENT + _NOT_ATTEMPTED
# A group of checks (one description); the forms with counts first: read back, the
# plain form would take the count for part of the description.
_GROUPS = (marked("✓ {description} ({count} examples)", "verdict"),
           marked("✓ {description}", "verdict"),
           marked("✗ {description}: {failed} of {count} wrong", "verdict"),
           marked("✗ {description}", "verdict"))
_MORE = marked("… and {more} more", "verdict")
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


def _reworded(text: str, templates: tuple[str, ...], language: str) -> str | None:
    """``text``, written by one of ``templates`` (English), written by ``_said`` in
    ``language`` with the same values; ``None`` if none wrote it."""
    for template in templates:
        found = values(text, template)
        if found is not None:
            return _said(template, language, **found)
    return None


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


def report_lines(name: str, record: dict, points: float,
                 language: str = ENGLISH) -> list[str]:
    """What the student reads in the test cell: a line per group of hidden checks (the
    checks of one description, e.g. one per entry of a finite exercise), why the first
    failed ones failed, then the misconceptions the failures look like."""
    head = _said(_HEADER, language, name=name, passed=str(record["passed"]),
                 total=str(record["total"]), score=f"{score(record, points):g}",
                 points=f"{points:g}")
    if _not_attempted(record):
        return [head, _INDENT + localized(_NOT_ATTEMPTED, "verdict", language)]
    lines = [head]
    for description, checks in _groups(record["checks"]):
        lines += _group_lines(description, checks, language)
    return lines + [_INDENT + _said(_LOOKS_LIKE, language, mistake=mistake)
                    for mistake in record.get("misconceptions", [])]


def misconceptions_shown(cell) -> list[str]:
    """The misconceptions a graded test cell names (its ``report_lines``, in English)."""
    text = "".join("".join(output.get("text", "")) for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")
    return [line.removeprefix(LOOKS_LIKE) for line in text.splitlines()
            if line.startswith(LOOKS_LIKE)]


# --- an English verdict, in another language -------------------------------------------

def _header_in(line: str, language: str) -> str | None:
    found = values(line, _HEADER + CHANGED)
    if found is None:
        return reworded(line, (_HEADER,), "verdict", language)
    auto = found.pop("auto")
    return _said(_HEADER, language, **found) + _said(CHANGED, language, auto=auto)


def _line_in(line: str, language: str) -> str:
    """One line of ``report_lines`` (English, as ``_gradebook_score`` left it) in
    ``language``; a hidden check's own words (a detail line) as they are."""
    if line.startswith(_DETAIL_INDENT):
        more = reworded(line[len(_DETAIL_INDENT):], (_MORE,), "verdict", language)
        return line if more is None else _DETAIL_INDENT + more
    if line.startswith(_INDENT):
        body = line[len(_INDENT):]
        if body == _NOT_ATTEMPTED:
            return _INDENT + localized(_NOT_ATTEMPTED, "verdict", language)
        found = _reworded(body, (*_GROUPS, _LOOKS_LIKE), language)
        return line if found is None else _INDENT + found
    found = _header_in(line, language)
    return line if found is None else found


def in_language(text: str, language: str) -> str:
    """A test cell's English verdict (``report_lines``, joined) in ``language``: the same
    lines, each written by its template's translation with the same values."""
    if language == ENGLISH:
        return text
    return "".join(_line_in(line.removesuffix("\n"), language) + line[len(line.rstrip("\n")):]
                   for line in text.splitlines(keepends=True))
