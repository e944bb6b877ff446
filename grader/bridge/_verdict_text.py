"""The verdict in words: what a student reads in a graded test cell.

One header line per exercise with its points, then the hidden checks (a failed
one with why and on which input), then the misconceptions the failures look
like. The feedback page and the instructor's reports read these lines back.
"""

__all__ = ["LOOKS_LIKE", "NOT_ATTEMPTED", "VERDICT_HEADER", "misconceptions_shown", "report_lines",
           "score"]


def score(record: dict, points: float) -> float:
    """Points earned: the fraction of checks passed, rounded to 2 decimals."""
    if not record["total"]:
        return 0.0
    return round(points * record["passed"] / record["total"], 2)


VERDICT_HEADER = "Hidden checks for"
# A line per named wrong answer the failures look like (``grader.judge._misconceptions``);
# the instructor's table counts them (``grader.batch._misconception_report``).
LOOKS_LIKE = "  Looks like: "


NOT_ATTEMPTED = "  not attempted yet: the answer cell is still the stub (NotImplementedError)"
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


def _group_lines(description: str, checks: list[dict]) -> list[str]:
    failed = [check for check in checks if not check["passed"]]
    count = f" ({len(checks)} examples)" if len(checks) > 1 else ""
    if not failed:
        return [f"  ✓ {description}{count}"]
    how_many = f": {len(failed)} of {len(checks)} wrong" if len(checks) > 1 else ""
    lines = [f"  ✗ {description}{how_many}"]
    for check in failed[:_SHOWN_FAILURES]:
        lines += [f"      {line}" for line in check["detail"].splitlines()]
    if len(failed) > _SHOWN_FAILURES:
        lines.append(f"      … and {len(failed) - _SHOWN_FAILURES} more")
    return lines


def report_lines(name: str, record: dict, points: float) -> list[str]:
    """What the student reads in the test cell: a line per group of hidden checks (the
    checks of one description, e.g. one per entry of a finite exercise), why the first
    failed ones failed, then the misconceptions the failures look like."""
    head = (f"{VERDICT_HEADER} {name}: {record['passed']} of {record['total']} passed"
            f" → {score(record, points):g} / {points:g} points")
    if _not_attempted(record):
        return [head, NOT_ATTEMPTED]
    lines = [head]
    for description, checks in _groups(record["checks"]):
        lines += _group_lines(description, checks)
    return lines + [f"{LOOKS_LIKE}{mistake}" for mistake in record.get("misconceptions", [])]


def misconceptions_shown(cell) -> list[str]:
    """The misconceptions a graded test cell names (its ``report_lines``)."""
    text = "".join("".join(output.get("text", "")) for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")
    return [line.removeprefix(LOOKS_LIKE) for line in text.splitlines()
            if line.startswith(LOOKS_LIKE)]
