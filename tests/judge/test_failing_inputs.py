"""A failed check's input kept as data beside its words, judged for real.

The judge (``grader/judge/_plugin.py``, ``_describe.inputs_as_data``) stores the
arguments of each failing check's last call of the student's function in the verdict,
as plain JSON, so that the feedback's pictures (``grader/bridge/_drawn_inputs.py``) draw
them without reading the words back. Here a named wrong answer fails a real hidden check
(imported from ``grader/hidden``) under the real judge, in this process.
"""

import json
import sys

from grader.bridge._drawn_inputs import pictures_for
from grader.hidden.wrong_answers import named_wrong_answers
from grader.judge import _judge
from grader.judge._describe import inputs_as_data
from grader.judge._plugin import Grading


def _failed_checks(tmp_path, monkeypatch, assignment: str, check: str, answer: str) -> list:
    """The failed checks of the verdict on ``answer``, graded by the hidden check ``check``
    of ``assignment`` alone."""
    name = f"checks_{tmp_path.name}"  # a module name of its own in this process
    checks, notebook = tmp_path / f"{name}.py", tmp_path / "answer.ipynb"
    chapter = assignment.split("_", 1)[1]
    checks.write_text(f"from grader.hidden.{chapter}.test import {check}\n",
                      encoding="utf-8")
    sys.modules.pop(name, None)
    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "code", "metadata": {}, "source": answer}]}), encoding="utf-8")
    monkeypatch.setattr(_judge, "_GRADING", Grading())
    verdict = _judge.run_judge(notebook, assignment, checks)
    assert json.loads(json.dumps(verdict)) == verdict  # stored and shipped as JSON
    return [c for record in verdict["exercises"].values() for c in record["checks"]
            if not c["passed"]]


def test_a_failing_tensor_input_is_kept_as_its_layout_and_drawn(tmp_path, monkeypatch):
    _, forgets_offset = named_wrong_answers("01_storage_strides")["diagonal_view"][2]
    [failed] = _failed_checks(tmp_path, monkeypatch, "01_storage_strides",
                              "test_diagonal_view_offset", forgets_offset)
    [argument] = failed["inputs"]
    x = argument["tensor"]
    assert set(x) == {"shape", "stride", "offset", "storage"} and x["offset"] > 0
    # The words name the same input: the check rebuilds it as torch.arange(n).as_strided.
    words = (f"torch.arange({x['storage']}).as_strided({tuple(x['shape'])}, "
             f"{tuple(x['stride'])}, {x['offset']})")
    assert words in failed["detail"]
    [svg] = pictures_for("diagonal_view", failed["inputs"])
    assert 'class="ta-memory"' in svg


def test_failing_shapes_are_kept_as_numbers_and_drawn_lined_up(tmp_path, monkeypatch):
    _, from_the_left = named_wrong_answers("03_shape_ops_broadcasting")["broadcast_shape"][0]
    [failed] = _failed_checks(tmp_path, monkeypatch, "03_shape_ops_broadcasting",
                              "test_broadcast_shape_pairs", from_the_left)
    shapes = failed["inputs"]
    assert len(shapes) == 2 and all(isinstance(n, int) for s in shapes for n in s)
    assert f"broadcast_shape({', '.join(str(tuple(s)) for s in shapes)})" in failed["detail"]
    [svg] = pictures_for("broadcast_shape", shapes)
    assert 'class="ta-broadcast"' in svg


def test_an_inputs_data_is_bounded_and_plain():
    big = list(range(1000))
    kept = inputs_as_data(([big, (2, 3), float("nan"), 2**70, len, True], {"k": 1.5}))
    assert kept == [None, [2, 3], None, None, None, True, 1.5]
    assert inputs_as_data(None) == []
    nested = [[[1] * 60] * 60] * 60  # 216,000 numbers
    assert len(json.dumps(inputs_as_data(([nested], {})))) < 2000
