"""The judge's handle on the student's process.

``RemoteStudent(cells).fn(*args)`` sends ``args`` to a fresh worker process
(``_worker``) that has run the notebook's cells, and returns a decoded copy of
the answer. Limits: each cell and each call has a wall-clock budget; a cell
that hangs or kills the worker is skipped on restart; a function that timed
out fails fast afterwards, so shrinking a failing example costs no more waits.
Memory: a process that holds more than its limit above where it started is
killed (``_memory_watch``), and says so. The process and its pipes are a ``_channel``.
"""

import shutil
import tempfile
import time

from grader import _wire
from grader._errors import (
    MissingDefinition,
    StudentCrashed,
    StudentError,
    StudentRaised,
    StudentTimeout,
    UngradableResult,
)
from grader._harness import harness_source
from grader._settings import Settings
from grader.judge._call_record import LastCall
from grader.judge._channel import Channel, MemoryLimitExceeded, in_gib
from grader.judge._describe import describe_call
from grader.student import _sandbox

__all__ = ["RemoteStudent", "configured_student", "MemoryLimitExceeded"]


class RemoteStudent:
    """Attribute access to the student's functions, each call a round trip.

    ``last_call``: where each call notes itself (``_call_record``): the handle's own, or
    the grading plugin's, which it hands every handle it grades with.
    """

    # The time limits' defaults are the settings' (one value each, ``grader._settings``).
    def __init__(self, cells: list[str], call_timeout: float = Settings.call_timeout,
                 cell_timeout: float = Settings.cell_timeout, max_restarts: int = 3,
                 limits: _sandbox.Limits = _sandbox.DEFAULT_LIMITS,
                 notebook_timeout: float = Settings.notebook_timeout,
                 last_call: LastCall | None = None):
        self.last_call = LastCall() if last_call is None else last_call
        self._limits, self._notebook_timeout = limits, notebook_timeout
        self._deadline = time.monotonic() + notebook_timeout
        self._output_left = _wire.NOTEBOOK_OUTPUT_LIMIT
        self._cells, self._reports = list(cells), {}
        self._call_timeout, self._cell_timeout = call_timeout, cell_timeout
        self._restarts_left = max_restarts
        self._failing_fast: dict[str, Exception] = {}
        self._workdir = tempfile.mkdtemp(prefix="tensor-anatomy-student-")
        self._channel, self._cells_pending = None, False

    def spawn(self) -> None:
        """Launch the process now, so it imports torch while the caller does other work."""
        if self._channel is None:
            self._channel, self._cells_pending = Channel(self._workdir, self._limits), True

    def start(self) -> None:
        """Start the process and run the notebook's cells (otherwise done on first call)."""
        self._ensure_started()

    def cell_reports(self) -> dict[int, dict]:
        """What each cell printed, returned or raised, or why it was skipped."""
        return dict(self._reports)

    def __repr__(self) -> str:
        return "student"

    def __getattr__(self, name: str):
        if name.startswith("_") or name.endswith("_example"):
            # Private names and hypothesis's per-example hooks (looked up on a
            # test's first argument) are never the student's functions.
            raise AttributeError(name)
        return _RemoteFunction(self, name)

    def close(self) -> None:
        if self._channel is not None:
            self._channel.kill()
            self._channel = None
        shutil.rmtree(self._workdir, ignore_errors=True)

    def _ensure_started(self) -> Channel:
        while self._channel is None or self._cells_pending:
            if self._channel is None:
                self._channel = Channel(self._workdir, self._limits)
            self._cells_pending = False
            for index, source in enumerate(self._cells):
                if "skipped" in self._reports.get(index, {}):
                    continue
                if not self._run_cell(index, source):
                    break
        return self._channel

    def _run_cell(self, index: int, source: str) -> bool:
        """Run one cell; False if it cost the process (it is then skipped)."""
        timeout = min(self._cell_timeout, self._time_left())
        try:
            reply = self._channel.request({"op": "exec", "source": source, "cell": index}, timeout)
        except (StudentTimeout, StudentCrashed) as exc:
            self._reports[index] = {"skipped": f"this cell {self._skip_reason(exc, timeout)}, "
                                               "so it was skipped"}
            self._discard_channel()
            return False
        report = {"stdout": self._bounded(reply.get("stdout", ""))}
        if reply.get("status") == "raised":
            report["error"] = [self._bounded(reply.get("type"))[:100],
                               self._bounded(reply.get("message"))]
        elif "result" in reply:
            report["result"] = self._bounded(reply["result"])
        self._reports[index] = report
        return True

    def _skip_reason(self, exc: StudentError, timeout: float) -> str:
        if isinstance(exc, MemoryLimitExceeded):
            return (f"went over the {in_gib(self._limits.memory_bytes)} memory limit and "
                    "stopped the process running it")
        if isinstance(exc, StudentCrashed):
            return "stopped the process running it"
        if timeout > 0:
            return f"did not finish in {self._cell_timeout:g} s"
        return f"was not run: the notebook used up its {self._notebook_timeout:g} s"

    def _bounded(self, text) -> str:
        """``text`` as the feedback may show it: within the cell's and the notebook's bounds."""
        text = text if isinstance(text, str) else ""
        kept = text[:min(_wire.CELL_OUTPUT_LIMIT, self._output_left)]
        self._output_left -= len(kept)
        return kept + ("\n[output cut: too long]" if len(kept) < len(text) else "")

    def _time_left(self) -> float:
        return max(0.0, self._deadline - time.monotonic())

    def _discard_channel(self) -> None:
        self._channel.kill()
        self._channel = None

    def _fail_fast(self, name: str):
        # One raise site for the first timeout and every later one, so that
        # hypothesis sees the same failure each time (not a flaky test).
        raise self._failing_fast[name]

    def _call(self, name: str, args: list, kwargs: dict, harness=None, inputs_after=False):
        self.last_call.sent(args, kwargs)
        key = name if harness is None else f"{name}/{harness.__name__}"
        if key in self._failing_fast:
            self._fail_fast(key)
        if self._restarts_left < 0:
            raise StudentCrashed("your code crashed its process too often; no more calls")
        channel = self._ensure_started()
        if self._time_left() <= 0:
            self._failing_fast[key] = StudentTimeout(
                f"the notebook used up its {self._notebook_timeout:g} s of grading time")
            self._fail_fast(key)
        message = _call_message(name, args, kwargs, harness, inputs_after)
        try:
            reply = channel.request(message, min(self._call_timeout, self._time_left()))
        except StudentTimeout:
            self._discard_channel()
            self._failing_fast[key] = StudentTimeout(
                f"{name}() ran longer than {self._call_timeout:g} s"
                if self._time_left() > 0 else
                f"the notebook used up its {self._notebook_timeout:g} s of grading time")
            self._fail_fast(key)
        except StudentCrashed:
            self._discard_channel()
            self._restarts_left -= 1
            raise
        self.last_call.answered(message, reply)
        try:
            if inputs_after:  # fresh tensors: the judge's own arguments stay as they were
                return _inputs_after(name, _reply_value(name, reply, []))
            return _reply_value(name, reply, _wire.tensors_in([args, kwargs]))
        except StudentError as exc:
            exc.call = describe_call(name, args, kwargs)  # feedback names the input
            raise


class _RemoteFunction:
    """One of the student's functions; each call (or harness run) is a round trip."""

    def __init__(self, student: RemoteStudent, name: str):
        self._student, self._name = student, name

    def __call__(self, *args, **kwargs):
        return self._student._call(self._name, list(args), kwargs)

    def harness(self, harness, *args, **kwargs):
        """``harness(fn, *args, **kwargs)`` run in the student's process (see ``_harness``)."""
        return self._student._call(self._name, list(args), kwargs, harness=harness)

    def with_inputs_after(self, *args, **kwargs):
        """``(result, args_after, kwargs_after)``: the call, and its arguments as it left them.

        All three are new tensors, sharing storage as they did in the student's
        process; the arguments passed here are never modified.
        """
        return self._student._call(self._name, list(args), kwargs, inputs_after=True)


def _call_message(name: str, args: list, kwargs: dict, harness, inputs_after: bool) -> dict:
    # One encoding for both, so that arguments sharing a storage arrive sharing one.
    encoded_args, encoded_kwargs = _wire.encode([args, kwargs])
    message = {"op": "call", "name": name, "args": encoded_args, "kwargs": encoded_kwargs}
    if harness is not None:
        source, entry = harness_source(harness)
        message.update(op="harness", source=source, entry=entry)
    if inputs_after:
        message["inputs_after"] = True
    return message


def _inputs_after(name: str, value) -> tuple:
    # The student's process may send anything: check the shape before unpacking it.
    if type(value) is not list or len(value) != 3 or type(value[1]) is not list \
            or type(value[2]) is not dict:
        raise UngradableResult(f"{name}(): its process did not send back its arguments")
    return tuple(value)


def _reply_value(name: str, reply: dict, shared_with: list):
    status = reply.get("status")
    if status == "ok":
        try:
            return _wire.decode(reply.get("value"), shared_with)
        except _wire.WireError as exc:
            raise UngradableResult(f"{name}() returned something ungradable: {exc}") from None
    if status == "raised":
        raise StudentRaised(str(reply.get("type")), str(reply.get("message")))
    if status == "missing":
        raise MissingDefinition(f"your notebook does not define {name}")
    if status == "ungradable":
        raise UngradableResult(f"{name}(): {reply.get('message')}")
    raise StudentCrashed(f"unexpected reply from your code's process: {status!r}")


def configured_student(cells: list[str], last_call: LastCall | None = None) -> RemoteStudent:
    """A ``RemoteStudent`` with the time limits an instructor may set (``grader._settings``:
    per call, per notebook cell, for the whole notebook), noting its calls in ``last_call``."""
    settings = Settings.from_environment()
    return RemoteStudent(cells, call_timeout=settings.call_timeout,
                         cell_timeout=settings.cell_timeout,
                         notebook_timeout=settings.notebook_timeout, last_call=last_call)
