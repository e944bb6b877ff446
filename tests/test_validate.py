"""The student's `validate` command exits honestly: 0 only when every check passes."""

import shutil
import subprocess
import sys

from conftest import COURSE, ROOT, load_notebook

from grader import _notebook

ASSIGNMENT = "01_storage_strides"


def _validate(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", "validate", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_solution_validates_with_exit_0():
    source = COURSE.source_notebook(ASSIGNMENT)
    done = _validate(source)
    assert done.returncode == 0, done.stdout + done.stderr
    count = len(_notebook.exercise_cells(load_notebook(source)))
    assert f"{count} of {count} exercises pass" in done.stdout


def test_the_blank_stub_exits_1_and_says_why():
    done = _validate(COURSE.release_notebook(ASSIGNMENT))
    assert done.returncode == 1
    assert "✗" in done.stdout and "NotImplementedError" in done.stdout


def test_a_broken_notebook_exits_2_with_a_message(tmp_path):
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    broken = folder / "submission.ipynb"
    broken.write_text("{ not json")
    done = _validate(broken)
    assert done.returncode == 2
    assert "could not grade" in done.stderr
    shutil.rmtree(folder)
