"""Where a grading run's time goes: each phase recorded as data, and the bench's table.

A small class graded in parallel writes ``reports/grading_phases.json`` with every
phase on its lane; the CPU of a live or ended child process is counted, and of one the
kernel reaps (a student's, under the zygote) while it lived; the bench
prints core-seconds per notebook from that record, never from printed text.
"""

import importlib.util
import json
import os
import subprocess
import sys
import time

import psutil
import pytest
from support import ROOT
from support.batch import ASSIGNMENT, STUDENTS, write_submissions

from grader._settings import variable
from grader.batch import _phases
from grader.batch._phases import PHASES

pytestmark = pytest.mark.heavy  # grades a class in a fixture: scheduled first

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("instructor")
    write_submissions(instructor)
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    env.pop("TENSOR_ANATOMY_DB_URL", None)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT,
                           "--jobs", "2"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads((instructor / "reports" / "grading_phases.json").read_text())


def test_a_graded_class_records_every_phase_on_its_lane(record):
    assert record["notebooks"] == len(STUDENTS)
    assert {name: phase["lane"] for name, phase in record["phases"].items()} == PHASES
    for name, phase in record["phases"].items():
        assert phase["wall_s"] >= 0 and phase["cpu_s"] >= 0, (name, phase)
    # Every phase but the rest was gone through, and timed as itself.
    untimed = [name for name, phase in record["phases"].items()
               if name != "other" and not phase["wall_s"] > 0]
    assert not untimed, record
    # The judges' processes are counted: their start-up alone is seconds of CPU.
    assert record["phases"]["judging"]["cpu_s"] > 2.0, record
    # Each core-second in one phase only: the phases add up to the run's.
    assert sum(p["cpu_s"] for p in record["phases"].values()) == pytest.approx(record["cpu_s"])
    assert record["wall_s"] >= record["phases"]["judging"]["wall_s"]


def test_a_child_process_is_counted_alive_and_after_it_ended():
    phases = _phases.Phases()
    with phases.remainder("judging"):
        child = subprocess.Popen([sys.executable, "-c", BUSY.format(s=1.0) + "time.sleep(60)"])
        deadline = time.monotonic() + 120
        while sum(psutil.Process(child.pid).cpu_times()[:2]) < 1.0:  # its loop is done
            assert time.monotonic() < deadline
            time.sleep(0.1)
    alive = phases.phases["judging"].cpu_s
    child.kill()
    child.wait()
    with phases.remainder("export"):
        subprocess.run([sys.executable, "-c", BUSY.format(s=1.0)], check=True)
    assert alive >= 1.0
    assert phases.phases["export"].cpu_s >= 1.0


# A zygote's way: SIGCHLD ignored, so the kernel reaps the busy child and no rusage counts it.
ZYGOTE = """
import os, signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
if os.fork() == 0:
    started = time.process_time()
    while time.process_time() - started < 1.0:
        pass
    os._exit(0)
time.sleep(60)
"""


def test_a_process_the_kernel_reaps_is_counted_while_it_lived():
    phases = _phases.Phases()
    with phases.remainder("judging"):
        zygote = subprocess.Popen([sys.executable, "-c", ZYGOTE])
        deadline = time.monotonic() + 120
        while len(psutil.Process(zygote.pid).children()) == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        while psutil.Process(zygote.pid).children():  # the busy child, until it ended
            assert time.monotonic() < deadline
            time.sleep(0.05)
    zygote.kill()
    zygote.wait()
    assert phases.phases["judging"].cpu_s >= 0.9  # a tick (0.1 s) may be missed


def _bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # its _floor, as when run
    spec = importlib.util.spec_from_file_location(
        "grading_bench", ROOT / "benchmarks" / "grading_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_prints_core_seconds_per_notebook_from_the_record(monkeypatch):
    record = {"notebooks": 4, "cores": 2, "wall_s": 30.0, "cpu_s": 20.0,
              "phases": {name: {"lane": lane, "wall_s": 1.5, "cpu_s": 2.0}
                         for name, lane in PHASES.items()}}
    record["phases"]["judging"] = {"lane": "cluster", "wall_s": 25.0, "cpu_s": 6.0}
    lines = _bench(monkeypatch).phase_table(record, stock_wall_s=120.0, stock_cpu_s=100.0)
    rows = {line[:22].strip(): line.split()[-1] for line in lines[1:]}
    assert list(rows)[:len(PHASES)] == list(PHASES)
    assert rows["judging"] == "1.50" and rows["feedback"] == "0.50"
    assert rows["ours, in all"] == "5.00" and rows["stock nbgrader, in all"] == "25.00"
    assert "25.0" in next(line for line in lines if line.startswith("judging"))


def test_the_bench_compares_the_median_of_our_runs_and_refuses_runs_that_disagree(
        monkeypatch, capsys):
    bench, scores = _bench(monkeypatch), {"a": {"s": {"total": 1.0}}}
    runs = {0: (36.3, scores, "slow"), 1: (30.0, scores, "fast"), 2: (31.1, scores, "median")}
    assert bench._median_of(3, runs.__getitem__)[2] == "median"
    assert "31.1 s (median of 3: 30.0, 31.1, 36.3)" in capsys.readouterr().out
    runs[1] = (30.0, {"a": {"s": {"total": 0.0}}}, "fast")
    with pytest.raises(SystemExit, match="different scores"):
        bench._median_of(3, runs.__getitem__)


def test_the_bench_grades_once_more_with_failures_not_shrunk_and_compares_the_scores(
        monkeypatch, capsys):
    bench, scores = _bench(monkeypatch), {"a": {"s": {"total": 1.0}}}
    settings = []

    def ours(*args, **kwargs):
        settings.append(kwargs["settings"])
        return 20.0, scores if len(settings) == 1 else {"a": {"s": {"total": 0.0}}}, {}

    monkeypatch.setattr(bench, "_ours", ours)
    assert bench._unshrunk({}, None, None, None, (25.0, scores), stock_s=120.0)
    assert settings == [{variable("first_failure"): "1"}]
    assert "20.0 s, 6.00x stock (all on: 25.0 s); same scores: yes" in capsys.readouterr().out
    assert not bench._unshrunk({}, None, None, None, (25.0, scores), stock_s=120.0)
    assert "same scores: NO" in capsys.readouterr().out
