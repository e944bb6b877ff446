"""nbgrader's gradebooks share an engine per database during a grading run
(``grader.bridge._engines``): what they write and read is as with an engine each."""

import contextlib
import threading

import nbgrader.api
from nbgrader.api import Gradebook

from grader.batch import _run
from grader.bridge import _steps
from grader.bridge._engines import shared_engines


def _gradebook_at(tmp_path, name: str) -> str:
    """A new gradebook's URL, its tables made as the grading run makes them (nbgrader's own
    way runs alembic, about 2 s)."""
    url = f"sqlite:///{tmp_path / name}"
    _steps._create_tables(url)
    return url


def test_gradebooks_of_one_database_share_an_engine_and_see_each_other_s_rows(tmp_path):
    one, other = _gradebook_at(tmp_path, "one.db"), _gradebook_at(tmp_path, "other.db")
    nbgrader_s = nbgrader.api.create_engine
    with shared_engines():
        with Gradebook(one) as first:
            first.add_student("ada")
            engine = first.engine
        with Gradebook(one) as second, Gradebook(other) as elsewhere:
            assert second.engine is engine  # the same engine, disposed by the first's close
            assert [s.id for s in second.students] == ["ada"]
            assert elsewhere.engine is not engine and elsewhere.students == []
    with Gradebook(one) as after:  # nbgrader's own again: an engine of its own
        assert after.engine is not engine and [s.id for s in after.students] == ["ada"]
    assert nbgrader.api.create_engine is nbgrader_s


def test_gradebooks_in_two_threads_share_the_engine_safely(tmp_path):
    url = _gradebook_at(tmp_path, "gradebook.db")
    failures = []

    def add(names):
        try:
            for name in names:
                with Gradebook(url) as gradebook:
                    gradebook.add_student(name)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    with shared_engines():
        threads = [threading.Thread(target=add, args=([f"{t}-{i}" for i in range(10)],))
                   for t in "ab"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    with Gradebook(url) as gradebook:
        assert failures == [] and len(gradebook.students) == 20


def test_the_grading_run_opens_its_gradebooks_with_shared_engines(monkeypatch):
    inside, seen = [], {}

    @contextlib.contextmanager
    def recorded():
        inside.append(True)
        yield
        inside.pop()

    monkeypatch.setattr(_run, "shared_engines", recorded)
    run = _run.GradingRun.__new__(_run.GradingRun)
    run._judges, run.failed = contextlib.ExitStack(), []
    for step in ("triage", "judge_and_grade", "export"):
        monkeypatch.setattr(run, step, lambda step=step: seen.setdefault(step, bool(inside)))
    assert run.run() == 0
    assert seen == {"triage": True, "judge_and_grade": True, "export": True}
