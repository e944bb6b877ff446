"""Unfinished is not broken: a fresh exercise notebook runs top to bottom in a real kernel.

Each test cell of an exercise not attempted yet says so on stderr (nbgrader gives
such a cell 0 points) and the next cells still run; a finished exercise's test
cell passes as before, and a wrong one still fails.
"""

import nbformat
import pytest
import torch
from nbclient import NotebookClient
from nbgrader.utils import determine_grade
from support import ROOT

from grader import _notebook

RELEASED = sorted((ROOT / "exercises").glob("*/*.ipynb"))


def _run_all(nb, path) -> None:
    """Run All, as JupyterLab's button does: stop at the first cell that errs."""
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()


def _stderr(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stderr")


@pytest.mark.parametrize("path", RELEASED, ids=lambda p: p.parent.name)
def test_a_fresh_exercise_notebook_runs_to_the_end(path):
    nb = nbformat.read(path, as_version=4)
    _run_all(nb, path)  # raises CellExecutionError at the first error
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code), "a code cell did not run"
    for name, cell in _notebook.exercise_cells(nb).items():
        assert f"{name}: not attempted yet" in _stderr(cell), cell.outputs
        assert determine_grade(cell)[0] == 0, f"{name}: an unattempted exercise scored points"


def _with_answer(nb, name: str, source: str):
    """The notebook with exercise ``name``'s answer cell replaced by ``source``."""
    answer = next(cell for cell in nb.cells
                  if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{name}_answer")
    answer.source = source
    return nb


def test_a_finished_exercise_passes_and_a_wrong_one_still_fails():
    path = ROOT / "exercises" / "01_storage_strides" / "01_storage_strides.ipynb"
    right = ("import torch\ndef contiguous_strides(shape):\n"
             "    return torch.empty(shape).stride()")
    nb = _with_answer(nbformat.read(path, as_version=4), "contiguous_strides", right)
    _run_all(nb, path)
    cell = _notebook.exercise_cells(nb)["contiguous_strides"]
    stdout = "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")
    assert _stderr(cell) == "" and stdout.startswith("✓ contiguous_strides: "), cell.outputs

    wrong = "def contiguous_strides(shape):\n    return tuple(1 for _ in shape)"
    nb = _with_answer(nbformat.read(path, as_version=4), "contiguous_strides", wrong)
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    cell = _notebook.exercise_cells(nb)["contiguous_strides"]
    errors = [o for o in cell.outputs if o["output_type"] == "error"]
    # The visible assert failed; the student reads the public check's counterexample.
    assert [o["ename"] for o in errors] == ["Mismatch"], cell.outputs
    assert "your result is (1, 1, 1)" in errors[0]["evalue"], errors[0]["evalue"]


def test_a_not_implemented_error_from_torch_is_a_mistake_not_the_stub():
    """Only the stub's bare ``raise NotImplementedError()`` is "not attempted yet"."""
    from grader import check, checking
    from grader.checks import Mismatch, NotAttempted

    def masked_mean(x, lengths):  # copies a meta tensor to the CPU: torch refuses, and says why
        return torch.ones(2, device="meta").cpu()

    with pytest.raises(Mismatch, match="Cannot copy out of meta tensor"):
        check(masked_mean)
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        with checking(masked_mean):
            masked_mean(None, None)

    def masked_mean(x, lengths):  # noqa: F811 - the released stub
        raise NotImplementedError()

    with pytest.raises(NotAttempted):
        check(masked_mean)
    with checking(masked_mean):  # swallowed: Run All goes on
        masked_mean(None, None)
