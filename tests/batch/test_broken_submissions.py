"""Broken submissions cost their student points with a clear message, never the batch."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import COURSE, ROOT, complete_notebook, load_notebook

from grader._notebook import code_cells
from grader.batch._triage import triage
from grader.bridge._structure import restore_structure

ASSIGNMENT = "01_storage_strides"
NAME = COURSE.release_notebook(ASSIGNMENT).name


def _complete() -> dict:
    return complete_notebook(ASSIGNMENT)


def _other_assignment() -> dict:
    nb = _complete()
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if "grade_id" in meta:
            meta["grade_id"] = "other_" + meta["grade_id"]
    return nb


def _with_first_code_cell(change) -> dict:
    nb = _complete()
    change(next(cell for cell in nb["cells"] if cell["cell_type"] == "code"))
    return nb


BROKEN = {
    "empty": ({NAME: ""}, "empty"),
    "not_json": ({NAME: "{ this is not json"}, "not valid JSON"),
    "nbformat3": ({NAME: json.dumps({"nbformat": 3, "worksheets": [], "cells": []})}, "format 3"),
    "nbformat3_worksheets": ({NAME: json.dumps({"nbformat": 3, "worksheets": [{"cells": []}]})},
                             "format 3"),
    "invalid_utf8": ({NAME: json.dumps(_complete()).encode().replace(b"def ", b"def \xff", 1)},
                     "not valid UTF-8"),
    "deep_nesting": ({NAME: "[" * 100_000}, "nested too deeply"),
    "a_number_among_the_cells": ({NAME: json.dumps({**_complete(),
                                                    "cells": [*_complete()["cells"], 7]})},
                                 "is a int, not a cell"),
    "nbgrader_null": ({NAME: json.dumps(_with_first_code_cell(
        lambda cell: cell["metadata"].update(nbgrader=None)))}, "metadata is not a mapping"),
    "metadata_null": ({NAME: json.dumps(_with_first_code_cell(
        lambda cell: cell.update(metadata=None)))}, "metadata is not a mapping"),
    "megabytes_of_code": ({NAME: json.dumps(_with_first_code_cell(
        lambda cell: cell.update(source="x = 1\n" * 400_000)))}, "characters of code"),
    "renamed": ({"my_homework.ipynb": json.dumps(_complete())}, "found my_homework.ipynb"),
    "nothing": ({"notes.txt": "I forgot"}, "no notebook submitted"),
    "other_assignment": ({NAME: json.dumps(_other_assignment())}, "another assignment"),
}
FINE = {
    "byte_order_mark": {NAME: "\ufeff" + json.dumps(_complete())},
    "extra_files": {NAME: json.dumps(_complete()), "scratch.py": "x = 1", "data.csv": "1,2"},
    "raises_at_import": {NAME: json.dumps({**_complete(), "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "raise RuntimeError('oops at import')"}, *_complete()["cells"]]})},
}


def _write(submitted, student: str, files: dict[str, str]) -> None:
    folder = submitted / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for name, content in files.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (folder / name).write_bytes(data)


def test_triage_names_each_problem_and_passes_the_rest(tmp_path):
    for student, (files, _) in BROKEN.items():
        _write(tmp_path, student, files)
    for student, files in FINE.items():
        _write(tmp_path, student, files)
    problems = triage(tmp_path, ASSIGNMENT, COURSE.release_notebook(ASSIGNMENT))
    assert set(problems) == set(BROKEN)
    for student, (_, phrase) in BROKEN.items():
        assert phrase in problems[student]


# Each once stopped the whole batch, or left its student without feedback.
GRADED_BROKEN = ("empty", "not_json", "renamed", "invalid_utf8", "deep_nesting",
                 "a_number_among_the_cells", "nbgrader_null", "metadata_null")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    instructor = tmp_path_factory.mktemp("instructor")
    submitted = instructor / "submitted"
    _write(submitted, "good", {NAME: json.dumps(_complete())})
    for student in GRADED_BROKEN:
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
    for student in GRADED_BROKEN:
        assert f"  {student}: " in done.stdout
        page = instructor / "feedback" / student / ASSIGNMENT / NAME.replace(".ipynb", ".html")
        assert BROKEN[student][1] in page.read_text(encoding="utf-8")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
KEYS = st.sampled_from(["cells", "metadata", "nbformat", "cell_type", "source", "nbgrader",
                        "grade_id", "grade", "solution", "points", "outputs"])


@st.composite
def near_notebooks(draw) -> dict:
    """The complete notebook with one field, anywhere, replaced by arbitrary JSON."""
    nb = _complete()
    place = nb
    while True:
        keys = list(place) if isinstance(place, dict) else list(range(len(place)))
        if not keys:
            return nb
        key = draw(st.sampled_from(keys))
        if draw(st.booleans()) or not isinstance(place[key], (dict, list)):
            place[key] = draw(JSON | KEYS)
            return nb
        place = place[key]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(JSON, near_notebooks(), st.binary(max_size=64)))
def test_no_file_breaks_triage_and_what_it_passes_can_be_graded(tmp_path_factory, content):
    submitted = tmp_path_factory.mktemp("submitted")
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    _write(submitted, "someone", {NAME: data})
    release = load_notebook(COURSE.release_notebook(ASSIGNMENT))
    problem = triage(submitted, ASSIGNMENT, COURSE.release_notebook(ASSIGNMENT)).get("someone")
    if problem is None:
        nb = json.loads(data.decode("utf-8-sig"))
        restored, _ = restore_structure(nb, release)
        code_cells(restored)
    else:
        assert isinstance(problem, str) and 0 < len(problem) < 300
