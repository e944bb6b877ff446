"""Changing an assignment's cells after grading: nbgrader's real reason, then the way on.

On a copy of the course: grade, add a graded cell to the source notebook,
grade again. nbgrader refuses (its gradebook has submissions of the old
cells); the console must say so in one line with the commands that proceed,
and those commands must work. Stock ``nbgrader`` runs from the course root
without the venv activated.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.course_copy import copy_course

from grader.bridge._steps import advice, reason

pytestmark = pytest.mark.heavy  # grades a class in a fixture: scheduled first

ASSIGNMENT = "01_storage_strides"
SCRIPTS = Path(sys.executable).parent


def _run(course: Path, *args: str) -> subprocess.CompletedProcess:
    # Not activated: only the system's folders on PATH, as from a fresh terminal.
    env = {**os.environ, "PYTHONPATH": str(course), "PATH": "/usr/bin:/bin"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(list(args), cwd=course, env=env, capture_output=True, text=True,
                          timeout=600)


def _add_a_graded_cell(course: Path) -> None:
    path = course / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "extra-check",
                        "outputs": [], "source": ["assert contiguous_strides((2,)) == (1,)"],
                        "metadata": {"nbgrader": {"grade": True, "grade_id": "extra_check",
                                                  "locked": True, "points": 1,
                                                  "schema_version": 3, "solution": False}}})
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_a_changed_assignment_says_why_and_how_to_go_on(tmp_path):
    course = tmp_path / "course"
    copy_course(course)
    python = str(SCRIPTS / "python")
    # Earlier grades in the instructor folder, as after a real grading run.
    instructor = str(course / "instructor")
    assert _run(course, python, "-m", "grader.cli", "demo", "--into", instructor).returncode == 0
    _add_a_graded_cell(course)
    refused = _run(course, python, "-m", "grader.cli", "grade", ASSIGNMENT)
    assert refused.returncode == 1
    assert (f"nbgrader generate_assignment-{ASSIGNMENT} failed: RuntimeError: Cannot add or "
            f"remove cells for notebook '{ASSIGNMENT}'") in refused.stderr
    assert f"nbgrader db assignment remove {ASSIGNMENT} --force" in refused.stderr
    removed = _run(course, str(SCRIPTS / "nbgrader"), "db", "assignment", "remove", ASSIGNMENT,
                   "--force")
    assert removed.returncode == 0, removed.stderr[-2000:]
    regraded = _run(course, python, "-m", "grader.cli", "grade", ASSIGNMENT)
    assert "Cannot add or remove cells" not in regraded.stderr, regraded.stderr[-2000:]


def test_stock_nbgrader_rebuilds_a_release_without_the_venv_activated(tmp_path):
    course = tmp_path / "course"
    copy_course(course)
    released = course / "exercises" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    before = released.read_bytes()
    done = _run(course, str(SCRIPTS / "nbgrader"), "generate_assignment", ASSIGNMENT, "--force")
    assert done.returncode == 0, done.stderr[-2000:]  # a fresh gradebook: alembic was found
    assert released.read_bytes() == before


def test_the_reason_is_the_error_nbgrader_names_not_its_wrapper():
    log = ("[ERROR] There was an error processing assignment\n"
           "    RuntimeError: Cannot add or remove cells for notebook 'a' because there are "
           "submissions associated with it\n"
           "nbgrader.converters.base.NbGraderException: Please see the the above traceback\n")
    assert reason(log).startswith("RuntimeError: Cannot add or remove cells")
    assert "db assignment remove a --force" in advice(log, "generate_assignment-a")
    assert advice("ValueError: other", "generate_assignment-a") == ""
    assert reason("") == "no reason given"
