"""Tampering with a notebook's grade cells changes nothing: the submission is put
back into the released shape before nbgrader reads it (grader/bridge/_structure.py).

Each case is the complete solution with one kind of structural tampering; what
the judge then runs (the code cells, in order) and what nbgrader grades (the
test cells and their metadata) must equal the untampered submission's.
"""

import copy

import pytest
from support import ASSIGNMENTS, COURSE, complete_notebook, load_notebook
from support.tampering import (
    TAMPERINGS,
    answer_cells,
    delete_a_test_cell,
    grade_meta,
    reorder_every_cell,
)

from grader import _notebook
from grader.bridge._structure import restore_structure

ASSIGNMENT = ASSIGNMENTS[0]


@pytest.fixture(scope="module")
def release():
    return load_notebook(COURSE.release_notebook(ASSIGNMENT))


@pytest.fixture(scope="module")
def complete(release):
    return complete_notebook(ASSIGNMENT)


def _graded_shape(nb) -> tuple:
    """What decides a grade: the code that runs, and every nbgrader cell with its metadata."""
    cells = [(c["cell_type"], grade_meta(c), "".join(c["source"]))
             for c in nb["cells"] if grade_meta(c)]
    return _notebook.code_cells(nb), cells


def _answer_sources(nb) -> list:
    return [c["source"] for c in answer_cells(nb)]


def test_an_untouched_submission_is_left_as_it_was(complete, release):
    restored, changes = restore_structure(complete, release)
    assert changes == []
    assert _graded_shape(restored) == _graded_shape(complete)
    assert _answer_sources(restored) == _answer_sources(complete)


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__.strip("_"))
def test_structural_tampering_changes_nothing_that_is_graded(tamper, complete, release):
    honest, _ = restore_structure(complete, release)
    tampered = copy.deepcopy(complete)
    tamper(tampered)
    restored, changes = restore_structure(tampered, release)
    if tamper is reorder_every_cell:
        # Answers are independent functions: their order does not matter, their code does.
        assert sorted(_notebook.code_cells(restored)) == sorted(_notebook.code_cells(honest))
        assert _graded_shape(restored)[1] == _graded_shape(honest)[1]
    else:
        assert changes and "released versions were graded" in changes[0]
        assert _graded_shape(restored) == _graded_shape(honest)
        assert restored["cells"][0]["source"].startswith("**Grader's note")


def test_the_students_own_cells_still_run_after_the_answer_they_followed(complete, release):
    nb = copy.deepcopy(complete)
    first_answer = nb["cells"].index(answer_cells(nb)[0])
    helper = {"cell_type": "code", "id": "mine", "metadata": {}, "outputs": [],
              "execution_count": None, "source": "def helper():\n    return 1"}
    nb["cells"].insert(first_answer + 1, helper)
    restored, changes = restore_structure(nb, release)
    code = _notebook.code_cells(restored)
    assert changes == []
    assert code.index(helper["source"]) == code.index(answer_cells(complete)[0]["source"]) + 1


def test_a_copied_answer_cell_runs_as_plain_code_after_the_first(complete, release):
    nb = copy.deepcopy(complete)
    copied = copy.deepcopy(answer_cells(nb)[0])
    copied["source"] = "# my second try\n" + copied["source"]
    nb["cells"].append(copied)
    restored, _ = restore_structure(nb, release)
    assert _notebook.code_cells(restored)[-1] == copied["source"]  # last wins, as in a kernel
    assert _answer_sources(restored) == _answer_sources(complete)


def test_a_deleted_answer_cell_is_graded_as_the_blank_stub(complete, release):
    nb = copy.deepcopy(complete)
    gone = answer_cells(nb)[0]
    nb["cells"].remove(gone)
    restored, changes = restore_structure(nb, release)
    assert answer_cells(restored)[0]["source"] == "".join(answer_cells(release)[0]["source"])
    assert any(grade_meta(gone)["grade_id"] in change for change in changes)


def _nbgrader_sanitizes(path, monkeypatch, instructor, ahead=None) -> dict:
    """nbgrader's first sanitize step, as ``nbgrader autograde`` calls it on ``path``
    (in a grading run whose notebooks restored ahead are ``ahead``)."""
    import nbformat

    from grader.bridge import _nbgrader

    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(instructor))
    resources = {"nbgrader": {"student": path.parent.parent.name, "assignment": ASSIGNMENT,
                              "notebook": path.stem}}
    restore = _nbgrader.sanitize_pipeline(ahead)[0]
    nb, _ = restore().preprocess(nbformat.read(path, as_version=4), resources)
    return nb


def test_a_submission_judged_ahead_is_not_restored_again_by_nbgrader(complete, release,
                                                                      tmp_path, monkeypatch):
    """The grading command restores once: nbgrader takes what judging ahead restored,
    and restores only a notebook changed on disk since (or never restored)."""
    import json

    from grader.bridge import _nbgrader, _structure

    path = tmp_path / "submitted" / "ada" / ASSIGNMENT / COURSE.release_notebook(ASSIGNMENT).name
    path.parent.mkdir(parents=True)
    tampered = copy.deepcopy(complete)
    delete_a_test_cell(tampered)
    path.write_text(json.dumps(tampered), encoding="utf-8")
    run = _structure.RestoredAhead()  # a grading run's
    ahead, _ = run.restore(path, release)
    calls = []
    monkeypatch.setattr(_nbgrader, "restore_structure",
                        lambda *args: calls.append(args) or restore_structure(*args))
    assert _graded_shape(_nbgrader_sanitizes(path, monkeypatch, tmp_path, run)) == \
        _graded_shape(ahead)
    assert calls == []
    run.restore(path, release)
    path.write_text(json.dumps(complete), encoding="utf-8")  # changed after it was judged
    assert _graded_shape(_nbgrader_sanitizes(path, monkeypatch, tmp_path, run)) == \
        _graded_shape(complete)
    assert len(calls) == 1
