"""nbgrader's steps in the grading process (``grader.bridge._steps``)."""

import os
import sqlite3
import sys
import threading
import warnings

import nbformat
import pytest
from nbconvert.exporters import NotebookExporter
from nbconvert.preprocessors import ClearOutputPreprocessor, Preprocessor
from nbformat import v4
from nbgrader.api import Gradebook
from support import ROOT
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from grader.bridge import _step_warnings, _steps


def _schema(path) -> tuple:
    with sqlite3.connect(path) as db:
        tables = sorted(db.execute("SELECT type, name, sql FROM sqlite_master"))
        return tables, db.execute("SELECT version_num FROM alembic_version").fetchall()


def test_a_fresh_gradebook_is_created_exactly_as_nbgrader_creates_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", _steps.with_scripts_on_path()["PATH"])  # nbgrader runs alembic
    ours, theirs = tmp_path / "ours.db", tmp_path / "theirs.db"
    _steps._create_tables(f"sqlite:///{ours}")
    Gradebook(f"sqlite:///{theirs}").close()
    assert _schema(ours) == _schema(theirs)
    assert _schema(ours)[1]  # stamped with a revision


def test_an_existing_gradebook_is_left_as_it_is(tmp_path):
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    _steps._create_tables(url)
    with Gradebook(url) as gradebook:
        gradebook.add_student("ada")
    _steps._create_tables(url)
    with Gradebook(url) as gradebook:
        assert [s.id for s in gradebook.students] == ["ada"]


class _Breaks(Preprocessor):
    enabled = True

    def preprocess(self, nb, resources):
        nb.cells[0]["cell_type"] = "not a cell type"
        return nb, resources


def test_nbgrader_s_steps_validate_a_notebook_once_and_still_refuse_an_invalid_one(monkeypatch):
    """nbconvert validates after the last preprocessor only (``optimistic_validation``)."""
    ours = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    validated = []
    monkeypatch.setattr(nbformat, "validate", lambda *a, **k: validated.append(1))

    def validations(config, preprocessors: int) -> int:
        validated.clear()
        NotebookExporter(config=config, preprocessors=[ClearOutputPreprocessor] * preprocessors
                         ).from_notebook_node(v4.new_notebook(cells=[v4.new_code_cell("x")]))
        return len(validated)

    assert validations(Config(), 5) == validations(Config(), 1) + 4  # stock: after each one
    assert validations(ours, 5) == validations(ours, 1)  # ours: after the last
    monkeypatch.undo()
    with pytest.raises(nbformat.ValidationError):
        NotebookExporter(config=ours, preprocessors=[ClearOutputPreprocessor, _Breaks]
                         ).from_notebook_node(v4.new_notebook(cells=[v4.new_code_cell("x")]))


def test_nbgrader_s_start_up_changes_nothing_a_judge_is_started_with(tmp_path, monkeypatch):
    """A grading run puts nbgrader's scripts on PATH before its judges start; nbgrader's
    start-up beside them (its steps, the course's config) then leaves PATH as it is: an
    idle judge started under another configuration would be replaced by the next one."""
    from grader._course import Course
    from grader.judge import _judge_server

    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(tmp_path))
    monkeypatch.delenv("TENSOR_ANATOMY_DB_URL", raising=False)
    monkeypatch.setenv("PATH", os.defpath)  # no virtual environment's scripts on it
    _steps.scripts_first_on_path()
    started_with = _judge_server._key(_judge_server._configuration())
    _steps.NbgraderSteps(Course.find(), tmp_path / "release")
    _steps.scripts_first_on_path()
    assert _judge_server._key(_judge_server._configuration()) == started_with
    assert os.environ["PATH"].split(os.pathsep).count(os.path.dirname(sys.executable)) == 1


def test_a_step_keeps_its_own_warnings_and_other_threads_still_show_theirs(monkeypatch):
    shown = []
    monkeypatch.setattr(warnings, "showwarning", lambda message, *rest: shown.append(str(message)))
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with _step_warnings.kept() as warned:
            warnings.warn("raised by the step", stacklevel=1)
            other = threading.Thread(target=warnings.warn, args=("raised beside it",))
            other.start()
            other.join()
        warnings.warn("raised after it", stacklevel=1)
    assert len(warned) == 1 and "UserWarning: raised by the step" in warned[0]
    assert shown == ["raised beside it", "raised after it"]


def test_steps_in_two_threads_at_once_keep_their_own_and_leave_warnings_shown_after(monkeypatch):
    shown = []
    monkeypatch.setattr(warnings, "showwarning", lambda message, *rest: shown.append(str(message)))
    b_in, a_out, b_kept = threading.Event(), threading.Event(), []

    def step_b():
        with _step_warnings.kept() as warned:
            b_in.set()
            a_out.wait()
            warnings.warn("raised by B", stacklevel=1)
        b_kept.extend(warned)

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with _step_warnings.kept() as a_kept:  # A: this thread; B starts inside, ends after
            b = threading.Thread(target=step_b)
            b.start()
            b_in.wait()
            warnings.warn("raised by A", stacklevel=1)
        a_out.set()
        b.join()
        warnings.warn("raised after both", stacklevel=1)
    assert ["raised by A" in w for w in a_kept] == [True]
    assert ["raised by B" in w for w in b_kept] == [True]
    assert shown == ["raised after both"]
