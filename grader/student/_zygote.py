"""A fork server for students' processes: torch is imported once, not per notebook.

Importing torch costs seconds of CPU; a judge needs a fresh process for every
notebook (and again after a crash). The zygote has imported torch (and what
torch imports on first use) and has seen no notebook, then waits. A warm
judge forks its zygote from itself before its first notebook, so torch is
imported once per judge (``fork_zygote_here``): the zygote holds the
judge's modules but no notebook, verdict or hidden check. Anywhere else the
zygote is a fresh interpreter that imports torch and nothing of the grading
(``python -m grader.student._zygote``). For each student it
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

from grader._course import speed_pieces_off
from grader.student import _sandbox, _worker

__all__ = ["Zygote", "first_use_imports", "fork_zygote_here", "zygote"]

class _ForkedProcess:
    """What a judge needs of the zygote it forked: the calls of ``Popen`` it makes."""

    def __init__(self, pid: int):
        self.pid, self.returncode = pid, None

    def poll(self) -> int | None:
        if self.returncode is None and os.waitpid(self.pid, os.WNOHANG)[0]:
            self.returncode = -1
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> int:
        if self.returncode is None:
            os.waitpid(self.pid, 0)
            self.returncode = -1
        return self.returncode


class Zygote:
    """The judge's handle on its fork server (started on first use)."""

    def __init__(self, fork_this_process: bool = False, private: bool = False):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket, self._lock, self.private = ours, threading.Lock(), private
        if fork_this_process:
            self.proc = _ForkedProcess(_fork_zygote(theirs, ours))
            theirs.close()
            return
        env = _sandbox.judge_environment(OMP_NUM_THREADS="1", MPLBACKEND="Agg")
        self.proc = _sandbox.start_tied(
            [sys.executable, "-m", "grader.student._zygote", str(theirs.fileno())],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),), env=env, start_new_session=True)
        theirs.close()

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

    def release(self) -> None:
        """Done with the child forked from it: a private zygote stops (a shared one stays)."""
        if self.private:
            self.proc.kill()
            self.proc.wait()
            self._socket.close()


_current: Zygote | None = None


def zygote() -> Zygote:
    """This process's zygote, started (again) if there is none alive.

    With the zygote benched (``speed_pieces_off``), a fresh one for the caller
    alone, which stops it with its one child (``Zygote.release``): each
    student's process then pays torch's import, as without a zygote.
    """
    global _current
    if "zygote" in speed_pieces_off():
        return Zygote(private=True)
    if _current is None or not _current.alive():
        _current = Zygote()
    return _current


def fork_zygote_here() -> None:
    """Make this process's zygote a fork of it, now (a judge, before its first notebook).

    A judge has imported torch, and what torch imports on first use, by then;
    its zygote need not import them again. Call it before this process starts
    threads of its own or reads any notebook or hidden check: the zygote, and
    every student's process after it, keeps what this process holds.
    """
    global _current
    first_use_imports()
    _current = Zygote(fork_this_process=True)


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
        os.chdir(workdir)
        _sandbox.confine(_sandbox.Limits(**request["limits"]), workdir,
                         tuple(request["hidden"]), zygote_pid)
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


def _become_zygote(channel: socket.socket) -> None:
    # Children are reaped by the kernel: the judge kills them by process group.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    _sandbox.protect_judge()  # no student may write into the memory its successors fork from
    import torch

    torch.set_num_threads(1)
    first_use_imports()
    _serve(channel)


def first_use_imports() -> None:
    """What torch imports on first use, imported once here rather than by every student.

    The first operation on a meta tensor imports torch's meta registrations,
    sympy among them: about 2.5 s of CPU, in each notebook whose checks send
    meta tensors. Every child still starts from the same state.
    """
    import torch

    probe = torch.ones(2, 3, device="meta")
    (probe * probe).sum(0)


def _fork_zygote(channel: socket.socket, judges_end: socket.socket) -> int:
    """Fork this process into a zygote serving on ``channel``; its pid."""
    judge = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    try:  # the zygote, as the exec'd one starts: its own session, no file but its socket
        os.setsid()
        _sandbox.die_with(judge)
        judges_end.close()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        keep = channel.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, os.sysconf("SC_OPEN_MAX"))
        os.environ.update(OMP_NUM_THREADS="1", MPLBACKEND="Agg")
        _become_zygote(channel)
    finally:
        os._exit(0)


def main() -> None:
    _become_zygote(socket.socket(fileno=int(sys.argv[1])))


if __name__ == "__main__":
    main()
