"""The judge's one pytest plugin: the ``student`` fixture, grading settings, verdicts, replay.

Hidden checks are ordinary pytest tests that take a ``student`` fixture and
call ``student.<function>(...)``. Under grading the fixture talks to a separate
process that runs the notebook's code; with ``--student-local`` (authoring
checks only) it runs the code in this process. A ``Grading`` lives as long as
its judge: it collects one notebook's verdict per pytest run, and replays the
examples of checks that passed before (``_replay``).
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from grader import _notebook
from grader._settings import Settings
from grader.givens.variants import answers_another_variant
from grader.judge._call_record import LastCall
from grader.judge._describe import describe_failure, inputs_as_data

__all__ = ["Grading", "Variant", "student_code_cells"]

_GRADING = pytest.StashKey()  # the run's Grading, for the fixture

# Shrinking only follows a failure, so it never changes a score; an instructor may skip
# it ($TENSOR_ANATOMY_FIRST_FAILURE, read once, when the judge starts): a failure then shows
# the first input it failed on.
SHRINKS = not Settings.from_environment().first_failure

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
    phases=[Phase.explicit, Phase.reuse, Phase.generate] + [Phase.shrink] * SHRINKS,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Grading:
    """pytest plugin: pass it to ``pytest.main(..., plugins=[grading])``, one run per notebook.

    ``replay`` (an ``ExampleReplay``) is kept from run to run; without one every
    check is searched. ``last_call``: the check now running's last call of the student's
    functions, through whichever handle (``_call_record``); emptied around each check.
    """

    def __init__(self, replay=None):
        self.replay, self.remote, self.checks = replay, None, {}
        self.last_call = LastCall()
        self.failing_calls: dict[str, list] = {}  # exercise → each failing check's last call
        self.graded_variant = Variant()

    def begin(self, remote=None, variants: dict | None = None, kept=None) -> None:
        """A new notebook: its student's process (spawned already, or None to start one),
        the items of each finite exercise its student is graded on (``Variant``), and
        where judges keep its assignment's recorded examples (``_replay_file``; or None)."""
        self.remote, self.checks, self.failing_calls = remote, {}, {}
        if remote is not None:  # spawned by the judge: its calls are noted for us too
            remote.last_call = self.last_call
        self.graded_variant = Variant(variants)
        if self.replay is not None:
            self.replay.begin(kept)

    def end(self) -> None:
        """The notebook is judged: the examples its checks recorded are kept (``begin``)."""
        if self.replay is not None:
            self.replay.keep()

    def pytest_addoption(self, parser):
        group = parser.getgroup("tensor-anatomy grading")
        group.addoption("--student-code", help="notebook or .py file with the student's code")
        group.addoption("--student-local", action="store_true",
                        help="run the student's code in this process (authoring checks only; "
                             "not safe)")

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "exercise(name): the exercise a hidden check grades")
        settings.load_profile("grading")
        config.stash[_GRADING] = self

    @pytest.fixture(scope="session")
    @classmethod
    def student(cls, request):
        cells = student_code_cells(request)
        if request.config.getoption("--student-local"):
            from grader.checks._local import LocalStudent

            return LocalStudent.from_source("\n\n".join(cells))
        from grader.judge._remote import configured_student

        grading = request.config.stash[_GRADING]
        # The judge may have spawned the process already (it imports torch meanwhile).
        grading.remote = grading.remote or configured_student(cells, grading.last_call)
        request.addfinalizer(grading.remote.close)
        grading.remote.start()
        return grading.remote

    @pytest.fixture(scope="session")
    @classmethod
    def variant(cls, request) -> "Variant":
        """The submitting student's variant of the finite exercises (``Variant``)."""
        return request.config.stash[_GRADING].graded_variant

    @pytest.fixture(scope="session")
    @classmethod
    def student_cells(cls, request) -> list[str]:
        """The notebook's code cells, for a hidden check that vets them before any runs."""
        return student_code_cells(request)

    @pytest.fixture(scope="session")
    @classmethod
    def start_student(cls, request):
        """``start(cells)``: a student's process of its own, running ``cells`` with the
        instructor's time limits (in this process under ``--student-local``), closed when
        the session ends. Here, so that the hidden checks import nothing of the judge."""
        local = request.config.getoption("--student-local")
        last_call = request.config.stash[_GRADING].last_call

        def start(cells: list[str]):
            if local:
                from grader.checks._local import LocalStudent

                return LocalStudent.from_source("\n\n".join(cells))
            from grader.judge._remote import configured_student

            remote = configured_student(cells, last_call)
            request.addfinalizer(remote.close)
            remote.start()
            return remote

        return start

    def pytest_collection_modifyitems(self, items):
        for item in items:
            marker = item.get_closest_marker("exercise")
            doc = (getattr(item, "function", None).__doc__ or item.name).strip()
            self.checks[item.nodeid] = {
                "exercise": marker.args[0] if marker else None,
                "check": item.name, "description": doc.splitlines()[0],
                "passed": False, "detail": "not run",
            }

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.last_call.forget()  # the calls a check makes are its own ...
        yield
        # ... and are not kept past its reports: a warm judge keeps this plugin between
        # notebooks, and the arguments are the judge's tensors, referenced.
        self.last_call.forget()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = (yield).get_result()
        entry = self.checks.get(item.nodeid)
        if entry is not None and report.skipped and not _cuda_lost_by_student(call):
            # A check that cannot run here (a GPU check without a GPU) does not count.
            entry["skipped"] = True
        if entry is None or (report.when != "call" and not report.failed):
            return
        entry["passed"] = report.passed
        entry["detail"] = "" if report.passed else _detail(call, item.fixturenames)
        if not report.passed:  # what the student answered last: the failing input's answer
            self.failing_calls.setdefault(entry["exercise"], []).append(self.last_call.exchange)
            # ... and that input, as data beside the words (the feedback's pictures)
            entry["inputs"] = inputs_as_data(self.last_call.arguments)

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem):
        return None if self.replay is None else self.replay.call(pyfuncitem)

    def verdict(self) -> dict:
        """exercise → {passed, total, checks}: the checks that ran, skipped ones left out."""
        exercises: dict[str, dict] = {}
        for entry in self.checks.values():
            entry = dict(entry)
            name = entry.pop("exercise")
            if name is None or entry.pop("skipped", False):
                continue
            record = exercises.setdefault(name, {"passed": 0, "total": 0, "checks": []})
            record["total"] += 1
            record["passed"] += entry["passed"]
            record["checks"].append(entry)
        for name in self.graded_variant.other_variant & exercises.keys():
            exercises[name]["another_variant"] = True  # a line of feedback (_verdict_text)
        return exercises


class Variant:
    """The items of each finite exercise the submitting student is graded on.

    Handed to the judge by the grading command, which derived them from the id that
    submitted and the course's key (``grader.bridge._variants``); the judge never
    holds the key and never reads a variant from the notebook. No variant for an
    exercise: the whole pool is graded.
    """

    def __init__(self, variants: dict | None = None):
        self.variants = dict(variants or {})
        self.other_variant: set[str] = set()  # exercises answered for another variant

    def items(self, exercise: str, pool) -> list[str]:
        return list(self.variants.get(exercise, pool))

    def saw_table(self, exercise: str, answered, pool) -> None:
        """The keys of the student's table: noted if made for another variant."""
        if answers_another_variant(answered, self.items(exercise, pool), pool):
            self.other_variant.add(exercise)


def _detail(call, fixtures) -> str:
    if _cuda_lost_by_student(call):
        return f"your code: {call.excinfo.value.__context__}"[:300]
    return describe_failure(call.excinfo.value, fixtures, shrunk=SHRINKS)


def _cuda_lost_by_student(call) -> bool:
    """A GPU check skipped because the student's process had no CUDA, where the judge has
    it: the judge started it in a process just as confined (``_cuda_probe``), so the
    student's code lost it, and the check fails."""
    # Imported here, not above: the judge's modules at fork are the student's memory, and
    # an oracle module must never be there (tests/student/test_reachable.py).
    from grader.checks.devices._oracle import CudaUnavailable

    if call.excinfo is None or not isinstance(call.excinfo.value.__context__, CudaUnavailable):
        return False
    import torch

    return torch.cuda.is_available()


def student_code_cells(request) -> list[str]:
    """The code cells of the notebook under ``--student-code`` (the test skips without one)."""
    path = request.config.getoption("--student-code")
    if not path:
        pytest.skip("hidden checks need --student-code")
    return _notebook.code_cells(_notebook.load(Path(path)))
