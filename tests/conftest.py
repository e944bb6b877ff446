"""Fixtures and hooks only: what tests share as plain names is in support/ (tests/README.md)."""

import pytest
from support import ASSIGNMENTS, COURSE

from grader._course import Course

pytest_plugins = ["support.no_silent_skips"]


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
    from support.batch import grade_to_the_end, outcome, write_submissions

    instructor = tmp_path_factory.mktemp("serial-reference")
    write_submissions(instructor)
    seconds = grade_to_the_end(instructor, "--jobs", "1")
    return outcome(instructor), seconds
