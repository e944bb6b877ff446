"""A test cell's verdict as data: what the hidden checks found, stored in the cell.

``JudgeHiddenChecks`` (``grader.bridge._nbgrader``) writes each autograded test cell's
verdict here, in the cell's metadata, beside the points nbgrader reads from its
output. Every reader (the feedback page, the misconception report, the check that
no test cell went unjudged) reads it back with ``verdict_of`` and renders it in its
own words; none parses a verdict's text.

Imports nothing of the grader: bridge, batch and judge all read it.
"""

__all__ = ["KEY", "verdict_of", "with_verdict"]

KEY = "tensor_anatomy"  # our cell and notebook metadata (the notebook's language is there too)
_VERDICT = "verdict"


def with_verdict(cell: dict, exercise: str, record: dict, points: float) -> dict:
    """``cell`` (a test cell) carrying ``record`` (the judge's verdict on ``exercise``:
    passed, total, checks, misconceptions) and the cell's ``points``."""
    metadata = cell.setdefault("metadata", {})
    ours = metadata.get(KEY)
    metadata[KEY] = {**(ours if isinstance(ours, dict) else {}),
                     _VERDICT: {"exercise": exercise, "points": float(points),
                                "record": record}}
    return cell


def verdict_of(cell: dict) -> dict | None:
    """The verdict ``with_verdict`` stored in ``cell``: {"exercise", "points", "record"};
    ``None`` where there is none or it is malformed."""
    metadata = cell.get("metadata")
    ours = metadata.get(KEY) if isinstance(metadata, dict) else None
    verdict = ours.get(_VERDICT) if isinstance(ours, dict) else None
    if not isinstance(verdict, dict) or not isinstance(verdict.get("exercise"), str) \
            or not isinstance(verdict.get("record"), dict) \
            or not isinstance(verdict.get("points"), int | float):
        return None
    return verdict
