"""pytest plugin behind the hidden checks: the ``student`` fixture and settings.

Hidden checks are ordinary pytest tests that take a ``student`` fixture and
call ``student.<function>(...)``. Under grading the fixture talks to a separate
process that runs the notebook's code; with ``--student-local`` (authoring
checks only) it runs the code in this process.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from grader import _notebook
from grader.checks._registry import registered

STUDENT = pytest.StashKey()  # the session's RemoteStudent, shared with the judge

# Regrading must give the same score: fixed examples, no example database.
settings.register_profile(
    "grading",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    print_blob=False,
    report_multiple_bugs=False,
    # No explain phase: it re-runs a failing example many times (slow) and its
    # "or any other generated value" comments would end up in the feedback.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def pytest_addoption(parser):
    group = parser.getgroup("tensor-anatomy grading")
    group.addoption("--student-code", help="notebook or .py file with the student's code")
    group.addoption(
        "--student-local",
        action="store_true",
        help="run the student's code in this process (authoring checks only; not safe)",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "exercise(name): the exercise a hidden check grades")
    settings.load_profile("grading")


def student_code_cells(request) -> list[str]:
    """The code cells of the notebook under ``--student-code`` (the test skips without one)."""
    path = request.config.getoption("--student-code")
    if not path:
        pytest.skip("hidden checks need --student-code")
    return _notebook.code_cells(_notebook.load(Path(path)))


@pytest.fixture(scope="session")
def student(request):
    cells = student_code_cells(request)
    if request.config.getoption("--student-local"):
        from grader.checks._local import LocalStudent

        return LocalStudent.from_source("\n\n".join(cells))
    from grader.judge._remote import configured_student

    # The judge may have launched the worker already (it imports torch meanwhile).
    remote = request.config.stash.get(STUDENT, None) or configured_student(cells)
    request.config.stash[STUDENT] = remote
    request.addfinalizer(remote.close)
    remote.start()
    return remote


def exercises_checked_by_examples(hidden_file: str) -> list:
    """One pytest param per exercise of this hidden file's chapter whose public examples
    also count, marked with its exercise: every exercise with a public check, but those
    with a finite answer (judged item by item, against torch's own answers).

    Derived from the check registry, so a new exercise's examples count without a list
    to keep: ``test_<nn>_<chapter>.py`` names the chapter whose checks it imported.
    """
    from grader.checks._digests import finite_exercises  # not in the zygote's memory

    chapter = Path(hidden_file).stem.split("_", 2)[2]
    names = [name for name, entry in registered().items()
             if entry.chapter == chapter and name not in finite_exercises()]
    return [pytest.param(name, id=name, marks=pytest.mark.exercise(name)) for name in names]
