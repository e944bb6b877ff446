"""The verdict in words: what a student reads in a graded test cell.

One header line per exercise with its points, then the hidden checks (a failed
one with why and on which input), then the misconceptions the failures look
like. The feedback page and the instructor's reports read these lines back.
"""

__all__ = ["LOOKS_LIKE", "VERDICT_HEADER", "misconceptions_shown", "report_lines", "score"]


def score(record: dict, points: float) -> float:
    """Points earned: the fraction of checks passed, rounded to 2 decimals."""
    if not record["total"]:
        return 0.0
    return round(points * record["passed"] / record["total"], 2)


VERDICT_HEADER = "Hidden checks for"
# A line per named wrong answer the failures look like (``grader.judge._misconceptions``);
# the instructor's table counts them (``grader.batch._misconception_report``).
LOOKS_LIKE = "  Looks like: "


def report_lines(name: str, record: dict, points: float) -> list[str]:
    """What the student reads in the test cell: one line per hidden check."""
    head = (f"{VERDICT_HEADER} {name}: {record['passed']} of {record['total']} passed"
            f" → {score(record, points):g} / {points:g} points")
    lines = [head]
    for check in record["checks"]:
        lines.append(f"  {'✓' if check['passed'] else '✗'} {check['description']}")
        lines += [f"      {line}" for line in check["detail"].splitlines() if not check["passed"]]
    return lines + [f"{LOOKS_LIKE}{mistake}" for mistake in record.get("misconceptions", [])]


def misconceptions_shown(cell) -> list[str]:
    """The misconceptions a graded test cell names (its ``report_lines``)."""
    text = "".join("".join(output.get("text", "")) for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")
    return [line.removeprefix(LOOKS_LIKE) for line in text.splitlines()
            if line.startswith(LOOKS_LIKE)]
