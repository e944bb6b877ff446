"""Finite-answer exercises: the student's kernel says right or wrong from salted digests."""

import json
import subprocess
import sys

import pytest
import torch
from support import ROOT

from grader import check
from grader.checks import Mismatch, _digests, _finite_answers
from grader.givens.creating_tensors import EXPRESSIONS
from grader.givens.pitfalls import GROUPS
from grader.givens.storage_strides import OPERATIONS


def test_the_digests_are_torchs_answers_as_released():
    released = json.loads(_digests.DIGESTS_FILE.read_text(encoding="utf-8"))
    assert released == _finite_answers.digests(released["salt"]), \
        "grader/checks/answer_digests.json drifted from torch's answers: run `make release`"


def _answers(exercise: str) -> dict:
    """Torch's own answer to ``exercise``, in the form a student returns it."""
    if exercise == "view_or_copy":
        return {op: _finite_answers.torch_view_or_copy(op) for op in OPERATIONS}
    if exercise == "factory_results":
        return {e: _finite_answers.torch_factory_result(e) for e in EXPRESSIONS}
    return {claim: _finite_answers.verdict(claim) for claims in GROUPS.values()
            for claim in claims}


def _flipped(exercise: str, answer):
    if exercise == "view_or_copy":
        return {"view": "copy", "copy": "view"}[answer]
    if exercise == "factory_results":
        dtype, shape = answer
        return (torch.float64 if dtype != torch.float64 else torch.float32), shape
    return not answer


def _as_function(exercise: str, answers: dict):
    def answer():
        return dict(answers)

    answer.__name__ = exercise
    return answer


def _checked_items(exercise: str) -> list[str]:
    digested = json.loads(_digests.DIGESTS_FILE.read_text())["digests"][exercise]
    return sorted({item.split(" | ")[0] for item in digested})


@pytest.mark.parametrize("exercise", ["view_or_copy", "factory_results", "predict_verdicts"])
def test_the_public_check_passes_torchs_answers_and_names_each_wrong_one(exercise, capsys):
    answers = _answers(exercise)
    check(_as_function(exercise, answers))
    assert f"✓ {exercise}" in capsys.readouterr().out
    for item in _checked_items(exercise):
        wrong = {**answers, item: _flipped(exercise, answers[item])}
        with pytest.raises(Mismatch, match="wrong|not on torch") as caught:
            check(_as_function(exercise, wrong))
        assert item in str(caught.value)


def test_the_students_kernel_never_loads_what_computes_a_finite_answer():
    # Every public check loaded, as ``check`` does in a student's kernel.
    probe = ("import sys, grader.checks as c; c.exercise_names(); "
             "print(sorted(m for m in sys.modules if m.startswith('grader')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    loaded = set(eval(done.stdout))
    assert "grader.checks.storage_strides" in loaded  # the probe did load the public checks
    assert not loaded & {"grader.checks._finite_answers", "grader.checks.pitfalls._claims"}
