"""The student's dry run (``python -m grader validate NB``): points per exercise and a
total, an honest exit status, and nothing that gives a finite exercise's answers away."""

import json
import shutil
import subprocess
import sys

from conftest import COURSE, ROOT, complete_notebook, load_notebook

from grader import _notebook
from grader.batch._dry_run import AT_GRADING
from grader.bridge._verdict_text import NOT_ATTEMPTED

ASSIGNMENT = "01_storage_strides"
WITHHELD = ["view_or_copy"]  # its finite answers are for grading to judge


def _points(path, judged: bool) -> dict[str, float]:
    """Each exercise's points, from its test cell: those a dry run judges, or the others."""
    cells = _notebook.exercise_cells(load_notebook(path))
    return {name: float(cell["metadata"]["nbgrader"]["points"]) for name, cell in cells.items()
            if (name not in WITHHELD) == judged}


def _validate(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "validate", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_solution_validates_with_exit_0():
    source = COURSE.source_notebook(ASSIGNMENT)
    done = _validate(source)
    assert done.returncode == 0, done.stdout + done.stderr
    judged = _points(source, judged=True)
    assert f"{len(judged)} of {len(judged)} exercises judged here pass" in done.stdout
    total, later = sum(judged.values()), sum(_points(source, judged=False).values())
    assert f"  {total:g} / {total:g}, and {later:g} decided at grading\n" in done.stdout


def test_the_blank_stub_exits_1_and_says_not_attempted_yet():
    done = _validate(COURSE.release_notebook(ASSIGNMENT))
    assert done.returncode == 1
    judged = _points(COURSE.release_notebook(ASSIGNMENT), judged=True)
    assert done.stdout.count(NOT_ATTEMPTED) == len(judged), done.stdout
    assert f"\ncontiguous_strides  0 / {judged['contiguous_strides']:g}\n" in done.stdout


def test_a_finite_exercise_says_nothing_of_its_answers(tmp_path):
    """Two wrong entries of view_or_copy: no count, no points, no entry named."""
    nb = complete_notebook(ASSIGNMENT)
    answer = next(c for c in nb["cells"] if "def view_or_copy" in "".join(c["source"]))
    source = "".join(answer["source"])
    answer["source"] = source.replace('"x.t()": "view"', '"x.t()": "copy"').replace(
        '"x[:, 1]": "view"', '"x[:, 1]": "copy"')
    assert answer["source"] != source
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    (folder / "submission.ipynb").write_text(json.dumps(nb))
    done = _validate(folder / "submission.ipynb")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if "view_or_copy" in line]
    assert lines == [f"Hidden checks for view_or_copy: {AT_GRADING}", "view_or_copy        ? / 2"]
    assert "x.t()" not in done.stdout and "x[:, 1]" not in done.stdout


def test_a_broken_notebook_exits_2_with_a_message(tmp_path):
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    broken = folder / "submission.ipynb"
    broken.write_text("{ not json")
    done = _validate(broken)
    assert done.returncode == 2
    assert "could not grade" in done.stderr
    shutil.rmtree(folder)
