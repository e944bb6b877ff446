"""Batch grading: parallel on a Dask cluster equals serial, and is crash safe.

The reference is nbgrader alone (``--jobs 1``: every notebook judged inside
nbgrader's own pipeline, one after another). Parallel runs judge ahead on a
local cluster, or on a cluster given by its scheduler's address, and must give
exactly the same grades. A parallel run killed outright (SIGKILL) at random
points and started again must too: no student lost or counted twice. The kill
points are random (the seed is in every failure message), drawn from the
duration of the reference run so that they land in every phase.
"""

import csv
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from conftest import ASSIGNMENTS, COURSE, ROOT, load_notebook

from grader import _gradebook
from grader._demo import synthetic_submission

ASSIGNMENT = ASSIGNMENTS[0]
STUDENTS = {"complete": 1.0, "most": 0.75, "partial": 0.5, "blank": 0.0}


def _write_submissions(instructor) -> None:
    release = COURSE.release_notebook(ASSIGNMENT)
    source = load_notebook(COURSE.source_notebook(ASSIGNMENT))
    for student, fraction in STUDENTS.items():
        folder = instructor / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        notebook = synthetic_submission(load_notebook(release), source, fraction)
        (folder / release.name).write_text(json.dumps(notebook), encoding="utf-8")


def _start_grading(instructor, *options: str) -> subprocess.Popen:
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    with open(instructor / "grading.log", "a", encoding="utf-8") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT, *options], cwd=ROOT,
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _kill_after(instructor, seconds: float) -> bool:
    """Start grading, SIGKILL its whole process group after ``seconds``; True if it ran."""
    run = _start_grading(instructor)
    try:
        run.wait(timeout=seconds)
        return False  # finished before the kill point
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        return True


def _grade_to_the_end(instructor, *options: str) -> float:
    started = time.monotonic()
    run = _start_grading(instructor, *options)
    assert run.wait(timeout=900) == 0, (instructor / "grading.log").read_text()[-3000:]
    return time.monotonic() - started


def _outcome(instructor) -> dict:
    scores = _gradebook.scores(f"sqlite:///{instructor / 'gradebook.db'}", ASSIGNMENT)
    with open(instructor / "grades.csv", newline="", encoding="utf-8") as f:
        rows = [row["student_id"] for row in csv.DictReader(f)
                if row["assignment"] == ASSIGNMENT]
    feedback = sorted(p.parts[-3] for p in (instructor / "feedback").glob(f"*/{ASSIGNMENT}/*.html"))
    return {"scores": scores, "csv rows": sorted(rows), "feedback": feedback}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("uninterrupted")
    _write_submissions(instructor)
    seconds = _grade_to_the_end(instructor, "--jobs", "1")
    return _outcome(instructor), seconds


def test_the_uninterrupted_run_grades_every_student_once(uninterrupted):
    outcome, _ = uninterrupted
    assert sorted(outcome["scores"]) == sorted(STUDENTS)
    assert outcome["csv rows"] == sorted(STUDENTS) == outcome["feedback"]
    totals = [outcome["scores"][s]["total"] for s in STUDENTS]
    assert totals == sorted(totals, reverse=True) and totals[0] > totals[-1] == 0


def test_killed_twice_at_random_points_then_rerun_gives_the_same_grades(
        uninterrupted, tmp_path):
    reference, seconds = uninterrupted
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    instructor = tmp_path / "instructor"
    _write_submissions(instructor)
    # The parallel run is faster than the serial reference: kill well within it.
    kill_points = [rng.uniform(1.0, 0.3 * seconds), rng.uniform(0.1 * seconds, 0.5 * seconds)]
    killed = [_kill_after(instructor, t) for t in kill_points]
    assert killed[0], f"seed {seed}: the first kill at {kill_points[0]:.1f} s came too late"
    _grade_to_the_end(instructor)
    assert _outcome(instructor) == reference, f"seed {seed}, kill points {kill_points}"


def test_a_cluster_given_by_address_grades_exactly_like_the_serial_run(uninterrupted, tmp_path):
    from distributed import LocalCluster

    reference, _ = uninterrupted
    instructor = tmp_path / "instructor"
    _write_submissions(instructor)
    with LocalCluster(n_workers=3, threads_per_worker=1, dashboard_address=None) as cluster:
        _grade_to_the_end(instructor, "--scheduler", cluster.scheduler_address)
    assert _outcome(instructor) == reference
    log = (instructor / "grading.log").read_text()
    # Every notebook was judged on the cluster: nbgrader's own pass judged none.
    assert "no verdict judged ahead" not in log
    assert len(list((instructor / "verdicts").glob("*.json"))) == len(STUDENTS)
