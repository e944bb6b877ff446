"""Warm processes: students forked from a zygote, judges that grade notebook after notebook.

Speed must not cost isolation or equality: every student's process starts
from the same clean state and holds nothing of the grader, and a warm judge
gives exactly the verdict of a judge started for that one notebook.
"""

import json
import os
import subprocess
import sys
import threading
from types import SimpleNamespace

import pytest
import torch
from support import ROOT, complete_notebook, load_notebook

from grader._course import Course
from grader.batch._demo import synthetic_submission
from grader.judge import _judge_server
from grader.judge._remote import RemoteStudent
from grader.student._zygote import zygote

PATCHER = ["import torch\ntorch.equal = lambda *a, **k: True\ntorch.patched_by_a_student = 1",
           "def patched(x):\n    return hasattr(torch, 'patched_by_a_student')"]
OBSERVER = ["import os, torch",
            "def patched(x):\n    return hasattr(torch, 'patched_by_a_student')",
            "def equal_lies(x):\n    return torch.equal(x, x + 1)",
            "def open_files(x):\n"
            "    fds = os.listdir('/proc/self/fd')\n"
            "    return [os.readlink(f'/proc/self/fd/{fd}') for fd in fds"
            " if os.path.exists(f'/proc/self/fd/{fd}')]"]


def _student(cells):
    student = RemoteStudent(cells)
    student.start()
    return student


def test_each_student_starts_from_the_zygotes_clean_state():
    patcher = _student(PATCHER)
    try:
        assert patcher.patched(torch.zeros(1)) is True
        observer = _student(OBSERVER)  # forked while the patcher still runs
        try:
            assert observer.patched(torch.zeros(1)) is False
            assert observer.equal_lies(torch.zeros(2)) is False
        finally:
            observer.close()
    finally:
        patcher.close()


def test_a_student_holds_no_socket_and_no_pipe_but_its_own_two():
    student = _student(OBSERVER)
    try:
        files = student.open_files(torch.zeros(1))
    finally:
        student.close()
    assert not [f for f in files if f.startswith("socket:")]  # the zygote's control socket
    assert len([f for f in files if f.startswith("pipe:")]) == 2


def test_a_student_inherits_what_torch_imports_on_first_use():
    """The first meta-tensor operation imports sympy (seconds): the zygote did it once."""
    student = _student(["import sys",
                        "def imported_before_any_op(x):\n    return 'sympy' in sys.modules"])
    try:
        assert student.imported_before_any_op(torch.zeros(1)) is True
    finally:
        student.close()


FORKED_ZYGOTE = """
import json, os, sys, torch
from grader.student import _zygote
from grader.judge._remote import RemoteStudent

_zygote.fork_zygote_here()  # as a warm judge does, before its first notebook
zygote = _zygote.zygote()
student = RemoteStudent(json.loads(sys.argv[1]))
student.start()
fds = os.listdir(f"/proc/{zygote.proc.pid}/fd")
print(json.dumps({
    "judge": os.getpid(),
    "zygote_parent": int(open(f"/proc/{zygote.proc.pid}/stat").read().split()[3]),
    "zygote_files": sorted(os.readlink(f"/proc/{zygote.proc.pid}/fd/{fd}") for fd in fds),
    "student_files": student.open_files(torch.zeros(1)),
    "patched": student.patched(torch.zeros(1)),
}))
student.close()
"""


def test_a_judge_forks_its_zygote_and_students_still_hold_only_their_pipes():
    done = subprocess.run([sys.executable, "-c", FORKED_ZYGOTE, json.dumps(OBSERVER)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=True)
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["zygote_parent"] == seen["judge"]  # forked, not a fresh interpreter
    # The zygote keeps /dev/null and its socket: not the judge's pipes or files.
    assert [f for f in seen["zygote_files"] if f != "/dev/null"] == [
        f for f in seen["zygote_files"] if f.startswith("socket:")]
    assert len([f for f in seen["zygote_files"] if f.startswith("socket:")]) == 1
    files = seen["student_files"]
    assert not [f for f in files if f.startswith("socket:")]
    assert len([f for f in files if f.startswith("pipe:")]) == 2
    assert seen["patched"] is False


def test_a_killed_zygote_is_started_again():
    before = zygote()
    before.proc.kill()
    before.proc.wait()
    student = _student(OBSERVER)
    try:
        assert student.patched(torch.zeros(1)) is False
    finally:
        student.close()
    assert zygote() is not before and zygote().alive()


def _cold_verdict(nb: dict, assignment: str, tmp_path) -> dict:
    """A judge started for this one notebook, as ``python -m grader.judge._judge`` does."""
    notebook, out = tmp_path / f"{assignment}.ipynb", tmp_path / f"{assignment}.json"
    notebook.write_text(json.dumps(nb), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "grader.judge._judge", str(notebook), "--assignment",
                    assignment, "--out", str(out)], cwd=ROOT, check=True, timeout=900)
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_warm_judge_gives_each_notebook_the_verdict_of_a_fresh_judge(tmp_path, monkeypatch):
    """complete, partial, blank, then complete again, all through one warm judge."""
    monkeypatch.setattr(_judge_server, "_idle", [])
    course, assignment = Course(ROOT), "03_shape_ops_broadcasting"
    release = load_notebook(course.release_notebook(assignment))
    source = load_notebook(course.source_notebook(assignment))
    notebooks = [synthetic_submission(release, source, f) for f in (1.0, 0.5, 0.0, 1.0)]
    warm = [_judge_server.judge(nb, assignment) for nb in notebooks]
    assert len(_judge_server._idle) == 1  # one judge did all four
    assert warm[0] == warm[3]
    for nb, verdict in zip(notebooks[:3], warm[:3], strict=True):
        assert verdict == _cold_verdict(nb, assignment, tmp_path)
    assert [sum(e["passed"] for e in v["exercises"].values()) > 0 for v in warm] == [
        True, True, False, True]


def test_a_judge_that_runs_out_of_time_is_replaced(monkeypatch):
    monkeypatch.setattr(_judge_server, "_idle", [])
    course, assignment = Course(ROOT), "02_creating_tensors"
    nb = synthetic_submission(load_notebook(course.release_notebook(assignment)),
                              load_notebook(course.source_notebook(assignment)), 1.0)
    with pytest.raises(RuntimeError, match="no verdict within"):
        _judge_server.judge(nb, assignment, timeout=0.5)
    assert _judge_server._idle == []  # the late judge was killed, not kept
    verdict = _judge_server.judge(nb, assignment)
    assert all(e["passed"] == e["total"] for e in verdict["exercises"].values())


def test_a_judge_is_recycled_after_its_share_of_notebooks(monkeypatch):
    monkeypatch.setattr(_judge_server, "_idle", [])
    monkeypatch.setenv("TENSOR_ANATOMY_BENCH_WITHOUT", "warm-judges")  # a share of 1
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    verdict = _judge_server.judge(nb, "02_creating_tensors")
    assert verdict["exercises"] and _judge_server._idle == []


def test_the_grading_command_and_cluster_workers_leave_torch_to_the_judges():
    # Each client import of torch costs seconds of CPU while the judges start.
    code = ("import sys, grader.cli, grader.batch._parallel, grader.judge._judge_server\n"
            "print(sorted(m for m in ('torch', 'pytest', 'hypothesis') if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    assert imported == "[]"


def test_a_thread_takes_back_its_own_idle_judge_before_another_threads(monkeypatch):
    # Each of a cluster's in-process workers keeps to the judge that recorded its examples.
    key = _judge_server._key(_judge_server._configuration())  # both of this configuration

    def idle_judge(owner):
        return SimpleNamespace(owner=owner, key=key, proc=SimpleNamespace(poll=lambda: None))

    mine, theirs = idle_judge(threading.get_ident()), idle_judge(-1)
    monkeypatch.setattr(_judge_server, "_idle", [mine, theirs])
    assert _judge_server._take() is mine
    assert _judge_server._take() is theirs  # rather than start a judge of its own
    assert theirs.owner == threading.get_ident()


def test_benched_without_the_zygote_a_notebook_grades_the_same(monkeypatch):
    # make bench's "without zygote": a fresh zygote per student's process, stopped with it.
    # Chapter 3's checks start a second process for one notebook: the first one's zygote
    # must not take the second one down (it once did, and cost a complete notebook points).
    monkeypatch.setattr(_judge_server, "_idle", [])
    monkeypatch.setenv("TENSOR_ANATOMY_BENCH_WITHOUT", "zygote")
    assignment = "03_shape_ops_broadcasting"
    verdict = _judge_server.judge(complete_notebook(assignment), assignment)
    _judge_server.close_idle()
    assert all(e["passed"] == e["total"] for e in verdict["exercises"].values()), verdict


def test_judges_started_ahead_grade_the_batch_and_those_not_taken_are_stopped(monkeypatch):
    # The grading command starts its judges before its own start-up is done (_run).
    monkeypatch.setattr(_judge_server, "_idle", [])
    started = []
    monkeypatch.setattr(_judge_server, "_WarmJudge",
                        lambda configuration, made=_judge_server._WarmJudge:
                        started.append(made(configuration)) or started[-1])
    assignment = "02_creating_tensors"
    with _judge_server.started_ahead(2):
        assert len(started) == 2 and all(warm.served == 0 for warm in started)
        verdict = _judge_server.judge(complete_notebook(assignment), assignment)
    assert all(e["passed"] == e["total"] for e in verdict["exercises"].values()), verdict
    taken = [warm for warm in started if warm.served]
    assert len(started) == 2 and len(taken) == 1  # judged by a judge started ahead
    assert _judge_server._idle == taken and taken[0].proc.poll() is None
    [untaken] = [warm for warm in started if not warm.served]
    assert untaken.proc.poll() is not None  # stopped: it would only idle
    _judge_server.close_idle()


def test_judges_and_their_students_run_below_nbgrader_s_lane(monkeypatch):
    # nbgrader's lane, a thread of the grading command, goes first (_judge_server._niceness).
    monkeypatch.setattr(_judge_server, "_idle", [])
    nb = {"cells": [{"cell_type": "code", "metadata": {},
                     "source": "import os\nprint(os.getpriority(os.PRIO_PROCESS, 0))"}]}
    verdict = _judge_server.judge(nb, "02_creating_tensors")
    [warm] = _judge_server._idle
    lower = min(os.getpriority(os.PRIO_PROCESS, 0) + 10, 19)
    assert os.getpriority(os.PRIO_PROCESS, warm.proc.pid) == lower
    assert verdict["cells"]["0"]["stdout"] == f"{lower}\n", verdict["cells"]["0"]
    _judge_server.close_idle()
