"""Replayed examples (``grader/judge/_replay.py``): the search's cost once, its verdict always.

A warm judge records a passing check's examples and replays them for the next
notebook. That must never change a verdict: a notebook gets exactly what a
judge with nothing recorded gives it, failures and smallest inputs included.
"""

import json
import sys
from pathlib import Path

import torch
from support import complete_notebook, submission
from support.answers import with_answers, wrong_answers

from grader.judge import _judge, _replay_file
from grader.judge._plugin import Grading
from grader.judge._replay import ExampleReplay

CHECKS = '''
import pytest, torch
from hypothesis import given, settings, strategies as st
from grader.hidden.strategies import layouts

CALLS = []


@pytest.mark.exercise("double")
@settings(max_examples=25)
@given(x=layouts(permute=True, step=True, offset=True, expand=True))
def test_double_on_any_layout(x, *, student):
    """doubles tensors of any layout"""
    CALLS.append(x)
    got = student.double(x)
    assert torch.equal(got, x * 2), f"double({x.tolist()}) returned {got.tolist()}"


@pytest.mark.exercise("double")
@settings(max_examples=5)
@given(x=st.integers(1, 3).map(lambda n: torch.ones(n, requires_grad=True) * 2))
def test_double_inside_a_graph(x, *, student):
    """an argument that cannot be deep-copied (it is not a leaf of its graph)"""
    assert torch.equal(student.double(x.detach()), x.detach() * 2)
'''
RIGHT = "def double(x):\n    return x * 2\n"
WRONG_FROM_2D = "def double(x):\n    return x * 2 if x.dim() < 2 else x * 3\n"
STUB = "def double(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
NOT_FOR_2D = ("def double(x):\n    if x.dim() >= 2:\n"
              "        raise NotImplementedError('not for matrices')\n    return x * 2\n")
BARE_FOR_2D = NOT_FOR_2D.replace("NotImplementedError('not for matrices')",
                                 "NotImplementedError()")


def _judge_with(replay: ExampleReplay, source: str, tmp_path, monkeypatch,
                checks_text: str = CHECKS) -> dict:
    name = f"checks_{tmp_path.name}"  # a module name of its own in this process
    checks, notebook = tmp_path / f"{name}.py", tmp_path / "double.ipynb"
    checks.write_text(checks_text, encoding="utf-8")
    sys.modules.pop(name, None)  # pytest imports it afresh, as a new judge would
    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "code", "metadata": {}, "source": source}]}), encoding="utf-8")
    monkeypatch.setattr(_judge, "_GRADING", Grading(replay))
    return _judge.run_judge(notebook, "double", checks)


def test_a_passing_check_is_searched_once_then_replayed(tmp_path, monkeypatch):
    replay = ExampleReplay()
    first = _judge_with(replay, RIGHT, tmp_path, monkeypatch)
    assert (replay.searched, replay.replayed) == (2, 0)
    again = _judge_with(replay, RIGHT, tmp_path, monkeypatch)
    # The graph check's arguments cannot be copied: it is searched every time.
    assert (replay.searched, replay.replayed) == (3, 1)
    assert first == again and first["exercises"]["double"]["passed"] == 2


def _calls(tmp_path) -> int:
    """How often the layout check's body ran in the last judge run (its module is new)."""
    return len(sys.modules[f"checks_{tmp_path.name}"].CALLS)


def _replayed_and_searched(source: str, tmp_path, monkeypatch) -> tuple[dict, int, dict, int,
                                                                       int]:
    """``source`` judged after a right answer recorded the examples, then by a judge with
    none: each verdict, how often the layout check's body ran for it, and how many checks
    the replay decided without a search."""
    replay = ExampleReplay()
    _judge_with(replay, RIGHT, tmp_path, monkeypatch)
    replayed = _judge_with(replay, source, tmp_path, monkeypatch)
    replayed_calls = _calls(tmp_path)
    searched = _judge_with(ExampleReplay(), source, tmp_path, monkeypatch)
    return replayed, replayed_calls, searched, _calls(tmp_path), replay.replayed


def test_a_failure_among_replayed_examples_is_searched_and_shrunk(tmp_path, monkeypatch):
    replayed, replayed_calls, searched, searched_calls, decided = _replayed_and_searched(
        WRONG_FROM_2D, tmp_path, monkeypatch)
    assert decided == 0  # the layout check failed a replayed example: searched
    assert replayed == searched
    # The replay fails where a search fails first, then shrinks at once: its calls stand
    # for the search without shrinking (less that search's rerun of its failure), which
    # is not made as well.
    assert replayed_calls < searched_calls
    layout_check = replayed["exercises"]["double"]["checks"][0]
    assert not layout_check["passed"]
    assert "smallest failing input: x=" in layout_check["detail"]


def test_a_stub_s_failure_among_replayed_examples_is_decided_there(tmp_path, monkeypatch):
    # Unfinished for matrices only: its first failing input is a later example, and one
    # that shrinking would make smaller (test_a_not_implemented_error_that_says_why_is_shrunk).
    replayed, replayed_calls, searched, searched_calls, decided = _replayed_and_searched(
        BARE_FOR_2D, tmp_path, monkeypatch)
    assert replayed == searched
    detail = replayed["exercises"]["double"]["checks"][0]["detail"]
    assert detail.startswith("your code: NotImplementedError\nfailing input: double(tensor(")
    # Neither shrunk nor searched: the replay stops at the failure, where the search that
    # would have found it runs the failing example once more, to report it.
    assert decided == 1 and replayed_calls == searched_calls - 1


def _layout_check(source: str, tmp_path, monkeypatch) -> tuple[str, int]:
    """The layout check's detail for ``source``, and how often its body ran."""
    verdict = _judge_with(ExampleReplay(), source, tmp_path, monkeypatch)
    return verdict["exercises"]["double"]["checks"][0]["detail"], _calls(tmp_path)


def test_an_unfinished_exercise_fails_on_its_first_input_without_shrinking(tmp_path,
                                                                              monkeypatch):
    detail, calls = _layout_check(STUB, tmp_path, monkeypatch)
    assert detail.startswith("your code: NotImplementedError\nfailing input: double(tensor(")
    wrong_detail, wrong_calls = _layout_check(WRONG_FROM_2D, tmp_path, monkeypatch)
    assert "smallest failing input: x=" in wrong_detail
    assert calls < 5 < wrong_calls  # the stub's first failure is final; a wrong answer shrinks


def _shown_input(detail: str) -> torch.Tensor:
    """The tensor a check's detail shows as its input (hypothesis writes it as its repr)."""
    def tensor(data, size=None, dtype=torch.int64):  # torch's repr of a tensor, read back
        made = torch.tensor(data, dtype=dtype)
        return made.reshape(size) if size is not None else made

    return eval(detail.split(" input: x=", 1)[1], {"tensor": tensor, "torch": torch})


def _shown_call_shape(detail: str) -> tuple:
    """The shape of the tensor a stub's call shows as its input (``describe_call``)."""
    def tensor(*values, shape, **layout):
        return shape

    return eval(detail.split(" input: ", 1)[1],
                {"double": lambda x: x, "tensor": tensor, "int64": torch.int64})


def test_a_not_implemented_error_that_says_why_is_shrunk(tmp_path, monkeypatch):
    # Which input is smallest is hypothesis's shrinker's to say: not written down here.
    # The same failure raised bare (as the stub raises it) is shown unshrunk.
    why, bare = tmp_path / f"{tmp_path.name}_why", tmp_path / f"{tmp_path.name}_bare"
    why.mkdir(), bare.mkdir()  # each its own checks module
    detail, calls = _layout_check(NOT_FOR_2D, why, monkeypatch)
    bare, bare_calls = _layout_check(BARE_FOR_2D, bare, monkeypatch)
    assert detail.startswith("your code: NotImplementedError: not for matrices\n"
                             "smallest failing input: x=")
    assert bare.startswith("your code: NotImplementedError\nfailing input: double(tensor(")
    # Each input shown is one the answer fails on: a matrix or more.
    assert _shown_input(detail).dim() >= 2 and len(_shown_call_shape(bare)) >= 2
    assert calls > bare_calls  # searched again, and shrunk


def test_a_changed_check_file_is_searched_again(tmp_path, monkeypatch):
    replay = ExampleReplay()
    _judge_with(replay, RIGHT, tmp_path, monkeypatch)
    _judge_with(replay, RIGHT, tmp_path, monkeypatch,
                checks_text=CHECKS.replace("max_examples=25", "max_examples=20"))
    assert replay.replayed == 0 and replay.searched == 4


def _judged(replay, notebook, assignment, monkeypatch, kept=None) -> dict:
    monkeypatch.setattr(_judge, "_GRADING", Grading(replay))
    return _judge.run_judge(notebook, assignment, kept=kept)


def test_every_chapter_gives_replayed_notebooks_the_searched_verdict(assignment, tmp_path,
                                                                      monkeypatch):
    """A complete notebook records; its wrong answers then get the verdict of a fresh judge,
    replayed by the judge that recorded them or by a new one from the file it kept."""
    kept = str(tmp_path / "examples" / assignment)
    recorder, reader = ExampleReplay(), ExampleReplay()  # the reader has only the file
    complete = tmp_path / "complete.ipynb"
    complete.write_text(json.dumps(complete_notebook(assignment)), encoding="utf-8")
    _judged(recorder, complete, assignment, monkeypatch, kept)
    wrong = tmp_path / "wrong.ipynb"
    first_wrong = {name: answers[0] for name, answers in wrong_answers(assignment).items()}
    wrong.write_text(json.dumps(with_answers(complete_notebook(assignment), first_wrong)),
                     encoding="utf-8")
    half = tmp_path / "half.ipynb"  # half its exercises still the stubs
    half.write_text(json.dumps(submission(assignment, 0.5)), encoding="utf-8")
    for notebook in (complete, wrong, half):
        searched = _judged(ExampleReplay(), notebook, assignment, monkeypatch)
        for replay in (recorder, reader):
            replayed = _judged(replay, notebook, assignment, monkeypatch, kept)
            assert _outcomes(replayed) == _outcomes(searched)
            assert _details(replayed) == _details(searched)
            assert " object at 0x" not in json.dumps(replayed)  # no fixture's repr as input
        if notebook == complete:  # the new judge replayed every check the file kept
            file = _replay_file.read(_replay_file.device_file(Path(kept)))
            assert reader.replayed == len(file) > 0
    assert recorder.replayed > 0


# Answers that depend on the calls made before them, not only on their inputs:
# this wrong answer draws from the process's global generator, so the values
# its failure shows depend on how many calls came first (replayed ones too).
HISTORY_DEPENDENT = {"seeded_init"}


def _outcomes(verdict: dict) -> dict:
    return {name: [(c["check"], c["passed"]) for c in record["checks"]]
            for name, record in verdict["exercises"].items()}


def _details(verdict: dict) -> dict:
    return {name: [c["detail"] for c in record["checks"]]
            for name, record in verdict["exercises"].items() if name not in HISTORY_DEPENDENT}
