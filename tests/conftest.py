import json
from pathlib import Path

import pytest

from grader._course import Course

ROOT = Path(__file__).resolve().parents[1]
COURSE = Course(ROOT)
ASSIGNMENTS = COURSE.assignments()


def load_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def course() -> Course:
    return COURSE


def pytest_generate_tests(metafunc):
    # Every per-assignment test runs for every assignment found on disk.
    if "assignment" in metafunc.fixturenames:
        metafunc.parametrize("assignment", ASSIGNMENTS)
