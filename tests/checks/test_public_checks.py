"""Public checks in the student's own kernel pass on the solution (on the stub, each test
cell says "not attempted yet": tests/checks/test_unfinished.py)."""

import nbformat
from nbclient import NotebookClient
from support import COURSE

from grader import _notebook


def _execute(path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    return nb


def _errors(cell) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for o in cell.get("outputs", [])
            if o["output_type"] == "error"]


def test_the_solution_notebook_runs_clean_and_every_public_check_passes(assignment):
    nb = _execute(COURSE.source_notebook(assignment))
    errors = {i: _errors(c) for i, c in enumerate(nb.cells) if _errors(c)}
    assert not errors
    for name, cell in _notebook.exercise_cells(nb).items():
        printed = "".join(o.get("text", "") for o in cell.outputs if o["output_type"] == "stream")
        assert f"✓ {name}:" in printed
