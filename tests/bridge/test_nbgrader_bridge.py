"""The bridge between the judge and nbgrader fails closed and scores honestly."""

import nbformat
from nbgrader.preprocessors import ClearHiddenTests, Execute
from support import COURSE, load_notebook

from grader import _notebook
from grader._verdict import verdict_of, with_verdict
from grader.bridge._nbgrader import (
    JudgeHiddenChecks,
    autograde_pipeline,
    feedback_pipeline,
    missing_verdicts,
    report_lines,
    score,
)


def test_student_code_never_runs_in_an_nbgrader_kernel(tmp_path, monkeypatch):
    # The verdict it judges is stored in the instructor folder: a folder of the test's own.
    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(tmp_path / "instructor"))
    pipeline = autograde_pipeline()
    assert Execute not in pipeline and JudgeHiddenChecks in pipeline
    assert JudgeHiddenChecks().enabled, "a disabled judge would leave cells full marks"
    # And by what it does: a cell that leaves a mark wherever it runs unconfined.
    marker = tmp_path / "ran-unconfined"
    nb = nbformat.from_dict(load_notebook(COURSE.release_notebook("01_storage_strides")))
    nb.cells.append(nbformat.v4.new_code_cell(
        f"try:\n    open({str(marker)!r}, 'w').write('here')\n"
        "except OSError as exc:\n    print('refused:', type(exc).__name__)"))
    resources = {"nbgrader": {"assignment": "01_storage_strides"}}
    nb, _ = JudgeHiddenChecks().preprocess(nb, resources)
    assert not marker.exists()
    for name, cell in _notebook.exercise_cells(nb).items():  # each test cell: its verdict
        assert verdict_of(cell)["exercise"] == name and verdict_of(cell)["record"]["total"]
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert printed.startswith("refused:"), nb.cells[-1].outputs


def test_feedback_strips_hidden_test_regions():
    assert ClearHiddenTests in feedback_pipeline()


def test_partial_credit_is_the_fraction_of_checks_passed():
    assert score({"passed": 3, "total": 4}, 2.0) == 1.5
    assert score({"passed": 0, "total": 4}, 2.0) == 0.0
    assert score({"passed": 1, "total": 3}, 3.0) == 1.0
    assert score({"passed": 0, "total": 0}, 2.0) == 0.0  # no checks: no credit


def test_the_report_names_each_failed_check_and_its_smallest_input():
    record = {"passed": 1, "total": 2, "checks": [
        {"description": "agrees on zero-size dims", "passed": False,
         "detail": "returned (0,); torch gives (1,)\nsmallest failing input: shape=(0,)"},
        {"description": "agrees on plain shapes", "passed": True, "detail": ""},
    ]}
    lines = report_lines("contiguous_strides", record, 2.0)
    assert lines[0].endswith("1 of 2 passed → 1 / 2 points")
    assert "  ✗ agrees on zero-size dims" in lines
    assert "      smallest failing input: shape=(0,)" in lines
    assert "  ✓ agrees on plain shapes" in lines


def test_an_unjudged_notebook_is_flagged_cell_by_cell(assignment):
    released = load_notebook(COURSE.release_notebook(assignment))
    assert missing_verdicts(released, None) == list(_notebook.exercise_cells(released))


def test_a_verdict_a_student_forged_in_a_test_cell_is_not_believed():
    """A student writes a test cell's metadata too (stock nbgrader keeps it): a verdict
    counts only where the verdict store holds the same."""
    nb = load_notebook(COURSE.release_notebook("01_storage_strides"))
    names = list(_notebook.exercise_cells(nb))
    full = {"passed": 1, "total": 1, "checks": [
        {"description": "agrees with torch", "passed": True, "detail": ""}]}
    for name, cell in _notebook.exercise_cells(nb).items():
        with_verdict(cell, name, full, 2.0)
    assert missing_verdicts(nb, None) == names  # nothing judged, nothing stored
    judged = {"exercises": {name: {**full, "passed": 0} for name in names}}
    assert missing_verdicts(nb, judged) == names  # stored: another verdict
    stored = {"exercises": {name: full for name in names}}
    assert missing_verdicts(nb, stored) == []
    first = _notebook.exercise_cells(nb)[names[0]]
    with_verdict(first, names[1], full, 2.0)  # another exercise's verdict
    assert missing_verdicts(nb, stored) == names[:1]
    first["metadata"]["tensor_anatomy"]["verdict"] = "forged"
    assert missing_verdicts(nb, stored) == names[:1]
