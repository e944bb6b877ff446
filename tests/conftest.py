import contextlib
import io
import json
from pathlib import Path

import pytest

from grader._course import Course

pytest_plugins = ["_no_silent_skips"]

ROOT = Path(__file__).resolve().parents[1]
COURSE = Course(ROOT)
ASSIGNMENTS = COURSE.assignments()


def load_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def solution_namespace(assignment: str) -> dict:
    """The names the solution notebook of ``assignment`` defines, its cells run quietly."""
    from grader import _notebook

    namespace = {"__name__": "solution"}
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for source in _notebook.code_cells(_notebook.load(COURSE.source_notebook(assignment))):
            exec(compile(source, assignment, "exec"), namespace)
    return namespace


def complete_notebook(assignment: str) -> dict:
    """The released notebook with every answer cell the instructor's solution."""
    from grader.batch._demo import synthetic_submission

    release = load_notebook(COURSE.release_notebook(assignment))
    return synthetic_submission(release, load_notebook(COURSE.source_notebook(assignment)), 1.0)


@pytest.fixture(scope="session")
def course() -> Course:
    return COURSE


def pytest_collection_modifyitems(items):
    # Files marked "heavy" (a fixture that grades a class: minutes) first: pytest-xdist
    # hands each worker whole files in this order, and a heavy file handed out last would
    # leave the other workers idle until it ends.
    heavy = {item.path for item in items if item.get_closest_marker("heavy")}
    items.sort(key=lambda item: item.path not in heavy)


def pytest_generate_tests(metafunc):
    # Every per-assignment test runs for every assignment found on disk.
    if "assignment" in metafunc.fixturenames:
        metafunc.parametrize("assignment", ASSIGNMENTS)


@pytest.fixture(scope="session")
def serial_reference(tmp_path_factory):
    """A small batch graded by nbgrader alone (``--jobs 1``): (outcome, seconds)."""
    from _batch import grade_to_the_end, outcome, write_submissions

    instructor = tmp_path_factory.mktemp("serial-reference")
    write_submissions(instructor)
    seconds = grade_to_the_end(instructor, "--jobs", "1")
    return outcome(instructor), seconds
