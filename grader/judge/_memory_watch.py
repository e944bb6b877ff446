"""The student's memory, watched from the judge: every kind the process can map, counted.

``RLIMIT_DATA`` counts private writable mappings only: not a shared anonymous
mapping (which CUDA needs, so the syscall filter allows it), not a shared
mapping of ``/dev/zero``, not ``MAP_GROWSDOWN``. The kernel counts each of
them, once touched, in the process's ``/proc/PID/status``: ``RssAnon``
(private, grows-down), ``RssShmem`` (shared anonymous, ``/dev/zero``, tmpfs),
``VmSwap``. The judge reads them every ``PERIOD`` and kills the process whose
total has grown past its limit.

Why a watch and not a cgroup: ``status`` is readable by anyone, even for a
process that is not dumpable, so this works for a grader that is root or not,
under cgroup v1, v2 or none, with nothing to create or clean up. And the
limit is the same on every build: the baseline (what the student's process
holds when it says it is ready, before any student code: the zygote's pages,
which CUDA's libraries make about 1 GiB bigger) is subtracted. Its costs: a
process may overshoot by what it touches in one period (a few hundred MiB at
most); memory held without a mapping is not seen (memfd and SysV shared
memory are refused by the filter, the tmpfs holds 64 MiB, pipes and sockets
are bounded by open files); driver memory outside the process's pages (pinned
host memory the GPU driver maps itself) is not counted.
"""

import os
import select
import signal
import threading

__all__ = ["MemoryWatch", "PERIOD", "mapped_bytes", "student_process"]

PERIOD = 0.01  # seconds between two readings: about 100 MiB of touched pages at 10 GB/s
_COUNTED = ("RssAnon:", "RssShmem:", "VmSwap:")


def mapped_bytes(pid: int) -> int:
    """Bytes of memory process ``pid`` holds in its own pages: private, shared and swapped."""
    with open(f"/proc/{pid}/status", "rb") as status:
        lines = status.read().decode().splitlines()
    return sum(int(line.split()[1]) * 1024 for line in lines if line.startswith(_COUNTED))


def student_process(forked: int) -> int:
    """The process that runs the student's code: the only child of the set-up process the
    zygote forked (``_namespaces.enter``), or that process itself without namespaces."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            if parent == forked:
                return int(entry)
    return forked


class MemoryWatch:
    """Kills the student's process once it holds ``limit`` bytes more than at the start."""

    def __init__(self, forked: int, limit: int):
        self.limit, self.exceeded, self._stopped = limit, False, False
        pid = student_process(forked)
        self._pidfd = os.pidfd_open(pid)  # names this process even once its pid is reused
        self._budget = mapped_bytes(pid) + limit
        threading.Thread(target=self._watch, args=(pid,), daemon=True,
                         name=f"memory-watch-{pid}").start()

    def stop(self) -> None:
        """No more readings (the thread ends within ``PERIOD``)."""
        self._stopped = True

    def _watch(self, pid: int) -> None:
        try:
            # The pidfd turns readable when the process ends: then there is nothing to watch.
            while not self._stopped and not select.select([self._pidfd], [], [], PERIOD)[0]:
                if mapped_bytes(pid) > self._budget:
                    self.exceeded = True  # before the kill: the judge reads it at end of file
                    signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
                    return
        except OSError:
            return  # the process ended between two readings
        finally:
            os.close(self._pidfd)
