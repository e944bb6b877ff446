"""Stored verdicts are found again only when nothing they depend on has changed."""

import functools
from dataclasses import fields
from pathlib import Path

import pytest

from grader._settings import Settings, judge_variables, variable
from grader.store import _verdicts


@pytest.mark.parametrize("change", [
    ("setting", "TENSOR_ANATOMY_CALL_TIMEOUT", "3"),
    ("setting", "TENSOR_ANATOMY_CELL_TIMEOUT", "7"),
    ("setting", "TENSOR_ANATOMY_NOTEBOOK_TIMEOUT", "99"),
    ("setting", "TENSOR_ANATOMY_ALLOW_UNCONFINED", "1"),
    ("version", "torch", "2.99.0"),
    ("version", "hypothesis", "9.0.0"),
    ("version", "python", "3.99.0"),
    ("grader", "student/_sandbox.py", "# another grader"),
    ("grader", "hidden/storage_strides/test.py", "# other checks"),
    ("grader", "givens/storage_strides.py", "# other givens"),
    ("grader", "checks/_finite_answers.py", "# other finite answers"),
    ("grader", "checks/answer_digests.json", "{}"),
    ("grader", "checks/shape_ops_broadcasting/_oracle.py", "# another chapter's oracle"),
])
def test_a_stored_verdict_is_missed_when_anything_it_depends_on_changes(change, monkeypatch):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    assignment = "01_storage_strides"
    for name in judge_variables():
        monkeypatch.delenv(name, raising=False)
    before = _verdicts.verdict_key(nb, assignment)
    kind, name, value = change
    if kind == "setting":
        monkeypatch.setenv(name, value)
    elif kind == "version":
        real = _verdicts._versions()
        index = {"python": 0, "torch": 2, "hypothesis": 3}[name]
        forged = (*real[:index], value, *real[index + 1:])
        monkeypatch.setattr(_verdicts, "_versions", lambda: forged)
    else:
        real_read = Path.read_bytes
        target = _verdicts._GRADER / name

        def read_bytes(path):
            return value.encode() if path == target else real_read(path)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
        _verdicts._grader_digest.cache_clear()
        monkeypatch.setattr(_verdicts, "_grader_digest",
                            functools.cache(_verdicts._grader_digest.__wrapped__))
    assert _verdicts.verdict_key(nb, assignment) != before


def _other(setting) -> str:
    """A value other than ``setting``'s default, as its variable is written."""
    kinds = ((bool, "1"), (float, "0.5"), (frozenset, "replay"), (Path, "/elsewhere"))
    return next((value for kind, value in kinds if isinstance(setting.default, kind)), "other")


def test_every_setting_a_verdict_depends_on_is_in_its_key_and_no_other(monkeypatch):
    """The key hashes the settings marked ``verdict`` (``grader._settings``), whole and
    typed: a new one is in the key the day it is declared; the language validate speaks,
    the gradebook's URL or the LMS are not (the same verdict, found again)."""
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    for setting in fields(Settings):
        monkeypatch.delenv(variable(setting.name), raising=False)
    before = _verdicts.verdict_key(nb, "01_storage_strides")
    for setting in fields(Settings):
        with monkeypatch.context() as changed:
            changed.setenv(variable(setting.name), _other(setting))
            moved = _verdicts.verdict_key(nb, "01_storage_strides") != before
        assert moved is setting.metadata["verdict"], setting.name
    monkeypatch.setenv(variable("call_timeout"), "10")  # the default, written out
    assert _verdicts.verdict_key(nb, "01_storage_strides") == before


def test_a_broken_or_foreign_stored_verdict_is_never_used(tmp_path):
    """A stale verdict only costs time: anything but a whole verdict of this assignment,
    under this key, is passed over, and the notebook is judged again."""
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    verdict = {"assignment": "01_storage_strides", "exercises": {}}
    _verdicts.store_verdict(tmp_path, nb, "01_storage_strides", verdict)
    assert _verdicts.stored_verdict(tmp_path, nb, "01_storage_strides") == verdict
    (path,) = tmp_path.glob("*.json")
    for broken in ("", '{"assignment": "01_stor', '{"assignment": "02_creating_tensors"}', "[]"):
        path.write_text(broken)
        assert _verdicts.stored_verdict(tmp_path, nb, "01_storage_strides") is None
