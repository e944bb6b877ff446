"""Before grading: find submissions that cannot be graded, and say why.

A broken submission (empty, not JSON, nbformat 3, renamed, from another
assignment) must cost that student points with a clear message, never stop
the batch. ``triage`` names the problem of each such student; the grade
command prints it in the summary and writes it as that student's feedback.
"""

import html
import json
from pathlib import Path

from . import _notebook

__all__ = ["triage", "write_problem_feedback"]


def _notebook_problem(path: Path, exercises: set[str]) -> str | None:
    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        return "the notebook file is empty"
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"the notebook is not valid JSON (line {exc.lineno}, column {exc.colno})"
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return "the file is JSON but not a notebook (no list of cells)"
    if nb.get("nbformat") != 4:
        return (f"the notebook is in format {nb.get('nbformat')!r}; save it with a current "
                "Jupyter (nbformat 4)")
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


def triage(submitted: Path, assignment: str, release_notebook: Path) -> dict[str, str]:
    """student → why their submission of ``assignment`` cannot be graded."""
    exercises = set(_notebook.exercise_cells(_notebook.load(release_notebook)))
    problems = {}
    for folder in sorted(submitted.glob(f"*/{assignment}")):
        problem = _submission_problem(folder, release_notebook.name, exercises)
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
