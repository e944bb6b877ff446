"""Per-student variants (``grader/bridge/_variants.py``): which id's variant each step
takes, and where the key goes.

The grading step and the batch take a submission's variant from the id that submitted
it, never from the notebook; a student's ``check()`` tries the variant published in the
fetched folder; ``grader.cli variants`` publishes; the run's last check looks a verdict up
on its student's variant; the key is made once, readable by its owner only, and reaches no
student. The variants themselves, and grading on them: ``tests/bridge/test_variants.py``.
"""

import json
import os
import stat

import nbformat
import pytest
from support.variant_key import (
    ASSIGNMENT,
    COURSE,
    EXERCISE,
    TRUTHS,
    assignment_of,
    instructor_with_key,
    variant_of,
)

from grader import edition
from grader._errors import Mismatch
from grader.batch import _parallel
from grader.bridge import _nbgrader, _structure, _variants
from grader.checks import check
from grader.givens import variants as _variant
from grader.givens.storage_strides import OPERATIONS


def test_the_grader_takes_the_variant_from_the_submitting_id_never_the_notebook(
        tmp_path, monkeypatch):
    """nbgrader's step: the id nbgrader collected under, whatever the notebook says."""
    instructor = instructor_with_key(tmp_path)
    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(instructor))
    handed = []
    monkeypatch.setattr(_nbgrader, "judge",
                        lambda nb, assignment, timeout, variants=None, kept=None:
                        handed.append(variants) or {"exercises": {}, "cells": {}})
    nb = nbformat.from_dict({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                        "source": f"OPERATIONS = {variant_of('grace')!r}"}]})
    resources = {"nbgrader": {"assignment": ASSIGNMENT, "student": "ada"}}
    _nbgrader.JudgeHiddenChecks().preprocess(nb, resources)
    assert handed == [{EXERCISE: variant_of("ada")}]


def test_the_batch_judges_each_submission_on_its_folders_id(tmp_path, monkeypatch):
    instructor = instructor_with_key(tmp_path)
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    monkeypatch.setattr(_structure.RestoredAhead, "restore",
                        lambda self, path, release, other: (nb, {}))
    paths = [instructor / "submitted" / s / ASSIGNMENT / "a.ipynb" for s in ("ada", "grace")]
    pending = _parallel._pending({ASSIGNMENT: (nb, paths)}, instructor / "verdicts", {})
    # The same code, two variants: judged twice, each on its own student's items.
    assert sorted(v[EXERCISE] for _, _, _, v in pending.values()) == sorted(
        [variant_of("ada"), variant_of("grace")])


def test_the_key_is_made_once_readable_by_its_owner_only(tmp_path):
    key = _variants.create_key(tmp_path)
    mode = stat.S_IMODE(os.stat(tmp_path / _variants.KEY_FILE).st_mode)
    assert mode == 0o600 and len(key) == 32
    assert _variants.create_key(tmp_path) == key  # never replaced


def test_a_student_reads_their_published_variant_and_the_key_reaches_no_student(tmp_path):
    instructor, released = tmp_path / "instructor", tmp_path / "outbound" / ASSIGNMENT
    released.mkdir(parents=True)
    _variants.publish(instructor, released, ASSIGNMENT, ["ada", "grace"])
    key = _variants.read_key(instructor).hex()
    ada = _variants.variants_of(instructor, ASSIGNMENT, "ada")[EXERCISE]
    assert _variant.your_items(EXERCISE, OPERATIONS, released, "ada") == ada
    built = tmp_path / "edition"
    edition.build(COURSE, built, commit=False)
    for folder in (released, built, COURSE.root / "exercises"):
        for path in folder.rglob("*"):
            assert not path.is_file() or key not in path.read_text(errors="replace"), path
            assert path.name != _variants.KEY_FILE


def test_no_published_variant_means_the_whole_list_and_a_message(tmp_path, capsys):
    assert _variant.your_items(EXERCISE, OPERATIONS, tmp_path, "ada") == list(OPERATIONS)
    assert "No variant of view_or_copy is published in this folder" in capsys.readouterr().out


@pytest.mark.parametrize("exercise", TRUTHS)
def test_check_tries_the_students_own_variant(exercise, tmp_path, monkeypatch):
    """``check(fn)`` in the fetched folder: the published items, no others."""
    assignment = assignment_of(exercise)
    instructor, released = tmp_path / "instructor", tmp_path / assignment
    released.mkdir()
    monkeypatch.setenv("USER", "ada")
    monkeypatch.delenv("LOGNAME", raising=False)
    _variants.publish(instructor, released, assignment, ["ada"])
    ada = _variants.variants_of(instructor, assignment, "ada")[exercise]
    table = {item: TRUTHS[exercise][item] for item in ada}

    def answer():
        return table

    answer.__name__ = exercise
    monkeypatch.chdir(released)
    check(answer)  # all this student is asked (predict_verdicts: of the warm-up groups)
    monkeypatch.chdir(tmp_path)  # no variant published here: the whole list is asked
    with pytest.raises(Mismatch):
        check(answer)


def test_the_variants_command_publishes_into_the_released_folder(tmp_path, monkeypatch, capsys):
    from grader import cli

    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(tmp_path / "instructor"))
    released = tmp_path / "outbound" / ASSIGNMENT
    released.mkdir(parents=True)
    argv = ["variants", ASSIGNMENT, "--student", "ada", "--student", "=bad", "--into",
            str(released)]
    assert cli.main(argv) == 0
    said = capsys.readouterr().out
    assert "1 variants published" in said and "=bad: " in said  # a refused id gets none
    published = json.loads((released / "variants" / _variant.file_name("ada")).read_text())
    key = _variants.read_key(tmp_path / "instructor")
    assert published == {EXERCISE: variant_of("ada", key),
                         _variant.EXAMPLES_SEED: _variants.example_seed(key, ASSIGNMENT, "ada"),
                         _variant.STORED_EXAMPLES: {}}  # chapter 1 has no stored truth
    assert cli.main(["variants", ASSIGNMENT, "--student", "ada", "--into",
                     str(tmp_path / "not-released")]) == 2


def test_the_runs_unjudged_check_finds_each_verdict_on_its_students_variant(tmp_path):
    """The run's last check (every test cell carries a verdict the store holds) looks the
    verdict up as it was stored: on the variant of the student whose folder it is in."""
    from types import SimpleNamespace

    from grader import _notebook
    from grader._verdict import with_verdict
    from grader.batch._run import _unjudged_notebooks
    from grader.store._verdicts import store_verdict

    instructor = instructor_with_key(tmp_path)
    nb = _notebook.load(COURSE.release_notebook(ASSIGNMENT))
    record = {"total": 1, "passed": 1, "checks": []}  # any record: the store must hold the same
    for name, cell in _notebook.exercise_cells(nb).items():
        with_verdict(cell, name, record, 1.0)
    path = instructor / "autograded" / "ada" / ASSIGNMENT / COURSE.release_notebook(ASSIGNMENT).name
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    verdict = {"assignment": ASSIGNMENT,
               "exercises": {name: record for name in _notebook.exercise_cells(nb)}}
    store_verdict(instructor / "verdicts", nb, ASSIGNMENT, verdict,
                  _variants.variants_of(instructor, ASSIGNMENT, "ada"))
    assert _unjudged_notebooks(SimpleNamespace(instructor=instructor), ASSIGNMENT) == []
    # Stored on grace's variant instead: not this notebook's verdict, so it is flagged.
    (instructor / "verdicts").rename(tmp_path / "old")
    store_verdict(instructor / "verdicts", nb, ASSIGNMENT, verdict,
                  _variants.variants_of(instructor, ASSIGNMENT, "grace"))
    assert _unjudged_notebooks(SimpleNamespace(instructor=instructor), ASSIGNMENT) != []
