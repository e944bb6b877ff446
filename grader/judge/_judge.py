"""The judge: run one assignment's hidden checks against one notebook.

``python -m grader.judge._judge NOTEBOOK --assignment A --out verdict.json`` runs
``grader/hidden/<chapter>/test.py`` (A is ``<nn>_<chapter>``) under pytest with the
``student`` fixture pointing at a separate worker process, and writes a JSON verdict
per exercise: how many of its checks passed, and for each failure a description
and its failing input (the smallest, unless ``$TENSOR_ANATOMY_FIRST_FAILURE`` asks
for the first). No hidden-check source or traceback is ever included.
With ``--serve`` it judges notebook after notebook, warm (``_judge_server``); with
``--template FD`` it forks such judges, one per request on socket FD (``_judge_template``).
"""

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

import pytest

from grader import _notebook
from grader._course import speed_pieces_off
from grader.judge import _judge_server
from grader.judge._cuda_probe import require_student_cuda
from grader.judge._judge_template import serve_forks
from grader.judge._plugin import Grading
from grader.judge._remote import configured_student
from grader.judge._replay import ExampleReplay
from grader.student import _sandbox

__all__ = ["hidden_checks_path", "run_judge"]

HIDDEN = Path(__file__).parents[1] / "hidden"
_NO_AUTOLOAD = "PYTEST_DISABLE_PLUGIN_AUTOLOAD"
# A warm judge's recorded examples, notebook after notebook (unless benched).
_GRADING = Grading(None if "replay" in speed_pieces_off() else ExampleReplay())


def hidden_checks_path(assignment: str) -> Path:
    """``assignment``'s hidden checks: ``01_storage_strides`` → ``storage_strides/test.py``."""
    return HIDDEN / assignment.split("_", 1)[-1] / "test.py"


def run_judge(notebook: Path, assignment: str, checks: Path | None = None,
              variants: dict | None = None, kept: str | None = None) -> dict:
    """Grade ``notebook`` against ``assignment``'s hidden checks (this process).

    ``checks`` overrides the hidden check file (the grader's own tests use it);
    ``variants``: exercise → the items its student is graded on (``_plugin.Variant``);
    ``kept``: where judges keep the assignment's recorded examples (``_replay_file``).
    """
    _sandbox.require()
    require_student_cuda()  # with CUDA here, GPU checks run, or grading stops saying why
    path = Path(checks) if checks else hidden_checks_path(assignment)
    if not path.exists():
        raise FileNotFoundError(f"no hidden checks for assignment {assignment!r} at {path}")
    # Fork the student's process first: it runs the cells while pytest starts.
    student = configured_student(_notebook.code_cells(_notebook.load(Path(notebook))))
    student.spawn()
    _GRADING.begin(student, variants, kept)
    args = [
        str(path), "--student-code", str(notebook),
        "-q", "--tb=no", "--noconftest", "-p", "no:cacheprovider", "-o", "addopts=",
        # Their one gc.collect() per run walks torch's whole heap (about 0.4 s).
        "-p", "no:unraisableexception", "-p", "no:threadexception",
        "-W", "ignore::pytest.PytestAssertRewriteWarning",
        "--rootdir", str(path.parent), "-c", str(HIDDEN / "pytest.ini"),
    ]
    # No plugin autoloading: nbval's import of nbformat alone costs seconds. Only for
    # this run: a caller in this process (a test) keeps its own setting.
    autoload = os.environ.get(_NO_AUTOLOAD)
    os.environ[_NO_AUTOLOAD] = "1"
    try:
        with contextlib.redirect_stdout(sys.stderr):
            code = pytest.main(args, plugins=[_GRADING])
    finally:
        student.close()
        if autoload is None:
            del os.environ[_NO_AUTOLOAD]
        else:
            os.environ[_NO_AUTOLOAD] = autoload
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"hidden checks for {assignment!r} did not run (pytest exit {code})")
    _GRADING.end()
    exercises = _GRADING.verdict()
    # Imported here, not at the top: the zygote, forked from this process before its first
    # notebook, must not carry the wrong answers (tests/student/test_reachable.py).
    from grader.judge._misconceptions import name_misconceptions

    name_misconceptions(assignment, exercises, _GRADING.failing_calls)
    return {
        "assignment": assignment,
        "exercises": exercises,
        "cells": {str(k): v for k, v in sorted(student.cell_reports().items())},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, nargs="?")
    parser.add_argument("--assignment")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--checks", type=Path, help="hidden check file (default: the assignment's)")
    parser.add_argument("--variants", type=json.loads, default=None,
                        help='the student\'s variant as JSON, {"exercise": ["item", ...]}')
    parser.add_argument("--serve", action="store_true",
                        help="judge notebook after notebook, requests on stdin (_judge_server)")
    parser.add_argument("--template", type=int, metavar="FD",
                        help="fork a --serve judge per request on socket FD (_judge_template)")
    options = parser.parse_args(argv)
    _sandbox.protect_judge()  # the student's process cannot read or write our memory
    if options.serve:
        return _judge_server.serve(run_judge)
    if options.template is not None:
        _judge_server.import_ahead()
        return serve_forks(options.template, lambda: _judge_server.serve(run_judge))
    if not (options.notebook and options.assignment and options.out):
        parser.error("give NOTEBOOK, --assignment and --out (or --serve)")
    verdict = run_judge(options.notebook, options.assignment, options.checks,
                        options.variants)
    options.out.write_text(json.dumps(verdict, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
