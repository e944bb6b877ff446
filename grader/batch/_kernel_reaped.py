"""CPU that no rusage records: processes the kernel reaps, sampled while they live.

A judge's zygote ignores SIGCHLD, so the kernel reaps the students' processes it
forks, and their CPU is added to no parent's: ``getrusage`` and ``/proc`` forget it
when they end. While a window is open a thread reads the own CPU of every process
below one that ignores SIGCHLD, every tick; what one spends after its last tick is
missed (at most a tick, 0.1 s, a process). Its cost: a walk of ``/proc`` a tick
(2.5 ms with 100 processes, measured), never over 1/30 of a core (the tick stretches
with the walk); it is this process's CPU, so it counts in the window it samples.
"""

import contextlib
import threading
import time

import psutil

__all__ = ["KernelReaped"]

_SIGCHLD = 1 << 16  # signal 17, in /proc/<pid>/status's mask of ignored signals


def _ignores_sigchld(pid: int) -> bool:
    with contextlib.suppress(OSError, ValueError):
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("SigIgn:"):
                    return bool(int(line.split()[1], 16) & _SIGCHLD)
    return False


def _below_a_reaper(descendants: list) -> list:
    """The descendants with an ancestor (below this process) that ignores SIGCHLD."""
    parent = {}
    for process in descendants:
        with contextlib.suppress(psutil.Error):
            parent[process.pid] = process.ppid()
    reapers = {pid for pid in set(parent.values()) & set(parent) if _ignores_sigchld(pid)}

    def below(pid: int) -> bool:
        while pid in parent:
            pid = parent[pid]
            if pid in reapers:
                return True
        return False

    return [process for process in descendants if below(process.pid)]


class KernelReaped:
    """The own CPU last read of each process the kernel reaps (or will), by process."""

    def __init__(self):
        self._seen: dict[tuple[int, float], float] = {}
        self._lock = threading.Lock()

    def sample(self) -> set[int]:
        """Read each such process's CPU now; their pids (their CPU is counted here only)."""
        found = _below_a_reaper(psutil.Process().children(recursive=True))
        for process in found:
            with contextlib.suppress(psutil.Error):  # ended since: its last tick stands
                times = process.cpu_times()
                with self._lock:
                    self._seen[process.pid, process.create_time()] = times.user + times.system
        return {process.pid for process in found}

    def seconds(self) -> float:
        with self._lock:
            return sum(self._seen.values())

    @contextlib.contextmanager
    def sampling(self, tick: float = 0.1):
        """Sample every ``tick`` seconds (longer if a walk is slow) while the block runs."""
        stop = threading.Event()

        def run() -> None:
            while True:
                started = time.monotonic()
                self.sample()
                if stop.wait(max(tick, 30 * (time.monotonic() - started))):
                    return

        sampler = threading.Thread(target=run, daemon=True, name="kernel-reaped-sampler")
        sampler.start()
        try:
            yield
        finally:
            stop.set()
            sampler.join()
