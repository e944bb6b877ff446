"""Where the judge has CUDA, no GPU-only check is skipped in silence (simulated on the CPU).

CUDA is said present in this process (the judge's side) while the student's
process really has none: as on a GPU machine whose sandbox keeps CUDA out,
grading stops saying why; and once a confined process did start CUDA (the
probe is said to have passed), a student's process that reports none fails
its GPU checks instead of skipping them. ``tests/gpu_verify.py``'s own refusal
is in ``tests/course/test_gpu_verify.py``.
"""

import json
import sys

import pytest
import torch

from grader.judge import _cuda_probe, _judge
from grader.judge._plugin import Grading

CHECKS = '''
import pytest, torch
from grader.checks.devices import _oracle as ch


@pytest.mark.exercise("double")
def test_double(student):
    """doubles on the CPU"""
    assert torch.equal(student.double(torch.ones(2)), torch.full((2,), 2.0))


@pytest.mark.exercise("double")
def test_cuda_double(student):
    """doubles on CUDA"""
    try:
        ch.on_cuda(student.double, [torch.ones(2)], [0])
    except ch.CudaUnavailable as why:
        pytest.skip(str(why))
'''


def _judge_double(tmp_path) -> dict:
    checks, notebook = tmp_path / "checks_cuda_double.py", tmp_path / "double.ipynb"
    checks.write_text(CHECKS, encoding="utf-8")
    sys.modules.pop(checks.stem, None)
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {},
                                               "source": "def double(x):\n    return x * 2"}]}))
    return _judge.run_judge(notebook, "double", checks)


@pytest.fixture()
def cuda_in_the_judge(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(_cuda_probe, "student_cuda_problem",
                        _cuda_probe.student_cuda_problem.__wrapped__)  # no answer kept
    monkeypatch.setattr(_judge, "_GRADING", Grading())


def test_grading_stops_where_the_judge_has_cuda_and_the_students_process_cannot(
        cuda_in_the_judge, tmp_path):
    with pytest.raises(RuntimeError) as stopped:
        _judge_double(tmp_path)
    message = str(stopped.value)
    assert message.startswith("cannot grade GPU checks: CUDA works here but not in the "
                              "student's sandbox (AssertionError: Torch not compiled"), message
    assert message.endswith("hide the GPU (CUDA_VISIBLE_DEVICES=) to grade without them")
    assert "\n" not in message


def test_once_the_probe_started_cuda_a_student_without_it_fails_its_gpu_checks(
        cuda_in_the_judge, tmp_path, monkeypatch):
    monkeypatch.setattr(_cuda_probe, "student_cuda_problem", lambda: "")
    checks = {c["check"]: c for c in _judge_double(tmp_path)["exercises"]["double"]["checks"]}
    assert checks["test_double"]["passed"]
    assert not checks["test_cuda_double"]["passed"]  # counted, not skipped
    assert checks["test_cuda_double"]["detail"].startswith(
        "your code: CUDA does not work in the student's process (AssertionError: Torch not")
