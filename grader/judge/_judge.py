"""The judge: run one assignment's hidden checks against one notebook.

``python -m grader.judge._judge NOTEBOOK --assignment A --out verdict.json`` runs
``grader/hidden/test_A.py`` under pytest with the ``student`` fixture pointing
at a separate worker process, and writes a JSON verdict per exercise:
how many of its checks passed, and for each failure a description and the
smallest failing input. No hidden-check source or traceback is ever included.
With ``--serve`` it judges notebook after notebook, warm (``_judge_server``).
"""

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

import pytest

from grader import _notebook
from grader._errors import StudentError
from grader.judge import _judge_server
from grader.judge._plugin import STUDENT
from grader.judge._remote import configured_student
from grader.judge._replay import ExampleReplay, unfinished
from grader.student import _sandbox

__all__ = ["hidden_checks_path", "run_judge"]

HIDDEN = Path(__file__).parents[1] / "hidden"
_DETAIL_LIMIT = 600
_REPLAY = ExampleReplay()  # a warm judge's recorded examples, notebook after notebook


def hidden_checks_path(assignment: str) -> Path:
    return HIDDEN / f"test_{assignment}.py"


def _example_from_notes(exc: BaseException, fixtures=()) -> str:
    # Hypothesis notes read "Failing test case: test_x(\n    arg=value,\n)"
    # ("Falsifying example" in older releases). Fixtures (the student's
    # functions) are not inputs: their repr would only show a memory address.
    for note in getattr(exc, "__notes__", []):
        if note.startswith(("Failing test case", "Falsifying example")):
            lines = [line.strip().rstrip(",") for line in note.splitlines()[1:-1]]
            return ", ".join(line for line in lines
                             if line.split("=", 1)[0] not in {"student", *fixtures})
    return ""


def _describe_failure(exc: BaseException, fixtures=()) -> str:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        # hypothesis wraps a failure that did not reproduce (FlakyFailure): name the first.
        return _describe_failure(exc.exceptions[0], fixtures)
    if isinstance(exc, StudentError):
        text = f"your code: {exc}"
    elif isinstance(exc, AssertionError):
        text = str(exc).split("\nassert ")[0] or "the answer disagrees with torch"
    else:
        text = f"the check could not run ({type(exc).__name__})"
    example = _example_from_notes(exc, fixtures)
    if example:  # an unfinished exercise's input is not shrunk (``_replay``)
        text += f"\n{'failing' if unfinished(exc) else 'smallest failing'} input: {example}"
    elif getattr(exc, "call", None):  # a fixed example: the call that failed
        text += f"\ninput: {exc.call}"
    return text[:_DETAIL_LIMIT]


class _Collector:
    """pytest plugin that turns reports into per-exercise verdicts."""

    def __init__(self, student=None):
        self.checks: dict[str, dict] = {}
        self.student = student

    def pytest_configure(self, config):
        if self.student is not None:
            config.stash[STUDENT] = self.student

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
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        entry = self.checks.get(item.nodeid)
        if entry is not None and report.skipped:
            # A check that cannot run here (a GPU check without a GPU) does not count.
            entry["skipped"] = True
        if entry is None or (report.when != "call" and not report.failed):
            return
        entry["passed"] = report.passed
        entry["detail"] = "" if report.passed else _describe_failure(
            call.excinfo.value, item.fixturenames)

    def pytest_sessionfinish(self, session):
        self.student = session.config.stash.get(STUDENT, None)

    def verdict(self) -> dict:
        exercises: dict[str, dict] = {}
        for entry in self.checks.values():
            name = entry.pop("exercise")
            if name is None or entry.pop("skipped", False):
                continue
            record = exercises.setdefault(name, {"passed": 0, "total": 0, "checks": []})
            record["total"] += 1
            record["passed"] += entry["passed"]
            record["checks"].append(entry)
        return exercises


def run_judge(notebook: Path, assignment: str, checks: Path | None = None) -> dict:
    """Grade ``notebook`` against ``assignment``'s hidden checks (this process).

    ``checks`` overrides the hidden check file (the grader's own tests use it).
    """
    _sandbox.require()
    path = Path(checks) if checks else hidden_checks_path(assignment)
    if not path.exists():
        raise FileNotFoundError(f"no hidden checks for assignment {assignment!r} at {path}")
    # Fork the student's process first: it runs the cells while pytest starts.
    student = configured_student(_notebook.code_cells(_notebook.load(Path(notebook))))
    student.spawn()
    collector = _Collector(student)
    args = [
        str(path), "-p", "grader.judge._plugin", "--student-code", str(notebook),
        "-q", "--tb=no", "--noconftest", "-p", "no:cacheprovider", "-o", "addopts=",
        # Their one gc.collect() per run walks torch's whole heap (about 0.4 s).
        "-p", "no:unraisableexception", "-p", "no:threadexception",
        "-W", "ignore::pytest.PytestAssertRewriteWarning",
        "--rootdir", str(path.parent), "-c", str(HIDDEN / "pytest.ini"),
    ]
    # No plugin autoloading: nbval's import of nbformat alone costs seconds.
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        with contextlib.redirect_stdout(sys.stderr):
            code = pytest.main(args, plugins=[collector, _REPLAY])
    finally:
        student.close()
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"hidden checks for {assignment!r} did not run (pytest exit {code})")
    reports = collector.student.cell_reports() if collector.student is not None else {}
    return {
        "assignment": assignment,
        "exercises": collector.verdict(),
        "cells": {str(k): v for k, v in sorted(reports.items())},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, nargs="?")
    parser.add_argument("--assignment")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--checks", type=Path, help="hidden check file (default: the assignment's)")
    parser.add_argument("--serve", action="store_true",
                        help="judge notebook after notebook, requests on stdin (_judge_server)")
    options = parser.parse_args(argv)
    _sandbox.protect_judge()  # the student's process cannot read or write our memory
    if options.serve:
        return _judge_server.serve(run_judge)
    if not (options.notebook and options.assignment and options.out):
        parser.error("give NOTEBOOK, --assignment and --out (or --serve)")
    verdict = run_judge(options.notebook, options.assignment, options.checks)
    options.out.write_text(json.dumps(verdict, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
