"""A failing ``check`` in the student's own kernel (nbclient, a real IPython kernel): one
short message, the exercise and its counterexample, and no frame of the grader's."""

import re

import nbformat
from nbclient import NotebookClient
from support import ROOT

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(*sources: str) -> list[dict]:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    NotebookClient(nb, timeout=300, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    return [output for cell in nb.cells for output in cell.outputs]


def test_a_wrong_answer_fails_with_its_counterexample_and_no_grader_frame():
    outputs = _run("from grader.checks import check",
                   "def contiguous_strides(shape):\n    return tuple(1 for _ in shape)",
                   "check(contiguous_strides)")
    error = next(o for o in outputs if o["output_type"] == "error")
    traceback = ANSI.sub("", "\n".join(error["traceback"]))
    assert error["ename"] == "Mismatch"
    assert error["evalue"].startswith("contiguous_strides: ")
    assert "grader/" not in traceback and "_registry" not in traceback, traceback
    assert len(traceback.splitlines()) <= 12, traceback


def test_a_right_answer_prints_one_line():
    outputs = _run("from grader.checks import check",
                   "import torch\ndef contiguous_strides(shape):\n"
                   "    return torch.empty(shape).stride()",
                   "check(contiguous_strides)")
    text = "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")
    assert text.startswith("✓ contiguous_strides: ") and text.count("\n") == 1


def test_a_failed_visible_assert_without_a_counterexample_is_its_own_line():
    outputs = _run("from grader import checking",
                   "def not_an_exercise():\n    return 1",
                   "with checking(not_an_exercise):\n    assert not_an_exercise() == 2")
    error = next(o for o in outputs if o["output_type"] == "error")
    assert error["ename"] == "Mismatch"
    assert error["evalue"] == ("not_an_exercise: this check failed: "
                               "assert not_an_exercise() == 2")
    assert len(error["traceback"]) == 1, error["traceback"]


def test_a_failing_input_whose_layout_is_the_point_is_drawn_above_the_message():
    outputs = _run("from grader import check",
                   "def diagonal_view(x):  # forgets the storage offset\n"
                   "    n = min(x.shape)\n"
                   "    return x.as_strided((n,), (x.stride(0) + x.stride(1),), 0)",
                   "check(diagonal_view)")
    kinds = [o["output_type"] for o in outputs]
    assert kinds == ["display_data", "error"], kinds
    svg = outputs[0]["data"]["image/svg+xml"]
    assert 'class="ta-memory"' in svg and "offset" in outputs[1]["evalue"]
