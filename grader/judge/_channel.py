"""One student process and its two pipes, with deadlines on every read and write.

``Channel(workdir, limits)`` forks a worker (``grader.student._worker``) from the zygote,
confined; ``request(message, timeout)`` sends one framed message (``grader._wire``) and
returns the reply, or raises ``StudentTimeout`` past its deadline, ``StudentCrashed`` if
the process stopped, ``MemoryLimitExceeded`` if it was killed for holding more memory than
its limit (``_memory_watch``). What a failure costs the student is the handle's to decide
(``_remote.RemoteStudent``).
"""

import contextlib
import os
import select
import signal
import time
from pathlib import Path

from grader import _wire
from grader._course import Course
from grader._errors import StudentCrashed, StudentTimeout
from grader.judge._memory_watch import MemoryWatch
from grader.student import _sandbox
from grader.student._zygote import zygote

__all__ = ["Channel", "MemoryLimitExceeded", "in_gib"]


class MemoryLimitExceeded(StudentCrashed):
    """The student's process held more memory than its limit, and was killed for it."""


class Channel:
    """One worker process and its two pipes, with deadlines on every read."""

    def __init__(self, workdir: str, limits: _sandbox.Limits, startup_timeout: float = 120.0):
        requests, self._requests = os.pipe()
        self._replies, replies = os.pipe()
        try:
            self._zygote = zygote()
            self.pid, self._pidfd = self._zygote.fork(workdir, _hidden_paths(), limits,
                                                      requests, replies)
        finally:
            os.close(requests)
            os.close(replies)
        self._next_id, self._memory_limit, self._watch = 0, limits.memory_bytes, None
        self._startup_timeout, self._ready = startup_timeout, False

    def _handshake(self) -> None:
        # Starting the process (importing torch, the first time the zygote starts)
        # is the grader's cost, not the student's: no cell's clock runs yet.
        deadline = time.monotonic() + self._startup_timeout
        try:
            hello = _wire.receive(lambda n: self._read(n, deadline))
        except (EOFError, _wire.WireError, ValueError, StudentTimeout) as exc:
            self.kill()
            raise RuntimeError(f"the student worker failed to start: {exc}") from None
        if hello.get("status") != "ready":
            self.kill()
            raise RuntimeError("the student worker failed to start")
        self._ready = True
        # Started now, before any student code runs: what the process holds here (the
        # zygote's libraries) is not the student's to pay for.
        with contextlib.suppress(ProcessLookupError):  # died already: the next read says so
            self._watch = MemoryWatch(self.pid, self._memory_limit)

    def request(self, message: dict, timeout: float) -> dict:
        if not self._ready:
            self._handshake()
        deadline = time.monotonic() + timeout
        self._next_id += 1
        message = {**message, "id": self._next_id}
        try:
            self._write(_wire.frame(message), deadline)
            reply = _wire.receive(lambda n: self._read(n, deadline))
        except (BrokenPipeError, EOFError, _wire.WireError, ValueError) as exc:
            if self._watch is not None and self._watch.exceeded:
                raise MemoryLimitExceeded(
                    f"your code went over its {in_gib(self._memory_limit)} memory limit, "
                    "so its process was stopped") from None
            raise StudentCrashed(f"the process running your code stopped ({exc})") from None
        if reply.get("id") != self._next_id:
            raise StudentCrashed("the process running your code answered out of turn")
        return reply

    def _write(self, data: bytes, deadline: float) -> None:
        fd, view = self._requests, memoryview(data)
        while view:
            if not select.select([], [fd], [], _remaining(deadline))[1]:
                raise StudentTimeout("your code did not take its input in time")
            view = view[os.write(fd, view[:65536]):]

    def _read(self, n: int, deadline: float) -> bytes:
        fd, chunks = self._replies, []
        while n:
            if not select.select([fd], [], [], _remaining(deadline))[0]:
                raise StudentTimeout("time limit")
            chunk = os.read(fd, n)
            if not chunk:
                raise EOFError("end of output")
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def kill(self) -> None:
        if self._pidfd < 0:
            return  # killed already
        if self._watch is not None:
            self._watch.stop()
        with contextlib.suppress(ProcessLookupError):  # it may have died already
            signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)  # no pid-reuse race
        for fd in (self._requests, self._replies, self._pidfd):
            os.close(fd)
        self._pidfd = -1
        self._zygote.release()


_COURSE = Course(Path(__file__).resolve().parents[2])  # the checkout this grader is in


def _hidden_paths() -> tuple[str, ...]:
    """Covered in the student's root, should a visible path ever hold them: the instructor
    folder (submissions, gradebook) and the hidden checks."""
    return str(_COURSE.instructor), str(_COURSE.root / "grader" / "hidden")


def in_gib(size: int) -> str:
    """``size`` bytes in words: ``2 GiB``."""
    return f"{size / 2**30:g} GiB"


def _remaining(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())
