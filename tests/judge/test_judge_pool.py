"""The warm-judge pool is keyed by configuration: a judge reads its configuration
(time limits, instructor folder, confinement) from the environment once, when it
starts, so an idle judge may only grade a request made under that same
configuration. Each test grades under two configurations in one process, in both
orders, with no ``close_idle()`` between: each grading must show its own
configuration's behaviour, whichever judge was warm before it.
"""


import pytest
from support import ROOT

from grader.judge import _judge_server
from grader.judge._judge_server import judge
from grader.student import _sandbox

CHECKS = ROOT / "tests" / "hostile" / "checks_double.py"
RIGHT = "def double(x):\n    return x * 2\n"
SLEEPER = "import time\ntime.sleep(3)\nprint('slept')\n"
PID = "import os\nprint('pid', os.getpid())\n"


def _grade(cells: list[str]) -> dict:
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]}
    verdict = judge(nb, "double", timeout=600, checks=CHECKS)
    # The right answer is graded right under every configuration.
    assert verdict["exercises"]["double"]["passed"] == verdict["exercises"]["double"]["total"]
    return verdict


@pytest.mark.parametrize("order", [("1", "60"), ("60", "1")], ids=["tight-first", "generous-first"])
def test_each_cell_timeout_is_obeyed_whichever_judge_was_warm(order, monkeypatch):
    for cell_timeout in order:
        monkeypatch.setenv("TENSOR_ANATOMY_CELL_TIMEOUT", cell_timeout)
        sleeper = _grade([RIGHT, SLEEPER])["cells"]["1"]
        if cell_timeout == "1":
            assert "did not finish in 1 s" in sleeper.get("skipped", ""), sleeper
        else:
            assert "skipped" not in sleeper and sleeper["stdout"] == "slept\n", sleeper


@pytest.mark.parametrize("order", [("0", "1"), ("1", "0")], ids=["confined-first",
                                                                 "unconfined-first"])
def test_confinement_is_what_this_request_was_made_under(order, monkeypatch):
    """Graded without namespaces only when the instructor allows it for this request."""
    if _sandbox.support():
        pytest.skip(f"students cannot be confined here: {_sandbox.support()}")
    for allowed in order:
        monkeypatch.setenv("TENSOR_ANATOMY_ALLOW_UNCONFINED", allowed)
        stdout = _grade([RIGHT, PID])["cells"]["1"]["stdout"]
        # In its own PID namespace the student's process is process 1.
        assert (stdout == "pid 1\n") is (allowed == "0"), (allowed, stdout)


def test_a_judge_is_reused_under_its_configuration_and_stopped_under_another(monkeypatch):
    monkeypatch.setattr(_judge_server, "_idle", [])
    monkeypatch.setenv("TENSOR_ANATOMY_CALL_TIMEOUT", "30")
    _grade([RIGHT])
    _grade([RIGHT])
    [first] = _judge_server._idle  # one judge graded both
    monkeypatch.setenv("TENSOR_ANATOMY_CALL_TIMEOUT", "31")
    _grade([RIGHT])
    [second] = _judge_server._idle
    assert second is not first and first.proc.poll() is not None  # nothing would take it
    monkeypatch.delenv("TENSOR_ANATOMY_CALL_TIMEOUT")
    _judge_server.close_idle()
