"""Hand-in through nbgrader's own exchange on one machine with several users: the
instructor releases an assignment, two students (OS users, each in a clone of the
student edition) fetch and submit it, the instructor collects and grades (the one who
submitted after the due date marked late) and releases feedback, and each student
fetches their own."""

import contextlib
import csv
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ASSIGNMENTS, COURSE, ROOT, load_notebook
from escape.users import reachable_by_others
from escape.users import unprivileged_user as _user

from grader import edition
from grader.batch import _gradebook
from grader.batch._demo import synthetic_submission

ASSIGNMENT = ASSIGNMENTS[0]
COURSE_ID = "tensor-anatomy-test"
STUDENTS = {"ta-ada": 1.0, "ta-bob": 0.5}  # OS user → share of the answers filled in
pytestmark = [pytest.mark.heavy,  # a class hands in and is graded in a fixture: scheduled first
              pytest.mark.skipif(os.geteuid() != 0, reason="makes OS users: needs root")]


def _run(cmd: list[str], cwd: Path, env: dict, user: str | None = None) -> str:
    if user:
        entry = _user(user)
        cmd = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
               "--clear-groups", *cmd]
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _nbgrader(*args: str) -> list[str]:
    return [sys.executable, "-m", "nbgrader", *args]


class Class:
    """An instructor's checkout, an exchange and two students' homes, under one folder."""

    def __init__(self, top: Path):
        self.top, self.exchange = top, top / "exchange"
        self.instructor = top / "instructor"
        self.exchange.mkdir()
        self.exchange.chmod(0o1777)  # every student writes into it; sticky, as README says
        self.env = {**os.environ, "TENSOR_ANATOMY_EXCHANGE": str(self.exchange),
                    "TENSOR_ANATOMY_COURSE_ID": COURSE_ID,
                    "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(self.instructor)}

    def student_env(self, user: str, home: Path) -> dict:
        # Only what a student's login has: no setting of the instructor's.
        return {"PATH": os.environ["PATH"], "HOME": str(home), "USER": user,
                "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}

    def home(self, user: str) -> Path:
        return self.top / f"home-{user}" / "tensor-anatomy-student"

    def give_edition(self, built: Path) -> None:
        """Each student clones the edition into a home of their own."""
        for user in STUDENTS:
            home = self.home(user)
            home.parent.mkdir()
            subprocess.run(["git", "clone", "-q", str(built), str(home)], check=True)
            entry = _user(user)
            for path in [home.parent, *home.parent.rglob("*")]:
                os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)

    def answer(self, user: str, share: float) -> None:
        """The student's work: the fetched notebook with that share of the answers."""
        path = self.home(user) / ASSIGNMENT / COURSE.release_notebook(ASSIGNMENT).name
        fetched = load_notebook(path)
        worked = synthetic_submission(fetched, load_notebook(COURSE.source_notebook(ASSIGNMENT)),
                                      share)
        path.write_text(json.dumps(worked), encoding="utf-8")


@contextlib.contextmanager
def class_in_a_folder(make_room, prefix: str):
    """A room made by ``make_room(top)`` in a new folder others may enter, its settings in
    this process's environment and the course reachable by its users; all removed after."""
    top = Path(tempfile.mkdtemp(prefix=prefix))  # not under a 0700 folder
    top.chmod(0o755)
    room = make_room(top)
    try:
        with pytest.MonkeyPatch.context() as patch, \
                reachable_by_others([Path(sys.executable).resolve(), Path(sys.prefix), ROOT]):
            for name, value in room.env.items():
                patch.setenv(name, value)
            yield room
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture(scope="module")
def course_run():
    with class_in_a_folder(Class, "tensor-anatomy-exchange-") as room:
        built = room.top / "edition"
        edition.build(COURSE, built)  # with this class's exchange as its default
        room.give_edition(built)
        steps = _hand_in(room)
        _log(steps)
        yield room, steps


def _hand_in(room: Class) -> dict:
    """The whole path; each step's output, by name."""
    out = {"release": _run(_nbgrader("release_assignment", ASSIGNMENT, "--force"), ROOT,
                           room.env)}
    due = None
    for user, share in STUDENTS.items():
        home, env = room.home(user), room.student_env(user, room.home(user))
        out[f"fetch {user}"] = _run(_nbgrader("fetch_assignment", ASSIGNMENT), home, env, user)
        room.answer(user, share)
        out[f"submit {user}"] = _run(_nbgrader("submit", ASSIGNMENT), home, env, user)
        if due is None:  # due between the first submission and the second
            time.sleep(1.5)
            due = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
            time.sleep(1.5)
    out["due"] = _run(_nbgrader("db", "assignment", "add", ASSIGNMENT,
                                f"--duedate={due.isoformat()} UTC"), ROOT, room.env)
    out["collect"] = _run(_nbgrader("collect", ASSIGNMENT), ROOT, room.env)
    out["grade"] = _run([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT], ROOT,
                        room.env)
    out["release feedback"] = _run(_nbgrader("release_feedback", ASSIGNMENT), ROOT, room.env)
    for user in STUDENTS:
        home = room.home(user)
        out[f"feedback {user}"] = _run(_nbgrader("fetch_feedback", ASSIGNMENT), home,
                                       room.student_env(user, home), user)
    return out


def _log(steps: dict) -> None:
    """The whole path, each command's output, for the record (tests/artifacts/)."""
    log = ROOT / "tests" / "artifacts" / "hand_in.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text("".join(f"## {step}\n{output.strip()}\n\n" for step, output in steps.items()),
                   encoding="utf-8")


def test_students_fetch_and_submit_and_the_instructor_collects_both(course_run):
    room, _ = course_run
    for user in STUDENTS:
        assert (room.home(user) / ASSIGNMENT / COURSE.release_notebook(ASSIGNMENT).name).is_file()
        submitted = room.instructor / "submitted" / user / ASSIGNMENT
        assert (submitted / "timestamp.txt").is_file()


def test_grades_follow_the_work_and_the_late_submission_is_marked_late(course_run):
    room, _ = course_run
    table = _gradebook.scores(f"sqlite:///{room.instructor / 'gradebook.db'}", ASSIGNMENT)
    assert table["ta-ada"]["total"] == table["ta-ada"]["max"]
    assert 0 < table["ta-bob"]["total"] < table["ta-bob"]["max"]
    with open(room.instructor / "export" / "grades_wide.csv", newline="") as f:
        late = {row["student_id"]: row[f"{ASSIGNMENT}:late"] for row in csv.DictReader(f)}
    assert late == {"ta-ada": "on time", "ta-bob": "late"}


def test_each_student_fetches_feedback_that_shows_their_own_score(course_run):
    room, _ = course_run
    table = _gradebook.scores(f"sqlite:///{room.instructor / 'gradebook.db'}", ASSIGNMENT)
    for user in STUDENTS:
        pages = list((room.home(user) / ASSIGNMENT / "feedback").rglob("*.html"))
        assert len(pages) == 1, pages
        html = pages[0].read_text(encoding="utf-8")
        total, most = (round(float(table[user][key]), 2) for key in ("total", "max"))
        assert f"(Score: {total} / {most})" in html  # nbgrader's own heading
        assert next(u for u in STUDENTS if u != user) not in html
