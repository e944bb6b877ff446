"""nbgrader's steps in the grading process (``grader.bridge._steps``)."""

import sqlite3

from nbgrader.api import Gradebook

from grader.bridge import _steps


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
