"""Batch grading: parallel on a Dask cluster equals serial, and is crash safe.

The reference is nbgrader alone (``--jobs 1``: every notebook judged inside
nbgrader's own pipeline, one after another). Parallel runs judge ahead on a
local cluster, or on a cluster given by its scheduler's address, and must give
exactly the same grades. A parallel run killed outright (SIGKILL) at random
points and started again must too: no student lost or counted twice. The kill
points are random (the seed is printed and in every failure message;
``TENSOR_ANATOMY_TEST_SEED`` replays it), drawn from the duration of the
reference run so that they land in every phase; a point past the start of the
run's final phase (summary, CSV export) is moved there, so that each kill
interrupts the run.
"""

import contextlib
import os
import random

from support import ASSIGNMENTS, COURSE, load_notebook
from support.batch import (
    ASSIGNMENT,
    STUDENTS,
    grade_to_the_end,
    kill_after,
    outcome,
    write_submissions,
)

from grader.batch import _parallel

SEED_VARIABLE = "TENSOR_ANATOMY_TEST_SEED"  # set it to replay a run's kill points


def test_the_serial_reference_run_grades_every_student_once(serial_reference):
    graded, _ = serial_reference
    assert sorted(graded["scores"]) == sorted(STUDENTS)
    assert graded["csv rows"] == sorted(STUDENTS) == graded["feedback"]
    totals = [graded["scores"][s]["total"] for s in STUDENTS]
    assert totals == sorted(totals, reverse=True) and totals[0] > totals[-1] == 0


def test_killed_twice_at_random_points_then_rerun_gives_the_same_grades(
        serial_reference, tmp_path):
    reference, seconds = serial_reference
    seed = int(os.environ.get(SEED_VARIABLE) or random.randrange(2**32))
    print(f"kill points drawn with seed {seed} (rerun with {SEED_VARIABLE}={seed})")
    rng = random.Random(seed)
    instructor = tmp_path / "instructor"
    write_submissions(instructor)
    # The parallel run is faster than the serial reference: kill well within it.
    kill_points = [rng.uniform(1.0, 0.3 * seconds), rng.uniform(0.1 * seconds, 0.5 * seconds)]
    for point in kill_points:
        kill = kill_after(instructor, point)
        print(f"drawn {point:.1f} s, killed at {kill.at:.1f} s by {kill.by}")
        context = f"seed {seed}, kill points {kill_points}: {kill}"
        # The kill landed: the run did not finish on its own, it died of the signal ...
        assert kill.interrupted, context
        # ... and left work undone: no run has got as far as the export yet.
        assert not (instructor / "grades.csv").exists(), context
    grade_to_the_end(instructor)
    assert outcome(instructor) == reference, f"seed {seed}, kill points {kill_points}"


def test_a_cluster_given_by_address_grades_exactly_like_the_serial_run(serial_reference, tmp_path):
    from distributed import LocalCluster

    reference, _ = serial_reference
    instructor = tmp_path / "instructor"
    write_submissions(instructor)
    with LocalCluster(n_workers=3, threads_per_worker=1, dashboard_address=None) as cluster:
        grade_to_the_end(instructor, "--scheduler", cluster.scheduler_address)
    assert outcome(instructor) == reference
    log = (instructor / "grading.log").read_text()
    # Every notebook was judged on the cluster: nbgrader's own pass judged none.
    assert "no verdict judged ahead" not in log
    assert len(list((instructor / "verdicts").glob("*.json"))) == len(STUDENTS)


def test_each_notebook_is_handed_on_as_soon_as_it_is_judged(tmp_path, monkeypatch):
    # nbgrader takes each notebook while the cluster judges the rest, and each
    # assignment once all its notebooks are judged (the judge is stubbed out).
    batch = {}
    for assignment in ASSIGNMENTS[:2]:
        write_submissions(tmp_path, assignment)
        batch[assignment] = (load_notebook(COURSE.release_notebook(assignment)),
                             sorted((tmp_path / "submitted").glob(f"*/{assignment}/*.ipynb")))
    monkeypatch.setattr(_parallel, "judge",
                        lambda nb, assignment, variants=None, kept=None: {"assignment": assignment})
    events = []
    failures = _parallel.judge_batch(
        batch, tmp_path / "verdicts", workers=2,
        each_judged=lambda a, paths: events.extend(("notebook", a, p.parent.parent.name)
                                                   for p in paths),
        when_judged=lambda a: events.append(("assignment", a)))
    assert failures == []
    for assignment, (_, paths) in batch.items():
        students = {p.parent.parent.name for p in paths}
        done = events.index(("assignment", assignment))
        assert {e[2] for e in events[:done] if e[:2] == ("notebook", assignment)} == students
        assert events.count(("assignment", assignment)) == 1
    assert len(events) == sum(len(paths) for _, paths in batch.values()) + len(batch)


def test_the_run_starts_a_judge_per_worker_before_judging_and_stops_them_after(
        tmp_path, monkeypatch):
    # Judges start before the run's own start-up is done (_judge_server.started_ahead);
    # judging and nbgrader's steps are stubbed out: only the order is looked at.
    from grader.batch import _run

    write_submissions(tmp_path)  # four students of one assignment
    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(tmp_path))
    events = []

    @contextlib.contextmanager
    def started_ahead(count):
        events.append(("judges started", count))
        yield
        events.append("judges stopped")

    monkeypatch.setattr(_run, "started_ahead", started_ahead)
    monkeypatch.setattr(_run, "judge_batch", lambda *a, **k: events.append("judging") or [])
    for step in ("register_releases", "finish"):
        monkeypatch.setattr(_run.GradingRun, step, lambda *a: None)
    for jobs, judges in ((3, 3), (8, len(STUDENTS))):
        events.clear()
        run = _run.GradingRun(COURSE, [ASSIGNMENT], jobs, None)
        with run._judges:
            run.triage()
            run.judge_and_grade()
            assert events == [("judges started", judges), "judging", "judges stopped"]
    run = _run.GradingRun(COURSE, [ASSIGNMENT], 1, None)  # serial: nbgrader's own judge
    events.clear()
    run.triage()
    run.judge_and_grade()
    assert events == []
