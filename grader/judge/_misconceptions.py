"""Misconceptions by name: which named wrong answer a student's failures look like.

For each exercise that lost points, the judge takes what the student's process
answered to the last call of each failing check (the grading plugin's
``LastCall.exchange``: the request and the reply as they crossed the wire). It
runs each of the exercise's named wrong answers (``grader.hidden.wrong_answers``)
on those same requests, here in the judge, through the very code that answers
calls in the student's process (``_worker``), each on fresh copies of the inputs
decoded from the request. A wrong answer whose every reply is the same answer as
the student's (``same_answer``) names the student's misconception.

Names never change a score: points stay the hidden checks'. The wrong answers
are instructor code; no student code runs here, only the student's replies are
read. Matching that fails, errors or runs out of its time (``BUDGET_SECONDS``
per notebook) names nothing, and says why in the log.
"""

import builtins
import contextlib
import functools
import io
import logging
import signal
import threading
import time
from pathlib import Path

from grader import _notebook, _wire
from grader._course import Course
from grader.checks._compare import (
    first_difference,
    is_tensor,
    scalar_close,
    shares_storage,
    tolerance,
)
from grader.hidden.wrong_answers import named_wrong_answers
from grader.judge._replay import _random_state, _set_random_state
from grader.student import _worker

__all__ = ["BUDGET_SECONDS", "name_misconceptions", "same_answer"]

BUDGET_SECONDS = 5.0  # per notebook: the wrong answers' calls together
FLOAT_RTOL = 1e-6  # two Python floats computed in different ways still agree
_LOG = logging.getLogger(__name__)
_COURSE = Course(Path(__file__).resolve().parents[2])


class _OutOfTime(BaseException):
    """Past the budget: not an ``Exception``, so that no wrong answer's failure hides it."""


# --- one answer against another ----------------------------------------------------------


def _decoded(request: dict, reply: dict):
    """(answer, tensors it may share storage with): the reply decoded as the judge decodes
    it, over fresh copies of the call's inputs."""
    if request.get("inputs_after"):  # [result, args after, kwargs after], as one value
        value = _wire.decode(reply["value"])
        return value, _wire.tensors_in(value[1:])
    inputs = _wire.tensors_in(_wire.decode([request["args"], request["kwargs"]]))
    return _wire.decode(reply["value"], inputs), inputs


def _view_of(t, inputs: list) -> int | None:
    """Which input's storage ``t`` shares (its index), if any."""
    return next((i for i, x in enumerate(inputs) if shares_storage(t, x)), None)


def _same_tensor(a, b, inputs_a: list, inputs_b: list) -> bool:
    traits = ("shape", "dtype", "layout", "requires_grad")
    if any(getattr(a, name) != getattr(b, name) for name in traits) \
            or a.device.type != b.device.type:
        return False
    view = _view_of(a, inputs_a)
    if view != _view_of(b, inputs_b):
        return False  # a view of another input, or a copy where the other is a view
    if view is not None and (a.stride() != b.stride() or a.storage_offset() != b.storage_offset()):
        return False
    if a.device.type == "meta":
        return True
    return first_difference(a, b.detach(), **tolerance(b.dtype)) is None


def _same(a, b, inputs_a: list, inputs_b: list) -> bool:
    if is_tensor(a) or is_tensor(b):
        return is_tensor(a) and is_tensor(b) and _same_tensor(a, b, inputs_a, inputs_b)
    if type(a) is not type(b):  # a list is not a tuple, a bool not an int
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y, inputs_a, inputs_b) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], inputs_a, inputs_b) for k in a)
    if isinstance(a, float):
        return scalar_close(a, b, FLOAT_RTOL, FLOAT_RTOL * 1e-3)
    return a == b


def same_answer(request: dict, student: dict, wrong: dict) -> bool:
    """Whether two replies to ``request`` are the same answer: both raised the same type
    of exception, or both returned values equal in type and structure, tensors alike in
    shape, dtype, device, requires_grad, values (within ``_compare.tolerance``) and in
    which input's storage they view (with the same strides and offset)."""
    if student.get("status") == wrong.get("status") == "raised":
        return student.get("type") == wrong.get("type")
    if not student.get("status") == wrong.get("status") == "ok":
        return False  # missing, ungradable: nothing to compare
    (students, inputs_a), (wrongs, inputs_b) = _decoded(request, student), _decoded(request, wrong)
    return _same(students, wrongs, inputs_a, inputs_b)


# --- the wrong answers, run here --------------------------------------------------------


@functools.cache
def _setup(assignment: str) -> str:
    """The released notebook's setup cell (its imports): what every answer cell runs after."""
    try:
        cells = _notebook.load(_COURSE.release_notebook(assignment))["cells"]
    except (OSError, ValueError):
        return ""
    setup = [c for c in cells
             if _notebook.nbgrader_metadata(c).get("grade_id") == "setup"]
    return "\n\n".join(_notebook.code_cells({"cells": setup}))


@contextlib.contextmanager
def _quiet():
    """What a wrong answer prints goes nowhere (a warm judge's stdout is not ours to print on)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def _namespace(assignment: str, source: str) -> dict:
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    with _quiet():
        for cell in (_setup(assignment), source):
            exec(compile(cell, "<wrong answer>", "exec"), namespace)
    return namespace


# The code that answers calls in the student's process: same decoding of the inputs,
# same encoding of the answer, same reply for an exception.
_ANSWERING = {"call": _worker._call, "harness": _worker._harness}


def _reply(namespace: dict, request: dict) -> dict:
    with _quiet():
        return _ANSWERING[request["op"]](namespace, request)


def _unfinished(reply: dict) -> bool:
    """The stub's bare ``raise NotImplementedError()``: nothing to name."""
    return reply.get("status") == "raised" and reply.get("type") == "NotImplementedError" \
        and not reply.get("message")


def _named(assignment: str, exercise: str, calls: list, deadline: float) -> list[str]:
    """The names of the exercise's wrong answers that answer every failing call as the
    student did; none where a failing check left no answer (timed out, crashed, no call)."""
    if not calls or None in calls or any(_unfinished(reply) for _, reply in calls):
        return []
    named = []
    for mistake, source in named_wrong_answers(assignment).get(exercise, []):
        try:
            namespace = _namespace(assignment, source)
            if all(same_answer(request, reply, _reply(namespace, request))
                   for request, reply in calls):
                named.append(mistake)
        except Exception as exc:  # noqa: BLE001 - this wrong answer names nothing
            _LOG.warning("%s, %s: wrong answer %r not matched: %r", assignment, exercise,
                         mistake, exc)
        if time.monotonic() > deadline:
            raise _OutOfTime(f"over {BUDGET_SECONDS:g} s")
    return named


@contextlib.contextmanager
def _budget(seconds: float):
    """The deadline; in the main thread also an alarm, for a call that never returns."""
    alarm = threading.current_thread() is threading.main_thread()
    if alarm:
        def ring(signum, frame):
            raise _OutOfTime(f"over {seconds:g} s")

        previous = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield time.monotonic() + seconds
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def name_misconceptions(assignment: str, exercises: dict, failing_calls: dict) -> None:
    """Give each record of ``exercises`` (the verdict's) that lost points, and whose every
    failing check (``failing_calls[exercise]``: one ``(request, reply)`` or None per check)
    a named wrong answer fails the same way, ``misconceptions``: their names. All or none."""
    found = {}
    saved = _random_state()  # the wrong answers draw from the judge's generators
    try:
        with _budget(BUDGET_SECONDS) as deadline:
            for exercise, record in exercises.items():
                if record["passed"] < record["total"]:
                    found[exercise] = _named(assignment, exercise,
                                             failing_calls.get(exercise, []), deadline)
    except (Exception, _OutOfTime) as exc:  # noqa: BLE001 - names are a hint, never a grade
        _LOG.warning("%s: no misconception named: %r", assignment, exc)
        return
    finally:
        _set_random_state(saved)
    for exercise, names in found.items():
        if names:
            exercises[exercise]["misconceptions"] = names
