"""A call's record stays with whoever reads it: no module of the judge keeps a call
(issue 32: ``judge/_remote.last_call`` was a global read after a failure).

Each ``RemoteStudent`` handle notes its calls in a ``LastCall`` (``grader/judge/
_call_record.py``), its own or the one the grading plugin hands it; the plugin empties
its record around each check and reads it after a failure (the verdict's ``inputs``,
the misconceptions' request and reply).
"""

import ast
import importlib
import inspect
import json
from pathlib import Path

from support import ROOT

from grader.judge import _judge
from grader.judge._call_record import LastCall
from grader.judge._plugin import Grading
from grader.judge._remote import RemoteStudent

JUDGE = ROOT / "grader" / "judge"
DOUBLE = ["import torch", "def double(x):\n    return 2 * x"]
# Three failing checks of one exercise in one session: one calls the student's function,
# one calls nothing, one calls a process of its own (the plugin's start_student).
CHECKS = '''
import pytest
import torch


@pytest.mark.exercise("double")
def test_calls_then_fails(student):
    """calls, then fails"""
    student.double(torch.arange(3.0))
    assert False


@pytest.mark.exercise("double")
def test_fails_before_any_call(student):
    """fails before any call"""
    assert False


@pytest.mark.exercise("double")
def test_calls_its_own_process_then_fails(start_student):
    """calls a process of its own, then fails"""
    start_student(["def triple(x):\\n    return 3 * x"]).triple(7)
    assert False
'''


def _imported_modules(tree: ast.Module) -> set[str]:
    """The names a module binds to modules (``import a.b as c``, ``from pkg import mod``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            package = importlib.import_module(node.module)
            names |= {alias.asname or alias.name for alias in node.names
                      if inspect.ismodule(getattr(package, alias.name, None))}
    return names


def _global_writes(path: Path) -> list[str]:
    """Where ``path`` writes module state at run time: a ``global`` statement, an attribute
    of another module set, a module-level name bound to None (a slot filled later)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules, where = _imported_modules(tree), f"{path.name}:"
    found = [f"{where}{node.lineno} global {', '.join(node.names)}"
             for node in ast.walk(tree) if isinstance(node, ast.Global)]
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        found += [f"{where}{node.lineno} {ast.unparse(t)}" for t in targets
                  if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                  and t.value.id in modules]
    found += [f"{where}{node.lineno} {ast.unparse(node)}" for node in tree.body
              if isinstance(node, (ast.Assign, ast.AnnAssign))
              and isinstance(node.value, ast.Constant) and node.value.value is None]
    return found


def test_no_module_of_the_judge_writes_a_global_at_run_time():
    writes = [write for path in sorted(JUDGE.glob("*.py")) for write in _global_writes(path)]
    assert writes == []


def test_a_handle_notes_its_calls_in_its_own_record_or_the_one_handed_to_it():
    handed = LastCall()
    one, another = RemoteStudent(DOUBLE), RemoteStudent(DOUBLE)
    given = RemoteStudent(DOUBLE, last_call=handed)
    try:
        assert (one.double(3), another.double(4), given.double(5)) == (6, 8, 10)
    finally:
        for handle in (one, another, given):
            handle.close()
    assert one.last_call.arguments == ([3], {}) and another.last_call.arguments == ([4], {})
    assert given.last_call is handed and handed.arguments == ([5], {})
    request, reply = handed.exchange
    assert (request["name"], request["args"], reply["status"]) == ("double", [5], "ok")
    assert one.last_call.exchange[0]["args"] == [3]


def test_each_check_of_a_session_has_its_own_last_call_and_none_is_kept(tmp_path,
                                                                          monkeypatch):
    checks, notebook = tmp_path / "checks_calls.py", tmp_path / "answer.ipynb"
    checks.write_text(CHECKS, encoding="utf-8")
    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "code", "metadata": {}, "source": cell} for cell in DOUBLE]}),
        encoding="utf-8")
    grading = Grading()
    monkeypatch.setattr(_judge, "_GRADING", grading)
    verdict = _judge.run_judge(notebook, "00_calls", checks)
    record = verdict["exercises"]["double"]
    assert (record["passed"], record["total"]) == (0, 3)
    [called, uncalled, own_process] = record["checks"]
    assert called["inputs"] == [{"tensor": {"shape": [3], "stride": [1], "offset": 0,
                                            "storage": 3}}]
    assert uncalled["inputs"] == [] and own_process["inputs"] == [7]
    first, nothing, third = grading.failing_calls["double"]
    assert (first[0]["name"], nothing, third[0]["name"]) == ("double", None, "triple")
    assert third[1]["status"] == "ok"
    # After the run the plugin, which a warm judge keeps, holds no call of it.
    assert (grading.last_call.arguments, grading.last_call.exchange) == (None, None)
