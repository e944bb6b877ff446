"""Before grading: find submissions that cannot be graded, and say why.

A broken submission (empty, not UTF-8, not JSON, nested too deeply, nbformat
3, cells or metadata of the wrong kinds, renamed, from another assignment)
must cost that student points with a clear message, never stop
the batch. ``triage`` names the problem of each such student; the grade
command prints it in the summary and writes it as that student's feedback.
"""

import html
import json
from pathlib import Path

from grader import _notebook

__all__ = ["triage", "write_problem_feedback"]


_CELL_TYPES = ("code", "markdown", "raw")
MAX_CODE_CHARACTERS = 2_000_000  # in all code cells: what the judge will parse


def _decoded(data: bytes) -> tuple[str | None, str | None]:
    """(text, None), or (None, why the bytes are no text)."""
    try:
        return data.decode("utf-8-sig"), None  # a byte-order mark is harmless
    except UnicodeDecodeError as exc:
        return None, f"the notebook is not valid UTF-8 text (byte {exc.start})"


def _parsed(text: str):
    """(the JSON value, None), or (None, why it is not JSON)."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"the notebook is not valid JSON (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return None, "the notebook's JSON is nested too deeply"


def _cell_problem(number: int, cell) -> str | None:
    if not isinstance(cell, dict):
        return f"cell {number + 1} is a {type(cell).__name__}, not a cell"
    if cell.get("cell_type") not in _CELL_TYPES:
        return f"cell {number + 1} has no known cell_type"
    source = cell.get("source", "")
    if not (isinstance(source, str) or isinstance(source, list)
            and all(isinstance(line, str) for line in source)):
        return f"cell {number + 1}'s source is not text"
    metadata = cell.get("metadata", {})
    if not isinstance(metadata, dict) or not isinstance(metadata.get("nbgrader", {}), dict):
        return f"cell {number + 1}'s metadata is not a mapping"
    return None


def _structure_problem(nb) -> str | None:
    if isinstance(nb, dict) and nb.get("nbformat") in (1, 2, 3):
        return (f"the notebook is in format {nb['nbformat']}; open it in a current Jupyter "
                "and save it again (nbformat 4)")
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return "the file is JSON but not a notebook (no list of cells)"
    if nb.get("nbformat") != 4:
        return (f"the notebook is in format {nb.get('nbformat')!r:.20}; save it with a current "
                "Jupyter (nbformat 4)")
    if not isinstance(nb.get("metadata", {}), dict):
        return "the notebook's metadata is not a mapping"
    return next(filter(None, map(_cell_problem, range(len(nb["cells"])), nb["cells"])), None)


def _notebook_problem(path: Path, exercises: set[str]) -> str | None:
    text, problem = _decoded(path.read_bytes())
    if problem:
        return problem
    if not text.strip():
        return "the notebook file is empty"
    nb, problem = _parsed(text)
    problem = problem or _structure_problem(nb)
    if problem:
        return problem
    if sum(map(len, _notebook.code_cells(nb))) > MAX_CODE_CHARACTERS:
        return f"the notebook holds over {MAX_CODE_CHARACTERS:,} characters of code"
    found = set(_notebook.exercise_cells(nb))
    if found and not found & exercises:
        return f"this notebook belongs to another assignment (its exercises: {sorted(found)})"
    return None


def _submission_problem(folder: Path, expected: str, exercises: set[str]) -> str | None:
    notebook = folder / expected
    if not notebook.exists():
        others = sorted(p.name for p in folder.glob("*.ipynb"))
        if others:
            return f"expected a notebook named {expected}, found {', '.join(others)}"
        return f"no notebook submitted (expected {expected})"
    return _notebook_problem(notebook, exercises)


def triage(submitted: Path, assignment: str, release_notebook: Path,
           skip=()) -> dict[str, str]:
    """student → why their submission of ``assignment`` cannot be graded; the students in
    ``skip`` (refused already, for their ids) are not read."""
    exercises = set(_notebook.exercise_cells(_notebook.load(release_notebook)))
    problems = {}
    for folder in sorted(submitted.glob(f"*/{assignment}")):
        if folder.parent.name in skip:
            continue
        try:
            problem = _submission_problem(folder, release_notebook.name, exercises)
        except (OSError, ValueError, TypeError, KeyError, RecursionError) as exc:
            problem = f"the notebook could not be read ({type(exc).__name__})"
        if problem:
            problems[folder.parent.name] = problem
    return problems


def write_problem_feedback(feedback: Path, assignment: str, notebook_name: str,
                           problem: str) -> Path:
    """The student's feedback page when nothing could be graded: what was wrong."""
    page = feedback / f"{Path(notebook_name).stem}.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(
        "<!DOCTYPE html><html><body>"
        f"<h1>{html.escape(assignment)}: your submission could not be graded</h1>"
        f"<p>{html.escape(problem)}.</p>"
        "<p>Your score for this assignment is 0. Fix the notebook and submit it again.</p>"
        "</body></html>\n", encoding="utf-8")
    return page
