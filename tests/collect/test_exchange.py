"""Hand-in through nbgrader's own exchange on one machine with several users: the
instructor releases an assignment, two students (OS users, each in a clone of the
student edition) fetch and submit it, the instructor collects and grades (the one who
submitted after the due date marked late) and releases feedback, and each student
fetches their own."""

import csv
import datetime
import os
import sys
import time

import pytest
from support import COURSE, ROOT
from support.exchange import (
    ASSIGNMENT,
    STUDENTS,
    Class,
    class_in_a_folder,
    nbgrader_command,
    run_as,
)

from grader import edition
from grader.batch import _gradebook

pytestmark = [pytest.mark.heavy,  # a class hands in and is graded in a fixture: scheduled first
              pytest.mark.skipif(os.geteuid() != 0, reason="makes OS users: needs root")]


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
    out = {"release": run_as(nbgrader_command("release_assignment", ASSIGNMENT, "--force"), ROOT,
                           room.env)}
    due = None
    for user, share in STUDENTS.items():
        home, env = room.home(user), room.student_env(user, room.home(user))
        out[f"fetch {user}"] = run_as(nbgrader_command("fetch_assignment", ASSIGNMENT), home, env,
                                      user)
        room.answer(user, share)
        out[f"submit {user}"] = run_as(nbgrader_command("submit", ASSIGNMENT), home, env, user)
        if due is None:  # due between the first submission and the second
            time.sleep(1.5)
            due = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
            time.sleep(1.5)
    out["due"] = run_as(nbgrader_command("db", "assignment", "add", ASSIGNMENT,
                                f"--duedate={due.isoformat()} UTC"), ROOT, room.env)
    out["collect"] = run_as(nbgrader_command("collect", ASSIGNMENT), ROOT, room.env)
    out["grade"] = run_as([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT], ROOT,
                        room.env)
    out["release feedback"] = run_as(nbgrader_command("release_feedback", ASSIGNMENT), ROOT,
                                     room.env)
    for user in STUDENTS:
        home = room.home(user)
        out[f"feedback {user}"] = run_as(nbgrader_command("fetch_feedback", ASSIGNMENT), home,
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
