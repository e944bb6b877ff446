"""One machine, several users, nbgrader's own exchange: a class in a folder of its own.

The exchange's tests (collect/test_exchange.py) hand in through it as two students;
the hostile hand-in's (collect/test_hostile_handin.py) make a class of the same kind
whose students forge what they hand in; both are graded on the instructor's side.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from escape.users import reachable_by_others, unprivileged_user

from grader.batch._demo import synthetic_submission

from . import ASSIGNMENTS, COURSE, ROOT, load_notebook

ASSIGNMENT = ASSIGNMENTS[0]
COURSE_ID = "tensor-anatomy-test"
STUDENTS = {"ta-ada": 1.0, "ta-bob": 0.5}  # OS user → share of the answers filled in


def run_as(cmd: list[str], cwd: Path, env: dict, user: str | None = None) -> str:
    if user:
        entry = unprivileged_user(user)
        cmd = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
               "--clear-groups", *cmd]
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def nbgrader_command(*args: str) -> list[str]:
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
            entry = unprivileged_user(user)
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
