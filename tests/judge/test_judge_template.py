"""Judges forked from a template process (``grader/judge/_judge_template.py``).

A forked judge must grade as a judge started afresh does (the verdicts of warm
judges are compared with fresh ones in ``test_warm.py``), and must stop as one
does: when its requests end, when it is killed, and when the template goes.
"""

import os
import select
import threading
import time

from support import complete_notebook

from grader.judge import _judge_server

ASSIGNMENT = "02_creating_tensors"


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


def _exits(judge, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while judge.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return judge.poll() is not None


def _full_marks(verdict: dict) -> bool:
    return all(e["passed"] == e["total"] for e in verdict["exercises"].values())


def test_two_judges_are_forks_of_one_template_and_grade_in_parallel(monkeypatch):
    monkeypatch.setattr(_judge_server, "_idle", [])
    monkeypatch.setattr(_judge_server, "_templates", {})
    verdicts = []
    threads = [threading.Thread(target=lambda: verdicts.append(
        _judge_server.judge(complete_notebook(ASSIGNMENT), ASSIGNMENT))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    [template] = _judge_server._templates.values()
    assert len(_judge_server._idle) == 2
    assert [_parent(warm.proc.pid) for warm in _judge_server._idle] == [template.proc.pid] * 2
    assert len(verdicts) == 2 and verdicts[0] == verdicts[1] and _full_marks(verdicts[0])
    _judge_server.close_idle()
    template.close()


def test_benched_without_the_template_each_judge_is_an_interpreter_of_its_own(monkeypatch):
    monkeypatch.setattr(_judge_server, "_idle", [])
    monkeypatch.setenv("TENSOR_ANATOMY_BENCH_WITHOUT", "judge-template")
    verdict = _judge_server.judge(complete_notebook(ASSIGNMENT), ASSIGNMENT)
    [warm] = _judge_server._idle
    assert _parent(warm.proc.pid) == os.getpid() and not hasattr(warm.proc, "_pidfd")
    assert _full_marks(verdict)
    _judge_server.close_idle()


def test_a_killed_judge_s_answers_end_at_once():
    # The template keeps no end of a judge's pipes: the command reads EOF, not a timeout.
    warm = _judge_server._WarmJudge(_judge_server._configuration())
    warm.proc.kill()
    assert _exits(warm.proc)
    fd = warm.proc.stdout.fileno()
    assert select.select([fd], [], [], 10)[0] and warm.proc.stdout.read() == b""
    warm.close()


def test_judges_stop_with_their_template_and_a_stopped_template_is_started_again():
    configuration = _judge_server._configuration()
    first = _judge_server._WarmJudge(configuration)
    assert first.proc.pid  # forked (once the template's imports are done)
    template = _judge_server._templates[_judge_server._key(configuration)]
    template.proc.kill()
    assert _exits(first.proc)  # the parent-death signal
    again = _judge_server._WarmJudge(configuration)
    assert _judge_server._templates[_judge_server._key(configuration)] is not template
    assert again.judge({"notebook": "/nonexistent", "assignment": ASSIGNMENT,
                        "out": "/nonexistent.json", "checks": None}, 120).startswith(
        "FileNotFoundError")
    again.close()
    first.close()


def test_a_template_no_judge_of_which_runs_is_stopped_when_another_configuration_starts_one(
        monkeypatch):
    monkeypatch.setattr(_judge_server, "_templates", {})
    old = _judge_server._WarmJudge(_judge_server._configuration())
    [template] = _judge_server._templates.values()
    old.close()
    monkeypatch.setenv("HYPOTHESIS_TEMPLATE_TEST", "another configuration")
    new = _judge_server._WarmJudge(_judge_server._configuration())
    assert template.proc.poll() is not None and len(_judge_server._templates) == 1
    new.close()
    _judge_server._templates.popitem()[1].close()
