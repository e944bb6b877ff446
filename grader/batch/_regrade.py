"""After a regrade: who moved, by how much, and which hidden checks made them move.

``grade`` reads each student's verdicts (``grader._verdict``: the judge's record in
each autograded test cell) before nbgrader overwrites the autograded notebooks, and
compares them with the new ones once the assignment is graded: a row per student
and exercise whose autograded score or hidden checks changed, in
``reports/<assignment>_regrade.csv``, and a line per group of students who moved
alike (the exercise, the points, the checks that flipped, by their descriptions) in
``reports/<assignment>_regrade.md``. The grader's points are compared, never the
gradebook's: a score an instructor changed by hand is not the grader's move, and the
gradebook keeps it (the ``kept_by_hand`` column says which). A first grading (no
earlier verdict) writes no report.
"""

import collections
import csv
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

from grader import _notebook
from grader._course import Course
from grader._ids import spreadsheet_cell, terminal_safe
from grader._verdict import verdict_of
from grader.bridge._verdict_text import score

__all__ = ["COLUMNS", "Graded", "Move", "moves", "previous_verdicts", "report_regrade", "summary",
           "verdicts", "write_regrade_report"]

COLUMNS = ("student", "exercise", "before", "after", "change", "points_before", "points_after",
           "tests_now_passing", "tests_now_failing", "tests_dropped", "handed_in_again",
           "kept_by_hand")


@dataclass(frozen=True)
class Graded:
    """A student's autograded notebook, as a regrade compares it."""

    answers: str  # a digest of the answer cells: another means they handed in again
    exercises: dict[str, dict]  # exercise → the verdict in its test cell (``verdict_of``)


Verdicts = dict[str, Graded]  # by student


@dataclass(frozen=True)
class Move:
    """One student's change on one exercise, from two verdicts of the grader."""

    student: str
    exercise: str
    before: float  # autograded points
    after: float
    points_before: float  # what the exercise was worth
    points_after: float
    now_passing: tuple[str, ...]  # hidden checks (their test names)
    now_failing: tuple[str, ...]
    dropped: tuple[str, ...]  # checks the grader no longer runs
    descriptions: tuple[tuple[str, str], ...]  # (check, its description) of those
    handed_in_again: bool  # the student's answers changed too, not only the grader

    @property
    def change(self) -> float:
        return round(self.after - self.before, 2)


def _answers(nb: dict) -> str:
    sources = [_notebook.source(cell) for cell in nb["cells"]
               if _notebook.nbgrader_metadata(cell).get("solution")]
    return hashlib.sha256(repr(sources).encode("utf-8")).hexdigest()


def verdicts(autograded: Path, assignment: str) -> Verdicts:
    """student → their graded notebook, from the autograded notebooks of ``assignment``."""
    found = {}
    for path in sorted(Path(autograded).glob(f"*/{assignment}/*.ipynb")):
        nb = _notebook.load(path)
        cells = _notebook.exercise_cells(nb)
        found[path.parent.parent.name] = Graded(_answers(nb), {
            name: verdict for name, cell in cells.items() if (verdict := verdict_of(cell))})
    return found


def previous_verdicts(instructor: Path, assignments: list[str]) -> dict[str, Verdicts]:
    """Each assignment's verdicts as the last grading left them: read before nbgrader
    overwrites them (30 notebooks of chapter 1: 30 ms)."""
    return {a: verdicts(Path(instructor) / "autograded", a) for a in assignments}


def _outcomes(record: dict) -> dict[str, bool]:
    return {check["check"]: bool(check["passed"]) for check in record["checks"]}


def _move(student: str, exercise: str, old: dict, new: dict,
          handed_in_again: bool) -> Move | None:
    before, after = _outcomes(old["record"]), _outcomes(new["record"])
    now_passing = tuple(c for c, passed in after.items() if passed and not before.get(c))
    now_failing = tuple(c for c, passed in after.items() if not passed and before.get(c, True))
    dropped = tuple(c for c in before if c not in after)
    scores = (score(old["record"], old["points"]), score(new["record"], new["points"]))
    if scores[0] == scores[1] and not (now_passing or now_failing or dropped):
        return None
    flipped = set(now_passing + now_failing + dropped)
    return Move(student, exercise, *scores, float(old["points"]), float(new["points"]),
                now_passing, now_failing, dropped,
                tuple(dict.fromkeys((c["check"], c["description"])
                                    for c in old["record"]["checks"] + new["record"]["checks"]
                                    if c["check"] in flipped)), handed_in_again)


def moves(before: Verdicts, after: Verdicts) -> list[Move]:
    """Each (student, exercise) graded both times whose score or hidden checks changed."""
    found = []
    for student, graded in sorted(after.items()):
        earlier = before.get(student, Graded("", {}))
        for exercise, new in graded.exercises.items():
            old = earlier.exercises.get(exercise)
            again = earlier.answers != graded.answers
            if old is not None and (move := _move(student, exercise, old, new, again)):
                found.append(move)
    return found


def _row(move: Move, by_hand: dict[tuple[str, str], float]) -> dict:
    kept = by_hand.get((move.student, move.exercise))
    return {"student": spreadsheet_cell(move.student), "exercise": move.exercise,
            "before": f"{move.before:g}", "after": f"{move.after:g}",
            "change": f"{move.change:+g}", "points_before": f"{move.points_before:g}",
            "points_after": f"{move.points_after:g}",
            "tests_now_passing": spreadsheet_cell(";".join(move.now_passing)),
            "tests_now_failing": spreadsheet_cell(";".join(move.now_failing)),
            "tests_dropped": spreadsheet_cell(";".join(move.dropped)),
            "handed_in_again": "yes" if move.handed_in_again else "",
            "kept_by_hand": "" if kept is None else f"{kept:g}"}


def _why(move: Move) -> list[str]:
    """Why a group moved: the points, then each flipped check's description once."""
    described = dict(move.descriptions)
    reasons = ["they handed in again"] if move.handed_in_again else []
    if move.points_before != move.points_after:
        reasons.append(f"it is worth {move.points_after:g} points, not {move.points_before:g}")
    for verb, checks in (("now passes", move.now_passing), ("now fails", move.now_failing),
                         ("is no longer run", move.dropped)):
        by_description = collections.defaultdict(list)
        for check in checks:
            by_description[described[check]].append(check.split("[")[0])
        reasons += [f"{', '.join(dict.fromkeys(names))} {verb} ({description})"
                    for description, names in by_description.items()]
    return reasons


def _group(move: Move) -> tuple:
    described = dict(move.descriptions)
    return (move.exercise, move.change, move.handed_in_again, move.points_before,
            move.points_after,
            tuple(sorted({described[c] for c in move.now_passing})),
            tuple(sorted({described[c] for c in move.now_failing})),
            tuple(sorted({described[c] for c in move.dropped})))


def summary(assignment: str, found: list[Move], graded: int,
            by_hand: dict[tuple[str, str], float]) -> list[str]:
    """A line per group of students who moved alike on one exercise, biggest group first."""
    groups = collections.defaultdict(list)
    for move in found:
        groups[_group(move)].append(move)
    moved = len({move.student for move in found})
    lines = [f"Regrade of {assignment}: {moved} of {graded} student{'s' * (graded != 1)} moved"]
    for (exercise, change, *_), group in sorted(groups.items(),
                                                key=lambda item: (-len(item[1]), item[0])):
        count, verb = len(group), "gain" if change > 0 else "lose" if change < 0 else "keep"
        amount = f"{abs(change):g} point{'s' * (abs(change) != 1)}" if change else "the points"
        line = (f"- {count} student{'s' * (count != 1)} {verb}{'s' * (count == 1)} {amount} "
                f"on {exercise}: "
                + "; ".join(_why(group[0])))
        kept = sum((m.student, m.exercise) in by_hand for m in group)
        lines.append(line + (f" ({kept} keep{'s' * (kept == 1)} the score you set by hand: "
                               "the gradebook keeps it)" if kept else ""))
    return lines


def _hand_changed(db_url: str, assignment: str) -> dict[tuple[str, str], float]:
    """(student, exercise) → the score an instructor set by hand, which the gradebook keeps."""
    from nbgrader.api import Gradebook  # seconds to import: only when a regrade is reported

    with Gradebook(db_url) as gradebook:
        return {(submission.student_id, grade.name): grade.manual_score
                for submission in gradebook.assignment_submissions(assignment)
                for notebook in submission.notebooks for grade in notebook.grades
                if grade.manual_score is not None}


def write_regrade_report(instructor: Path, db_url: str, assignment: str,
                         before: Verdicts) -> tuple[Path, Path] | None:
    """``reports/<assignment>_regrade.csv`` and ``.md``, comparing ``before`` with the
    autograded notebooks now; ``None`` (nothing written) on a first grading."""
    if not before:
        return None
    after = verdicts(Path(instructor) / "autograded", assignment)
    found = moves(before, after)
    by_hand = _hand_changed(db_url, assignment) if found else {}
    folder = Path(instructor) / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    table, text = (folder / f"{assignment}_regrade{suffix}" for suffix in (".csv", ".md"))
    with open(table, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(_row(move, by_hand) for move in found)
    graded = len(set(before) & set(after))
    text.write_text("\n".join(summary(assignment, found, graded, by_hand)) + "\n",
                    encoding="utf-8")
    return table, text


def report_regrade(course: Course, assignment: str, before: Verdicts) -> None:
    """Write and print the regrade report of ``assignment``: a hint beside the grades, so
    a failure only says so."""
    try:
        written = write_regrade_report(course.instructor, course.db_url, assignment, before)
    except Exception as exc:  # noqa: BLE001 - the grades stand without it
        print(f"no regrade report for {assignment}: {exc!r}", file=sys.stderr)
        return
    if written:
        table, text = written
        lines = text.read_text(encoding="utf-8").splitlines()
        print("\n" + "\n".join(map(terminal_safe, lines)) + f"\nregrade: {table}   {text}")
