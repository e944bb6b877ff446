"""The bridge between the judge and nbgrader fails closed and scores honestly."""

import nbformat
from conftest import COURSE, load_notebook
from nbgrader.preprocessors import ClearHiddenTests, Execute

from grader import _notebook
from grader.bridge._nbgrader import (
    JudgeHiddenChecks,
    autograde_pipeline,
    feedback_pipeline,
    missing_verdicts,
    report_lines,
    score,
)


def test_student_code_never_runs_in_an_nbgrader_kernel(tmp_path):
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
    assert missing_verdicts(released) == list(_notebook.exercise_cells(released))
