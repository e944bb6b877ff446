"""While a notebook is graded, nothing its process can import answers an exercise.

A probe cell is graded for real (``reachable/probe.py``): from inside the
student's sandbox it lists what of the course it can read, imports every module
it can, and calls each of their functions and classes on every exercise's
public examples, exactly as the public check calls the exercise's function
(directly, through its harness, or watching its arguments change). The
instructor's solutions give the answers it compares with; a module-level
table that holds most of a finite exercise's answers counts too. The
calibration test runs the same search on modules that do answer (an oracle, a
widget), so an empty result means something.
"""

import base64
import contextlib
import copy
import functools
import json
import pickle
import types

import pytest
import torch
from reachable import probe
from support import COURSE, ROOT, solution_namespace

from grader._harness import harness_source
from grader.checks import exercise_names
from grader.checks._registry import registered
from grader.judge import _judge_server
from grader.judge._judge_server import judge

CHECKS = ROOT / "tests" / "hostile" / "checks_double.py"
RIGHT = "def double(x):\n    return x * 2\n"
# What the student's process runs on: in its memory because it was forked from
# the judge's zygote, and not importable from any file it can read.
MACHINERY = {
    "grader", "grader._course", "grader._errors", "grader._notebook", "grader.checks",
    "grader.checks._local", "grader.checks._registry", "grader.checks._test_cell",
    "grader.judge", "grader.judge._call_record", "grader.judge._channel",
    "grader.judge._cuda_probe", "grader.judge._describe", "grader.judge._memory_watch",
    "grader._settings",
    "grader.judge._judge", "grader.judge._judge_server", "grader.judge._judge_template",
    "grader.judge._plugin",
    "grader.judge._remote", "grader.judge._replay", "grader.judge._replay_file",
    "grader.student", "grader._harness",
    "grader.student._landlock", "grader.student._libc", "grader.student._namespaces",
    "grader.student._sandbox", "grader.student._syscalls", "grader._wire",
    "grader.student._worker", "grader.student._zygote",
}


class _Stop(BaseException):
    """Raised by the recorder at the exercise's first call: the check need not go on."""


class _Recorder:
    """Stands in for the student's function and records how the public check calls it."""

    def __init__(self):
        self.call = None

    def __call__(self, *args, **kwargs):
        self.call = ("call", None, args, kwargs)
        raise _Stop

    def harness(self, harness, *args, **kwargs):
        self.call = ("call", harness, args, kwargs)
        raise _Stop

    def with_inputs_after(self, *args, **kwargs):
        self.call = ("inputs_after", None, args, kwargs)
        raise _Stop


def _recorded_calls(name: str) -> list[tuple]:
    entry, calls = registered()[name], []
    for example, kwargs in entry.cases():  # a stored check's truth is given, as in check()
        recorder = _Recorder()
        with contextlib.suppress(_Stop):
            entry.compare(recorder, *example, **kwargs)
        if recorder.call is not None:
            calls.append(recorder.call)
    return calls


@functools.cache
def _solutions() -> dict:
    """Every exercise's function, from the instructor's solution notebooks."""
    functions = {}
    for assignment in COURSE.assignments():
        functions.update({k: v for k, v in solution_namespace(assignment).items() if callable(v)})
    return functions


def _plain(value):
    """Tensors detached, named tuples as tuples: what unpickles without the course's code."""
    if isinstance(value, torch.Tensor):
        return value.detach()
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _truth(fn, kind, harness, args, kwargs):
    args, kwargs = copy.deepcopy((args, kwargs))
    try:
        result = probe._harness(harness)(fn, *args, **kwargs) if harness else fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - raising like torch is the answer there
        return ("raises", type(exc).__name__)
    return _plain((result, args, kwargs) if kind == "inputs_after" else result)


def _case(fn, kind, harness, args, kwargs) -> tuple:
    args, kwargs = _plain(args), _plain(kwargs)
    source = harness_source(harness)[::-1] if harness else None  # (name, source)
    return (kind, source, pickle.dumps(args), pickle.dumps(kwargs),
            _truth(fn, kind, source, args, kwargs))


@functools.cache
def cases() -> dict:
    """Exercise -> its public examples with the solution's answers, as the probe takes them."""
    return {name: [_case(_solutions()[name], *call) for call in _recorded_calls(name)]
            for name in sorted(exercise_names())}


def _probe_source() -> str:
    encoded = base64.b64encode(pickle.dumps(cases())).decode("ascii")
    source = probe.__loader__.get_source(probe.__name__)
    return source.replace('CASES_PICKLE = "..."', f'CASES_PICKLE = "{encoded}"', 1) \
        .replace('PACKAGE_ROOT = "..."', f"PACKAGE_ROOT = {str(ROOT)!r}", 1)


@pytest.fixture(scope="module")
def report() -> dict:
    mp = pytest.MonkeyPatch()
    mp.setenv("TENSOR_ANATOMY_CELL_TIMEOUT", "240")
    _judge_server.close_idle()  # judges started earlier keep their environment
    try:
        cells = [RIGHT, _probe_source()]
        nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]}
        verdict = judge(nb, "reachable", timeout=600, checks=CHECKS)
    finally:
        _judge_server.close_idle()
        mp.undo()
    cell = verdict["cells"]["1"]
    assert "error" not in cell and "skipped" not in cell, cell
    return json.loads(cell["stdout"].splitlines()[-1])


def test_every_exercise_has_cases_with_the_solutions_answers():
    assert set(cases()) == set(exercise_names())
    assert all(cases().values()), [name for name, found in cases().items() if not found]


def test_the_graded_process_reads_only_the_givens(report):
    givens = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "grader" / "givens").glob("*.py"))
    assert report["files"] == givens


def test_nothing_it_can_import_answers_an_exercise(report):
    assert report["exercises"] == sorted(exercise_names())
    assert "grader.givens.creating_tensors" in report["imported"]
    assert report["tried"] >= len(report["exercises"]) * 5
    assert report["found"] == []


def test_in_its_memory_is_only_the_machinery_it_runs_on(report):
    assert set(report["in_memory"]) <= MACHINERY | set(report["imported"])


HANDWRITTEN = """
def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))
"""


def test_the_search_finds_answers_where_a_module_holds_them():
    from grader.checks import _finite_answers
    from grader.checks.storage_strides import _oracle as storage_strides_oracle

    handwritten = types.ModuleType("handwritten")
    exec(HANDWRITTEN, handwritten.__dict__)
    modules = {m.__name__: m for m in (handwritten, storage_strides_oracle)}
    found, _ = probe.search(modules, cases())
    assert "handwritten.row_major answers contiguous_strides" in found
    assert "grader.checks.storage_strides._oracle.torch_can_view answers can_view" in found
    tables = {"table": {op: _finite_answers.torch_view_or_copy(op) for op in
                        _finite_answers.OPERATIONS}}
    found, _ = probe.search({"tables": type("M", (), tables)}, cases())
    assert found == ["tables.table holds the answers of view_or_copy"]
