"""Where a grading run's time goes: wall and CPU seconds per phase, kept as data.

The run writes them to ``instructor/reports/grading_phases.json`` (overwritten each run);
``benchmarks/grading_bench.py`` prints them per notebook. The cluster judges while
nbgrader's lane (a thread) takes each judged notebook through autograde and feedback: each
phase is timed on its own lane, and the wall seconds of two lanes overlap.
``timed``: the calling thread's CPU (a process it starts falls to the remainder around it).
``remainder``: the process tree's CPU over a window (every thread here, Dask's workers
too; the children reaped; live descendants, the warm judges and their zygotes, with the
children they reaped; the students' processes, which the kernel reaps, sampled while
they live: ``_kernel_reaped``), less the ``timed`` phases' meanwhile. Not counted: a
student's last tick, a process whose parent was killed. ``other``: the tree's CPU at
the end in no phase (at least 0: a judge killed mid-run takes its zygote's CPU along).
"""

import contextlib
import dataclasses
import json
import os
import resource
import threading
import time
from pathlib import Path

import psutil  # distributed's own dependency

from grader.batch._kernel_reaped import KernelReaped

__all__ = ["PHASES", "Phases"]

# In the order a run meets them; each with the lane it runs on.
PHASES = {"start-up": "main", "triage": "main", "nbgrader start-up": "nbgrader",
          "register releases": "nbgrader", "judging": "cluster",
          "nbgrader autograde": "nbgrader", "feedback": "nbgrader", "reports": "nbgrader",
          "export": "main", "other": "main"}


@dataclasses.dataclass
class Phase:
    lane: str  # main, the cluster's, or nbgrader's
    wall_s: float = 0.0
    cpu_s: float = 0.0


def _tree_cpu(kernel_reaped: KernelReaped) -> float:
    """CPU seconds of this process, its reaped children, its live descendants, and those
    the kernel reaps (each counted once)."""
    sampled = kernel_reaped.sample()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = time.process_time() + reaped.ru_utime + reaped.ru_stime + kernel_reaped.seconds()
    for process in psutil.Process().children(recursive=True):
        if process.pid in sampled:
            continue
        with contextlib.suppress(psutil.Error):  # gone since it was listed
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


class Phases:
    """Each phase's seconds so far; ``start-up`` is what the process spent before this."""

    def __init__(self):
        self._born = psutil.Process().create_time()
        self.phases = {name: Phase(lane) for name, lane in PHASES.items()}
        self.phases["start-up"] = Phase("main", time.time() - self._born, time.process_time())
        self._lock, self._timed_cpu, self._reaped = threading.Lock(), 0.0, KernelReaped()

    def _add(self, name: str, wall: float, cpu: float, timed: bool) -> None:
        with self._lock:
            self.phases[name].wall_s += wall
            self.phases[name].cpu_s += cpu
            self._timed_cpu += cpu if timed else 0.0

    @contextlib.contextmanager
    def timed(self, name: str):
        """Time the block as ``name``, on the calling thread's CPU (never nest two)."""
        wall, cpu = time.monotonic(), time.thread_time()
        try:
            yield
        finally:
            self._add(name, time.monotonic() - wall, time.thread_time() - cpu, timed=True)

    @contextlib.contextmanager
    def remainder(self, name: str):
        """Time the block as ``name``: the tree's CPU less the ``timed`` phases' meanwhile."""
        wall, tree, timed = time.monotonic(), _tree_cpu(self._reaped), self._timed_cpu
        try:
            with self._reaped.sampling():
                yield
        finally:
            spent = _tree_cpu(self._reaped) - tree - (self._timed_cpu - timed)
            self._add(name, time.monotonic() - wall, max(0.0, spent), timed=False)

    def record(self, notebooks: int) -> dict:
        """The run so far as data: per phase, and in all (seconds since the process began)."""
        wall, cpu = time.time() - self._born, _tree_cpu(self._reaped)
        phases = {name: dataclasses.asdict(phase) for name, phase in self.phases.items()}
        counted = sum(phase["cpu_s"] for name, phase in phases.items() if name != "other")
        phases["other"]["cpu_s"] = max(0.0, cpu - counted)
        return {"notebooks": notebooks, "cores": os.cpu_count(), "wall_s": wall,
                "cpu_s": max(cpu, counted), "phases": phases}

    def write(self, path: Path, notebooks: int) -> None:  # overwritten by each run
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.record(notebooks), indent=1), encoding="utf-8")
