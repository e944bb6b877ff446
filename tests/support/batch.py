"""Helpers for tests that grade a small batch end to end (``grader.cli grade``)."""

import csv
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from grader.batch import _gradebook
from grader.batch._demo import synthetic_submission
from support import ASSIGNMENTS, COURSE, ROOT, load_notebook

ASSIGNMENT = ASSIGNMENTS[0]
STUDENTS = {"complete": 1.0, "most": 0.75, "partial": 0.5, "blank": 0.0}


def write_submissions(instructor, assignment: str = ASSIGNMENT) -> None:
    release = COURSE.release_notebook(assignment)
    source = load_notebook(COURSE.source_notebook(assignment))
    for student, fraction in STUDENTS.items():
        folder = instructor / "submitted" / student / assignment
        folder.mkdir(parents=True)
        notebook = synthetic_submission(load_notebook(release), source, fraction)
        (folder / release.name).write_text(json.dumps(notebook), encoding="utf-8")


def blank_stub(assignment: str = ASSIGNMENT) -> dict:
    """The released notebook of ``assignment`` with no answer filled in."""
    return synthetic_submission(load_notebook(COURSE.release_notebook(assignment)),
                                load_notebook(COURSE.source_notebook(assignment)), 0.0)


def file_and_grade(instructor, notebooks: dict[str, dict],
                   assignment: str = ASSIGNMENT) -> subprocess.CompletedProcess:
    """Each student's notebook filed in ``instructor/submitted/``, then one serial
    ``grader.cli grade`` over them (a gradebook of its own: no ``$TENSOR_ANATOMY_DB_URL``)."""
    name = COURSE.release_notebook(assignment).name
    for student, notebook in notebooks.items():
        folder = instructor / "submitted" / student / assignment
        folder.mkdir(parents=True)
        (folder / name).write_text(json.dumps(notebook), encoding="utf-8")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    env.pop("TENSOR_ANATOMY_DB_URL", None)
    return subprocess.run([sys.executable, "-m", "grader.cli", "grade", assignment, "--jobs", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def start_grading(instructor, *options: str) -> subprocess.Popen:
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    with open(instructor / "grading.log", "a", encoding="utf-8") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT, *options], cwd=ROOT,
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


# What the grading command prints once every notebook has gone through nbgrader
# (``NbgraderSteps.report``): only the summary and the CSV export are left.
FINAL_PHASE = f"nbgrader autograde {ASSIGNMENT} ("


@dataclass(frozen=True)
class Kill:
    at: float  # seconds after the start
    by: str  # "time": at the drawn kill point; "final phase": the run had reached it first
    returncode: int | None  # the grading command's, after the kill (None: it was not killed)

    @property
    def interrupted(self) -> bool:
        return self.returncode == -signal.SIGKILL


def kill_after(instructor, seconds: float, poll: float = 0.02) -> Kill:
    """Start grading, SIGKILL its whole process group after ``seconds``, or as soon as the
    run reaches its final phase (summary, CSV export) if that comes first: a kill drawn past
    the run's end would not interrupt it."""
    log = instructor / "grading.log"
    offset = log.stat().st_size if log.exists() else 0  # earlier runs' lines are not this run's
    started = time.monotonic()
    run = start_grading(instructor)
    by = "time"
    while (elapsed := time.monotonic() - started) < seconds:
        if run.poll() is not None:
            return Kill(elapsed, "finished on its own", None)
        with open(log, "rb") as f:
            f.seek(offset)
            if FINAL_PHASE.encode() in f.read():
                by = "final phase"
                break
        time.sleep(poll)
    if run.poll() is not None:
        return Kill(elapsed, "finished on its own", None)
    os.killpg(run.pid, signal.SIGKILL)
    return Kill(elapsed, by, run.wait())


def grade_to_the_end(instructor, *options: str) -> float:
    started = time.monotonic()
    run = start_grading(instructor, *options)
    assert run.wait(timeout=900) == 0, (instructor / "grading.log").read_text()[-3000:]
    return time.monotonic() - started


def outcome(instructor, db_url: str | None = None) -> dict:
    """Grades, CSV rows and feedback pages of ``ASSIGNMENT``, as an instructor sees them."""
    scores = _gradebook.scores(db_url or f"sqlite:///{instructor / 'gradebook.db'}", ASSIGNMENT)
    with open(instructor / "grades.csv", newline="", encoding="utf-8") as f:
        rows = [row["student_id"] for row in csv.DictReader(f)
                if row["assignment"] == ASSIGNMENT]
    feedback = sorted(p.parts[-3] for p in (instructor / "feedback").glob(f"*/{ASSIGNMENT}/*.html"))
    return {"scores": scores, "csv rows": sorted(rows), "feedback": feedback}


def with_alembic(patch, db_url: str) -> str:
    """nbgrader makes a new gradebook with ``alembic``, which it finds on PATH."""
    patch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    return db_url
