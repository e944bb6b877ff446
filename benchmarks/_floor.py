"""The honest floor of grading: no nbgrader, no sandbox, no judge, nothing started per notebook.

One warm interpreter (torch, pytest, hypothesis, the checks and the hidden checks
imported before the clock starts) runs, for each notebook, its code cells, test
cells included, then the assignment's hidden checks against the functions those
cells defined (``--student-local``; every check searched, nothing replayed). Each
notebook runs in a fork of that interpreter, so that no notebook sees what
another one changed (a hostile one patches torch); the fork is counted, and costs
milliseconds. Unsafe by design: it is what grading would cost if students could
be trusted.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["floor_seconds"]

HIDDEN = Path(__file__).resolve().parents[1] / "grader" / "hidden"


def _hidden_checks(assignment: str, notebook: Path, grading) -> int:
    import pytest

    args = [str(HIDDEN / assignment.split("_", 1)[1] / "test.py"), "--student-code", str(notebook),
            "--student-local", "-q", "--tb=no", "--noconftest", "-p", "no:cacheprovider",
            "-o", "addopts=", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            "--rootdir", str(HIDDEN), "-c", str(HIDDEN / "pytest.ini")]
    return pytest.main(args, plugins=[grading])


def _run_notebook(nb: dict, assignment: str, notebook: Path) -> None:
    """In the fork: the cells, then the hidden checks on what they defined."""
    from grader import _notebook
    from grader.checks import _local
    from grader.judge._plugin import Grading

    namespace: dict = {"__name__": "__main__"}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            source = _notebook._without_magics("".join(cell["source"]))
            with contextlib.suppress(Exception):
                exec(compile(source, "<cell>", "exec"), namespace)
    # The hidden checks call the functions the cells defined, not a second run of them.
    _local.LocalStudent.from_source = classmethod(lambda cls, source: cls(namespace))
    _hidden_checks(assignment, notebook, Grading())


def _warm(batch: dict) -> None:
    """Import everything the notebooks and checks use, and collect each assignment's checks."""
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401
    import torch

    import grader.checks

    torch.set_num_threads(1)  # as in a student's process (and forks keep no thread pool)
    from grader.judge._plugin import Grading

    grader.checks.exercise_names()
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp, "empty.py")
        empty.write_text("", encoding="utf-8")
        for assignment in batch:
            _hidden_checks(assignment, empty, Grading())  # imports its hidden check module


def floor_seconds(batch: dict) -> float:
    """Seconds to run every notebook of ``batch`` (assignment → [(student, nb)]), serially."""
    total = 0.0
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            tempfile.TemporaryDirectory(prefix="tensor-anatomy-floor-") as tmp:
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        _warm(batch)
        for assignment, students in batch.items():
            for student, nb in students:
                notebook = Path(tmp, f"{student}.ipynb")
                notebook.write_text(json.dumps(nb), encoding="utf-8")
                started = time.monotonic()
                pid = os.fork()
                if pid == 0:
                    with contextlib.suppress(BaseException):
                        _run_notebook(nb, assignment, notebook)
                    os._exit(0)
                os.waitpid(pid, 0)
                total += time.monotonic() - started
    sys.stdout.flush()
    return total
