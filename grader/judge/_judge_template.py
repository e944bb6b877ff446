"""Judges forked from a template process, instead of each starting an interpreter.

A judge's start-up costs 2.3 s of CPU before its first notebook: torch, pytest,
hypothesis, and what torch imports on first use (sympy, for meta tensors). The
grading run is CPU-bound (both cores busy from start to end, on 2 cores), so
every judge after the first paid for the same imports again. A template pays
once: it imports what a judge imports, then waits; each judge is a fork of it,
and forks its own zygote and serves requests as a judge started afresh does
(``_judge_server.serve``). The template never reads a notebook, a check file or
a request: a judge forked from it starts from the state a fresh judge reaches
after its imports.

The grading command's side, ``Template.fork()``, sends the template the judge's
ends of two pipes (``SCM_RIGHTS`` over a socket pair) and returns at once: the
template answers with the judge's pid and a pidfd once it has forked it, and
``ForkedJudge`` stands in for ``Popen`` with them (a judge is the template's
child, not ours). Asking does not wait for the template's imports, so the
grading command's own start-up goes on meanwhile. The template dies with the
grading command (``start_tied``), and each judge with the template (the
parent-death signal).
"""

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import threading

from grader.student import _sandbox

__all__ = ["ForkedJudge", "Template", "serve_forks"]


class ForkedJudge:
    """What ``_judge_server`` uses of a judge's ``Popen``, for a judge the template forks.

    Its pipes work at once (a request waits in the pipe); its pid and pidfd come when
    the template has forked it, which ``poll`` does not wait for: the grading command's
    start-up goes on while the template imports (2.3 s)."""

    def __init__(self, template: "Template", to_judge: int, from_judge: int):
        self._template, self._pid, self._pidfd = template, None, None
        self.stdin, self.stdout = os.fdopen(to_judge, "wb"), os.fdopen(from_judge, "rb")

    def forked(self, pid: int | None, pidfd: int | None) -> None:
        """The template's answer: the judge's pid and pidfd (None: it forked none)."""
        self._pid, self._pidfd = pid, pidfd

    @property
    def pid(self) -> int | None:
        self._template.answered(self, block=True)
        return self._pid

    def poll(self) -> int | None:
        """None while the judge runs or is to be forked; else 1 (its exit status is the
        template's to collect)."""
        if not self._template.answered(self, block=False):
            return None
        if self._pidfd is None:
            return 1
        return 1 if select.select([self._pidfd], [], [], 0)[0] else None

    def kill(self) -> None:
        if self._template.answered(self, block=True) and self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)

    def wait(self) -> int:
        if self._template.answered(self, block=True) and self._pidfd is not None:
            select.select([self._pidfd], [], [])  # readable once the process has exited
            os.close(self._pidfd)
            self._pidfd = None  # exited: poll says so, kill does nothing
        for file in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                file.close()
        return 1


class Template:
    """A template process started under one configuration (environment, folder)."""

    def __init__(self, configuration: tuple[dict[str, str], str | None], niceness: int):
        environment, folder = configuration
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs:
            self.proc = _sandbox.start_tied(
                [sys.executable, "-m", "grader.judge._judge", "--template",
                 str(theirs.fileno())], niceness, pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=environment, cwd=folder)
        self._socket, self._lock = ours, threading.Lock()
        self._unanswered: list[ForkedJudge] = []  # in the order they were asked for
        self.judges: list[ForkedJudge] = []

    def fork(self) -> ForkedJudge:
        """A new judge, asked of the template; it is forked once the template's imports
        are done. EOFError: the template has stopped."""
        judge_in, to_judge = os.pipe()
        from_judge, judge_out = os.pipe()
        judge = ForkedJudge(self, to_judge, from_judge)
        try:
            with self._lock:
                socket.send_fds(self._socket, [b"j"], [judge_in, judge_out])
                self._unanswered.append(judge)
        except OSError:
            judge.wait()
            raise EOFError("the judge template stopped") from None
        finally:
            os.close(judge_in)
            os.close(judge_out)
        self.judges = [other for other in self.judges if other.poll() is None] + [judge]
        return judge

    def answered(self, judge: ForkedJudge, block: bool) -> bool:
        """Whether the template has answered for ``judge`` (reading answers in order);
        without ``block``, False rather than wait for it."""
        with self._lock:
            while judge in self._unanswered:
                if not block and not select.select([self._socket], [], [], 0)[0]:
                    return False
                try:
                    pid, fds, _, _ = socket.recv_fds(self._socket, 32, 1)
                except OSError:
                    fds = []
                if not fds:  # stopped: it forks none of those still asked for
                    for waiting in self._unanswered:
                        waiting.forked(None, None)
                    self._unanswered.clear()
                    break
                self._unanswered.pop(0).forked(int(pid), fds[0])
        return True

    def judges_alive(self) -> bool:
        return any(judge.poll() is None for judge in self.judges)

    def close(self) -> None:
        """Stop the template, and with it every judge it forked."""
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        with self._lock:
            for waiting in self._unanswered:
                waiting.forked(None, None)
            self._unanswered.clear()
            self._socket.close()


# --- the template's side -----------------------------------------------------------------


def _reap(*_) -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def serve_forks(fd: int, serve_judge) -> int:
    """Fork a judge for each request on socket ``fd``: ``serve_judge()`` is its life."""
    requests, template = socket.socket(fileno=fd), os.getpid()
    signal.signal(signal.SIGCHLD, _reap)  # a stopped judge is collected here
    while True:
        _, fds, _, _ = socket.recv_fds(requests, 1, 2)
        if len(fds) != 2:
            return 0  # the grading command closed its end
        pid = os.fork()
        if pid == 0:
            _become_judge(requests, fds, template, serve_judge)
        pidfd = os.pidfd_open(pid)
        try:
            socket.send_fds(requests, [str(pid).encode()], [pidfd])
        finally:
            for own in (*fds, pidfd):  # the judge's ends are its alone: EOF reaches it
                os.close(own)


def _become_judge(requests: socket.socket, fds: list[int], template: int, serve_judge):
    """In the forked child: the two pipes become stdin and stdout; serve. Never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a judge waits for its own children
        _sandbox.die_with(template)
        requests.close()
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        os.close(fds[0])
        os.close(fds[1])
        code = serve_judge()
    finally:
        os._exit(code)
