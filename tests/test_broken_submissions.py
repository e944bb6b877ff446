"""Broken submissions cost their student points with a clear message, never the batch."""

import json
import os
import subprocess
import sys

import pytest
from conftest import COURSE, ROOT, load_notebook

from grader._demo import synthetic_submission
from grader._triage import triage

ASSIGNMENT = "01_storage_strides"
NAME = COURSE.release_notebook(ASSIGNMENT).name


def _complete() -> dict:
    return synthetic_submission(load_notebook(COURSE.release_notebook(ASSIGNMENT)),
                                load_notebook(COURSE.source_notebook(ASSIGNMENT)), 1.0)


def _other_assignment() -> dict:
    nb = _complete()
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if "grade_id" in meta:
            meta["grade_id"] = "other_" + meta["grade_id"]
    return nb


BROKEN = {
    "empty": ({NAME: ""}, "empty"),
    "not_json": ({NAME: "{ this is not json"}, "not valid JSON"),
    "nbformat3": ({NAME: json.dumps({"nbformat": 3, "worksheets": [], "cells": []})}, "format 3"),
    "renamed": ({"my_homework.ipynb": json.dumps(_complete())}, "found my_homework.ipynb"),
    "nothing": ({"notes.txt": "I forgot"}, "no notebook submitted"),
    "other_assignment": ({NAME: json.dumps(_other_assignment())}, "another assignment"),
}
FINE = {
    "extra_files": {NAME: json.dumps(_complete()), "scratch.py": "x = 1", "data.csv": "1,2"},
    "raises_at_import": {NAME: json.dumps({**_complete(), "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "raise RuntimeError('oops at import')"}, *_complete()["cells"]]})},
}


def _write(submitted, student: str, files: dict[str, str]) -> None:
    folder = submitted / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_triage_names_each_problem_and_passes_the_rest(tmp_path):
    for student, (files, _) in BROKEN.items():
        _write(tmp_path, student, files)
    for student, files in FINE.items():
        _write(tmp_path, student, files)
    problems = triage(tmp_path, ASSIGNMENT, COURSE.release_notebook(ASSIGNMENT))
    assert set(problems) == set(BROKEN)
    for student, (_, phrase) in BROKEN.items():
        assert phrase in problems[student]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("instructor")
    submitted = instructor / "submitted"
    _write(submitted, "good", {NAME: json.dumps(_complete())})
    for student in ("empty", "not_json", "renamed"):
        _write(submitted, student, BROKEN[student][0])
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=1800)
    return instructor, done


def test_the_batch_is_graded_and_the_exit_code_says_some_were_not(graded):
    instructor, done = graded
    assert done.returncode == 1
    table = done.stdout[done.stdout.index(f"\n{ASSIGNMENT}\n"):]
    good = next(line for line in table.splitlines() if line.startswith("good "))
    assert good.rstrip().endswith("100%")


def test_each_broken_student_is_named_in_the_summary_and_told_why(graded):
    instructor, done = graded
    for student in ("empty", "not_json", "renamed"):
        assert f"  {student}: " in done.stdout
        page = instructor / "feedback" / student / ASSIGNMENT / NAME.replace(".ipynb", ".html")
        assert BROKEN[student][1] in page.read_text(encoding="utf-8")
