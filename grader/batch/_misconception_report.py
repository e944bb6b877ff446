"""After grading: how many students showed each named misconception, as a table and a plot.

Read from the autograded notebooks, each test cell's verdict as data
(``grader._verdict``), by the rule the feedback renders it with
(``_verdict_text.misconceptions_shown``: a ``Looks like:`` line per misconception the
judge named), so the table counts exactly what the feedback says. Every named
wrong answer of the assignment has its row (``grader.hidden.wrong_answers``),
those no student showed with 0, in the wrong answers' order.
"""

import csv
import math
from pathlib import Path

from grader import _notebook
from grader._ids import spreadsheet_cell
from grader.bridge._verdict_text import misconceptions_shown
from grader.hidden.wrong_answers import named_wrong_answers

__all__ = ["misconception_table", "plot_misconceptions", "shown_by_student",
           "write_misconception_report"]

COLUMNS = ("exercise", "misconception", "students", "of", "student_ids")


def shown_by_student(autograded: Path, assignment: str) -> dict[str, dict[str, list[str]]]:
    """student → exercise → the misconceptions their autograded notebook names."""
    shown = {}
    for path in sorted(Path(autograded).glob(f"*/{assignment}/*.ipynb")):
        cells = _notebook.exercise_cells(_notebook.load(path))
        shown[path.parent.parent.name] = {name: misconceptions_shown(cell)
                                          for name, cell in cells.items()}
    return shown


def misconception_table(assignment: str, shown: dict[str, dict[str, list[str]]]) -> list[dict]:
    """A row per (exercise, misconception): the students who showed it, of how many."""
    rows = {(exercise, name): [] for exercise, answers in named_wrong_answers(assignment).items()
            for name, _ in answers}
    for student, exercises in sorted(shown.items()):
        for exercise, names in exercises.items():
            for name in names:  # a name no wrong answer has now still counts
                rows.setdefault((exercise, name), []).append(student)
    return [{"exercise": exercise, "misconception": name, "students": len(students),
             "of": len(shown), "student_ids": spreadsheet_cell(";".join(students))}
            for (exercise, name), students in rows.items()]


def _write_csv(rows: list[dict], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def _label(row: dict, width: int = 60) -> str:
    name = row["misconception"]
    return f"{row['exercise']}: {name if len(name) <= width else name[:width - 1] + '…'}"


def plot_misconceptions(rows: list[dict], path: Path, title: str) -> None:
    """A horizontal bar per misconception: how many students showed it, one colour per
    exercise, in the table's order from the top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    exercises = list(dict.fromkeys(row["exercise"] for row in rows))
    colours = plt.get_cmap("tab10")
    height = 1.2 + 0.26 * max(len(rows), 1)
    fig, ax = plt.subplots(figsize=(11, height))
    fig.subplots_adjust(left=0.5, right=0.97, top=1 - 0.7 / height, bottom=0.5 / height)
    ax.barh(range(len(rows)), [row["students"] for row in rows],
            color=[colours(exercises.index(row["exercise"]) % 10) for row in rows])
    ax.set_yticks(range(len(rows)), [_label(row) for row in rows], fontsize=7)
    ax.invert_yaxis()
    students = rows[0]["of"] if rows else 0
    ax.set_xlim(0, max(1, math.ceil(max((row["students"] for row in rows), default=0) * 1.1)))
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("students whose feedback names it", fontsize=8)
    ax.set_title(f"{title}: misconceptions of {students} student{'s' * (students != 1)}",
                 fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_misconception_report(instructor: Path, assignment: str) -> tuple[Path, Path]:
    """``reports/<assignment>_misconceptions.csv`` and ``.png`` in the instructor folder,
    from its autograded notebooks."""
    rows = misconception_table(assignment, shown_by_student(instructor / "autograded",
                                                            assignment))
    folder = Path(instructor) / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    table, plot = (folder / f"{assignment}_misconceptions{suffix}" for suffix in (".csv", ".png"))
    _write_csv(rows, table)
    plot_misconceptions(rows, plot, assignment)
    return table, plot
