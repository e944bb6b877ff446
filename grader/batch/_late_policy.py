"""A late policy an instructor states once, applied to the gradebook's clocks.

The instructor writes ``late_policy.toml`` in the instructor folder (beside the
gradebook, out of students' reach)::

    grace_minutes = 15          # handed in this long after the due date: on time
    penalty_per_day = 0.1       # a fraction of the score per started day late
    max_penalty = 0.5           # the penalty never exceeds this fraction
    zero_after_days = 7         # more days late than this: 0, late days not spent
    late_days = 3               # each student's budget, shared by all assignments

    [assignments.01_storage_strides]
    grace_minutes = 60          # this assignment's own grace

The due date stays nbgrader's (``nbgrader db assignment add --duedate``, with a
student's extension); the submission time is collect's, the newest change time
of what was handed in, which a student cannot forge. A file rather than
nbgrader_config traits: the export runs outside any nbgrader application, and
per-assignment terms read more plainly as TOML tables than as a dict trait.

``apply_late_policy`` is pure: due dates, hand-ins and the policy in, per student
and assignment the days late, the late days spent and left, the penalty and the
penalised score (the raw one kept) out. Late days are spent greedily, in the
assignments' due-date order; a penalty applies only to days the budget did not
cover.
"""

import datetime
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["HandIn", "LateOutcome", "LatePolicy", "apply_late_policy", "in_due_order",
           "read_late_policy"]

DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class LatePolicy:
    """The terms; the default charges nothing (a late flag only, as before)."""

    grace: datetime.timedelta = datetime.timedelta(0)
    penalty_per_day: float = 0.0
    max_penalty: float = 1.0
    zero_after_days: int | None = None
    late_days: int = 0
    grace_by_assignment: dict[str, datetime.timedelta] = field(default_factory=dict)

    def grace_for(self, assignment: str) -> datetime.timedelta:
        return self.grace_by_assignment.get(assignment, self.grace)


@dataclass(frozen=True)
class HandIn:
    """One submission as the gradebook has it: the due date is the student's own
    (their extension included), None where the assignment has none."""

    submitted: datetime.datetime | None
    due: datetime.datetime | None
    raw: float


@dataclass(frozen=True)
class LateOutcome:
    days_late: int
    late_days_spent: int
    late_days_left: int
    penalty: float  # the fraction taken off, 0 to 1
    raw: float
    penalised: float


def days_late(hand_in: HandIn, grace: datetime.timedelta) -> int:
    """Started days past the due date and its grace: one second late is one day."""
    if hand_in.submitted is None or hand_in.due is None:
        return 0
    late = hand_in.submitted - (hand_in.due + grace)
    return max(0, math.ceil(late / DAY))


def _penalty(policy: LatePolicy, late: int, charged: int) -> float:
    if policy.zero_after_days is not None and late > policy.zero_after_days:
        return 1.0
    return min(policy.max_penalty, policy.penalty_per_day * charged)


def in_due_order(due: dict[str, datetime.datetime | None]) -> list[str]:
    """Assignments by due date (none last), then by name: the order late days go."""
    return sorted(due, key=lambda name: (due[name] is None, due[name] or datetime.datetime.min,
                                         name))


def apply_late_policy(due: dict[str, datetime.datetime | None],
                      handed_in: dict[tuple[str, str], HandIn],
                      policy: LatePolicy) -> dict[tuple[str, str], LateOutcome]:
    """Per (student, assignment) handed in, what the policy makes of it."""
    outcomes = {}
    for student in sorted({student for student, _ in handed_in}):
        left = policy.late_days
        for assignment in in_due_order(due):
            hand_in = handed_in.get((student, assignment))
            if hand_in is None:
                continue
            late = days_late(hand_in, policy.grace_for(assignment))
            refused = policy.zero_after_days is not None and late > policy.zero_after_days
            spent = 0 if refused else min(late, left)  # no day spent on work scored 0
            left -= spent
            penalty = _penalty(policy, late, late - spent)
            outcomes[student, assignment] = LateOutcome(
                late, spent, left, penalty, hand_in.raw, max(0.0, hand_in.raw * (1 - penalty)))
    return outcomes


def _minutes(table: dict, where: str) -> datetime.timedelta:
    minutes = table.get("grace_minutes", 0)
    if not isinstance(minutes, int | float) or minutes < 0:
        raise ValueError(f"late_policy.toml: {where}grace_minutes must be a number >= 0")
    return datetime.timedelta(minutes=minutes)


def _fraction(table: dict, key: str, default: float) -> float:
    value = table.get(key, default)
    if not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"late_policy.toml: {key} must be a fraction from 0 to 1")
    return float(value)


def _count(table: dict, key: str, default: int | None) -> int | None:
    value = table.get(key, default)
    if value is not None and (not isinstance(value, int) or value < 0):
        raise ValueError(f"late_policy.toml: {key} must be a whole number >= 0")
    return value


def read_late_policy(path: Path) -> LatePolicy:
    """The policy in ``path``; the default (no penalty) where there is no such file."""
    if not path.is_file():
        return LatePolicy()
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    known = {"grace_minutes", "penalty_per_day", "max_penalty", "zero_after_days",
             "late_days", "assignments"}
    if unknown := sorted(set(table) - known):
        raise ValueError(f"late_policy.toml: unknown setting {unknown[0]!r}, a typo?")
    per_assignment = table.get("assignments", {})
    return LatePolicy(
        grace=_minutes(table, ""),
        penalty_per_day=_fraction(table, "penalty_per_day", 0.0),
        max_penalty=_fraction(table, "max_penalty", 1.0),
        zero_after_days=_count(table, "zero_after_days", None),
        late_days=_count(table, "late_days", 0),
        grace_by_assignment={name: _minutes(terms, f"[assignments.{name}] ")
                             for name, terms in per_assignment.items()})
