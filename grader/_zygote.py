"""A fork server for students' processes: torch is imported once, not per notebook.

Importing torch costs seconds of CPU; a judge needs a fresh process for every
notebook (and again after a crash). The zygote is a clean interpreter that
imports torch and nothing of the grading, then waits. For each student it
forks a child, which confines itself exactly as a freshly started worker did
(``_sandbox.confine``) and then serves the notebook (``_worker.serve``). The
zygote never runs student code, so every child starts from the same clean
state.

Protocol, on a Unix socket the judge holds: the judge sends a JSON request
with the child's two pipe ends attached (SCM_RIGHTS); the zygote answers the
child's pid, with a pidfd for it attached. Chain of custody: the zygote dies
with its judge, each child with the zygote (parent-death signals), and the
zygote reaps its children.
"""

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading

from . import _sandbox, _worker

__all__ = ["Zygote", "zygote"]

class Zygote:
    """The judge's handle on its fork server (started on first use)."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path, "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
        self.proc = _sandbox.start_tied(
            [sys.executable, "-m", "grader._zygote", str(theirs.fileno())],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),), env=env, start_new_session=True)
        theirs.close()
        self._socket, self._lock = ours, threading.Lock()

    def fork(self, workdir: str, hidden: tuple[str, ...], limits: _sandbox.Limits,
             requests: int, replies: int) -> tuple[int, int]:
        """A confined child serving on (``requests``, ``replies``): (its pid, a pidfd).

        The pidfd names that very process even after its pid is reused: the
        zygote reaps children as soon as they die.
        """
        message = json.dumps({"workdir": workdir, "hidden": list(hidden),
                              "limits": limits.__dict__}).encode()
        with self._lock:
            socket.send_fds(self._socket, [message], [requests, replies])
            answer, fds, _, _ = socket.recv_fds(self._socket, 64, 1)
        if not answer or not fds:
            raise OSError("the zygote stopped")
        return int(answer), fds[0]

    def alive(self) -> bool:
        return self.proc.poll() is None


_current: Zygote | None = None


def zygote() -> Zygote:
    """This process's zygote, started (again) if there is none alive."""
    global _current
    if _current is None or not _current.alive():
        _current = Zygote()
    return _current


# --- the zygote's side -------------------------------------------------------------------


def _child(request: dict, requests: int, replies: int, zygote_pid: int) -> None:
    """In the forked child: confine, then serve. Never returns."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        # Only the protocol's pipes stay open: not the zygote's socket, nothing else.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (requests, replies)]
        os.dup2(high[0], 3)
        os.dup2(high[1], 4)
        os.closerange(5, os.sysconf("SC_OPEN_MAX"))
        workdir = request["workdir"]
        os.environ.update(HOME=workdir, TMPDIR=workdir, MPLCONFIGDIR=workdir)
        os.chdir(workdir)
        _sandbox.confine(_sandbox.Limits(**request["limits"]), workdir,
                         tuple(request["hidden"]), _sandbox.processes_of_this_user(), zygote_pid)
        _worker.serve(3, 4)
    finally:
        os._exit(0)


def _serve(channel: socket.socket) -> None:
    while True:
        message, fds, _, _ = socket.recv_fds(channel, 65536, 2)
        if not message:
            return  # the judge closed its end
        me = os.getpid()
        pid = os.fork()
        if pid == 0:
            channel.close()
            _child(json.loads(message), fds[0], fds[1], me)
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        socket.send_fds(channel, [str(pid).encode()], [pidfd])
        os.close(pidfd)


def main() -> None:
    channel = socket.socket(fileno=int(sys.argv[1]))
    # Children are reaped by the kernel: the judge kills them by process group.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    _sandbox.protect_judge()  # no student may write into the memory its successors fork from
    import torch

    torch.set_num_threads(1)
    _serve(channel)


if __name__ == "__main__":
    main()
