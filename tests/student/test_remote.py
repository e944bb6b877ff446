"""The student's process: limits, failures, and that its patches stay there."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from support import ROOT

from grader._errors import (
    MissingDefinition,
    StudentCrashed,
    StudentRaised,
    StudentTimeout,
    UngradableResult,
)
from grader.checks._local import LocalStudent
from grader.judge._remote import RemoteStudent

# Functions whose answers depend on which storage their arguments share.
SHARING_CELLS = [
    "def is_view_of(a, b):\n"
    "    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()",
    "def add_at_(t, i, v):\n    t.index_add_(0, i, v)\n    return t",
    "def swap_storage(t):\n    t.set_(torch.arange(3.0))\n    return t",
]

CELLS = [
    "import os, torch",
    # A hostile cell: all of this happens in the student's process only.
    "torch.equal = lambda *a, **k: True\n"
    "torch.allclose = lambda *a, **k: True\n"
    "torch.Tensor.__eq__ = lambda *a, **k: True\n"
    "import sys; sys.modules['grader'] = None",
    "def diagonal(x):\n"
    "    n = min(x.shape)\n"
    "    return x.as_strided((n,), (x.stride(0) + x.stride(1),), x.storage_offset())",
    "def die(x):\n    os._exit(3)",
    "def weird(x):\n    return object()",
    "def boom(x):\n    raise IndexError('index 9 is out of range')",
    *SHARING_CELLS,
    "def after_the_hang():\n    return 42",
    "print('x' * 10**6)",
    "def apply_twice(f, x):\n    return f(f(x))",
]


def record_calls(student_fn, x):
    """A harness: hands the student's function a callable and reports how it was used."""
    calls = []

    def double(value):
        calls.append(value)
        return 2 * value

    return student_fn(double, x), calls


def uses_a_global(student_fn):
    return CELLS  # only its source crosses, so this module global is not there


# Tight limits only for the students whose call or cell must time out: an honest
# call or cell gets ample time, so that a slow or loaded machine cannot fail it.
GENEROUS = {"call_timeout": 60.0, "cell_timeout": 120.0, "notebook_timeout": 3600.0}
HANGING_CALL = ["def hang(x):\n    while True:\n        pass"]
# A cell that never ends is skipped, not fatal; the cell after it still runs.
HANGING_CELL = ["while True:\n    pass", "def after_the_hang():\n    return 42"]


@pytest.fixture(scope="module")
def student():
    remote = RemoteStudent(CELLS, **GENEROUS)
    yield remote
    remote.close()


@pytest.fixture(scope="module")
def hanging_call():
    remote = RemoteStudent(HANGING_CALL, **{**GENEROUS, "call_timeout": 1.0})
    yield remote
    remote.close()


@pytest.fixture(scope="module")
def hanging_cell():
    # Its other cell only defines a function: no honest work runs under the tight limit.
    remote = RemoteStudent(HANGING_CELL, **{**GENEROUS, "cell_timeout": 2.0})
    yield remote
    remote.close()


def test_a_view_comes_back_sharing_the_judges_storage(student):
    x = torch.arange(20.0).reshape(4, 5)[1:, 1:]
    result = student.diagonal(x)
    assert torch.equal(result, torch.diagonal(x))
    assert result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert (result.stride(), result.storage_offset()) == ((6,), 6)


def test_patches_in_the_students_process_do_not_reach_the_judge(student):
    student.diagonal(torch.eye(2))
    assert not torch.equal(torch.zeros(2), torch.ones(2))
    assert not torch.allclose(torch.zeros(2), torch.ones(2))
    assert not (torch.zeros(2) == torch.ones(2)).any()


def test_a_cell_that_never_ends_is_skipped_and_later_cells_still_run(hanging_cell):
    assert hanging_cell.after_the_hang() == 42
    reports = hanging_cell.cell_reports()
    hung = [i for i, r in reports.items() if "did not finish in 2 s" in r.get("skipped", "")]
    assert hung == [HANGING_CELL.index("while True:\n    pass")]


def test_each_cell_reports_what_it_printed_bounded(student):
    student.start()
    printed = student.cell_reports()[CELLS.index("print('x' * 10**6)")]["stdout"]
    assert printed.startswith("xxx") and len(printed) == 10_000


def test_each_failure_is_named(student):
    x = torch.zeros(2)
    with pytest.raises(StudentRaised) as raised:
        student.boom(x)
    assert raised.value.type_name == "IndexError"
    with pytest.raises(MissingDefinition):
        student.not_defined(x)
    with pytest.raises(UngradableResult, match="'object' objects cannot be graded"):
        student.weird(x)


def test_a_timeout_fails_fast_the_second_time(hanging_call):
    with pytest.raises(StudentTimeout, match="longer than 1 s"):
        hanging_call.hang(torch.zeros(1))
    with pytest.raises(StudentTimeout):
        hanging_call.hang(torch.zeros(1))
    assert "hang" in hanging_call._failing_fast


def test_a_crash_restarts_the_process(student):
    with pytest.raises(StudentCrashed):
        student.die(torch.zeros(1))
    assert student.after_the_hang() == 42


def test_a_harness_runs_beside_the_students_function(student):
    assert student.apply_twice.harness(record_calls, 3) == (12, [3, 6])


def test_a_harness_sees_only_its_own_source(student):
    with pytest.raises(StudentRaised) as raised:
        student.apply_twice.harness(uses_a_global)
    assert raised.value.type_name == "NameError"
    with pytest.raises(MissingDefinition):
        student.not_defined_anywhere.harness(record_calls, 1)


def test_a_harness_runs_the_same_locally():
    local = LocalStudent.from_source(CELLS[-1])
    assert local.apply_twice.harness(record_calls, 3) == (12, [3, 6])
    with pytest.raises(StudentRaised):
        local.apply_twice.harness(uses_a_global)


@pytest.fixture(params=["remote", "local"])
def judged(request):
    """The same functions graded (in the student's process) and in the student's kernel."""
    if request.param == "local":
        return LocalStudent.from_source("\n".join(["import torch", *SHARING_CELLS]))
    return request.getfixturevalue("student")


def _shares(a, b) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset()


def test_arguments_sharing_a_storage_share_it_in_the_students_code(judged):
    x = torch.arange(12.0).reshape(3, 4)
    assert judged.is_view_of(x, x.t()[1:]) is True
    assert judged.is_view_of(x, x.clone()) is False
    assert judged.is_view_of(x[0], b=x[2]) is True  # a keyword argument too


def test_with_inputs_after_gives_the_arguments_as_the_call_left_them(judged):
    t, i, v = torch.zeros(5), torch.tensor([0, 2, 2]), torch.tensor([1.0, 2.0, 3.0])
    result, args_after, kwargs_after = judged.add_at_.with_inputs_after(t, i, v=v)
    assert torch.equal(args_after[0], torch.tensor([1.0, 0.0, 5.0, 0.0, 0.0]))
    assert torch.equal(args_after[1], i) and list(kwargs_after) == ["v"]
    assert torch.equal(kwargs_after["v"], v)
    assert _shares(result, args_after[0]) and _layout(result) == _layout(args_after[0])
    assert torch.equal(t, torch.zeros(5)) and not _shares(args_after[0], t)  # the judge's own


def test_with_inputs_after_brings_back_an_arguments_whole_storage(judged):
    matrix = torch.zeros(3, 4)
    column = matrix[:, 1]
    result, args_after, _ = judged.add_at_.with_inputs_after(
        column, torch.tensor([0, 2]), torch.tensor([1.0, 2.0]))
    after = args_after[0]
    assert _layout(after) == ((3,), (4,), 1)
    expected = torch.zeros(3, 4)
    expected[0, 1], expected[2, 1] = 1.0, 2.0
    assert torch.equal(torch.empty(0).set_(after.untyped_storage()).view(3, 4), expected)
    assert _shares(result, after) and _layout(result) == _layout(after)
    assert torch.equal(matrix, torch.zeros(3, 4))


def test_with_inputs_after_fails_as_a_plain_call_does(judged):
    with pytest.raises(StudentRaised) as raised:
        judged.add_at_.with_inputs_after(torch.zeros(2), torch.tensor([5]), torch.tensor([1.0]))
    assert raised.value.type_name in ("IndexError", "RuntimeError")


def test_with_inputs_after_names_the_input_and_times_out_like_a_call(student, hanging_call):
    x = torch.zeros(2)
    with pytest.raises(StudentRaised) as raised:
        student.boom.with_inputs_after(x)
    assert raised.value.type_name == "IndexError"
    assert raised.value.call.startswith("boom(tensor([0.0, 0.0]")
    with pytest.raises(MissingDefinition):
        student.not_defined.with_inputs_after(x)
    with pytest.raises(UngradableResult, match="'object' objects cannot be graded"):
        student.weird.with_inputs_after(x)
    with pytest.raises(StudentTimeout, match="longer than 1 s"):
        hanging_call.hang.with_inputs_after(torch.zeros(1))


def test_a_storage_the_call_swaps_in_is_not_taken_for_the_arguments(student):
    # Same size as the argument's storage: only its identity tells them apart.
    assert torch.equal(student.swap_storage(torch.zeros(3)), torch.arange(3.0))


JUDGE_KILLED_MID_CALL = """
import threading, time
from grader.checks._local import LocalStudent
from grader.judge._remote import RemoteStudent
student = RemoteStudent(["def spin():\\n    while True:\\n        pass"], call_timeout=600)
student.start()
threading.Thread(target=student.spin, daemon=True).start()  # busy: it never reads stdin
time.sleep(1)
print(student._channel.pid, flush=True)
time.sleep(600)
"""


def test_a_judge_killed_outright_takes_the_students_process_with_it():
    judge = subprocess.Popen([sys.executable, "-c", JUDGE_KILLED_MID_CALL], stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
    worker = int(judge.stdout.readline())
    os.kill(judge.pid, signal.SIGKILL)
    judge.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    survived = _alive(worker)
    if survived:
        os.kill(worker, signal.SIGKILL)  # do not leave it spinning to its CPU limit
    assert not survived


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing
