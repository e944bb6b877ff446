"""Read scores back out of nbgrader's gradebook for the instructor's summary."""

from grader._ids import terminal_safe

__all__ = ["scores", "format_table"]


def scores(db_url: str, assignment: str) -> dict[str, dict[str, float]]:
    """student → {exercise: score, "total": score, "max": max score}."""
    from nbgrader.api import Gradebook  # seconds to import: only when scores are read

    table: dict[str, dict[str, float]] = {}
    with Gradebook(db_url) as gradebook:
        for submission in gradebook.assignment_submissions(assignment):
            row: dict[str, float] = {}
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    row[grade.name] = grade.score or 0.0  # None: never graded
            row["total"], row["max"] = submission.score or 0.0, submission.max_score
            table[submission.student_id] = row
    return dict(sorted(table.items()))


def format_table(table: dict[str, dict[str, float]], exercises: list[str]) -> str:
    """A plain-text table: one row per student, one column per exercise."""
    if not table:
        return "(no submissions graded)"
    header = ["student", *exercises, "total", "%"]
    rows = [header]
    for student, row in table.items():
        percent = 100 * row["total"] / row["max"] if row["max"] else 0.0
        rows.append([terminal_safe(student), *(f"{row.get(e, 0):g}" for e in exercises),
                     f"{row['total']:g}/{row['max']:g}", f"{percent:.0f}%"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
