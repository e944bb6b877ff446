"""Read the student's code out of a notebook, without running any of it."""

import json
from pathlib import Path

__all__ = ["code_cells", "student_cells", "is_test_cell", "exercise_cells", "load",
           "nbgrader_metadata", "source"]


def nbgrader_metadata(cell) -> dict:
    """The cell's nbgrader metadata (``grade_id``, ``solution``, ``grade``...); ``{}`` if
    none. A submitted cell's may be forged: ``grader.bridge._structure`` tells."""
    return cell.get("metadata", {}).get("nbgrader", {})


def source(cell) -> str:
    """A cell's source as one string (a notebook file keeps a list of lines, or a string)."""
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def is_test_cell(cell) -> bool:
    """An autograder test cell: graded, code, and not a solution."""
    meta = nbgrader_metadata(cell)
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def exercise_cells(nb) -> dict:
    """Test cells by grade id; the grade id is the exercise name."""
    # A forged test cell without a name is no exercise (restoring the structure
    # puts the released cell back).
    return {nbgrader_metadata(c)["grade_id"]: c for c in nb["cells"]
            if is_test_cell(c) and isinstance(nbgrader_metadata(c).get("grade_id"), str)}


def _without_magics(source: str) -> str:
    # IPython syntax (%magic, !shell) means nothing outside a kernel; keep line
    # numbers stable so tracebacks still point at the student's line.
    lines = source.splitlines()
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)


def student_cells(nb) -> list:
    """The cells whose code runs for grading: every code cell but the test cells."""
    return [c for c in nb["cells"] if c.get("cell_type") == "code" and not is_test_cell(c)]


def code_cells(nb) -> list[str]:
    """Sources of ``student_cells``, IPython syntax blanked out."""
    return [_without_magics(source(c)) for c in student_cells(nb)]


def load(path: Path) -> dict:
    """The notebook as plain JSON; a ``.py`` file counts as one code cell."""
    text = Path(path).read_text(encoding="utf-8")
    if str(path).endswith(".py"):
        return {"cells": [{"cell_type": "code", "source": text, "metadata": {}}]}
    return json.loads(text)
