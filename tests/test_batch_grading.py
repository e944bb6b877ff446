"""Crash safety: a grading run killed outright (SIGKILL) and started again ends
with exactly the grades of an uninterrupted run; no student lost or counted twice.

The kill points are random (the seed is in every failure message), drawn from
the duration of the uninterrupted run so that they land in every phase:
gradebook set-up, autograding a student, feedback, export.
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


def _start_grading(instructor) -> subprocess.Popen:
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    return subprocess.Popen([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


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


def _grade_to_the_end(instructor) -> float:
    started = time.monotonic()
    run = _start_grading(instructor)
    assert run.wait(timeout=900) == 0
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
    seconds = _grade_to_the_end(instructor)
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
    kill_points = [rng.uniform(1.0, 0.5 * seconds), rng.uniform(0.3 * seconds, 0.9 * seconds)]
    killed = [_kill_after(instructor, t) for t in kill_points]
    assert killed[0], f"seed {seed}: the first kill at {kill_points[0]:.1f} s came too late"
    _grade_to_the_end(instructor)
    assert _outcome(instructor) == reference, f"seed {seed}, kill points {kill_points}"
