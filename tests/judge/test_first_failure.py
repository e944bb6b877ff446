"""``$TENSOR_ANATOMY_FIRST_FAILURE``: a failed hidden check shows the first input it failed
on, not the smallest one (``grader/judge/_plugin.py``, ``_replay.py``).

Shrinking only follows a failure, so skipping it changes what a failure shows and never a
score: here one notebook of named wrong answers, judged by the real judge both ways, gets
the same counts of passed checks per exercise, and inputs that differ where hypothesis
would have shrunk them.
"""

from support import complete_notebook
from support.answers import with_answers, wrong_answers

from grader._settings import variable
from grader.judge._judge_server import judge

ASSIGNMENT = "01_storage_strides"


def _failures(verdict: dict) -> dict[str, str]:
    return {check["check"]: check["detail"] for record in verdict["exercises"].values()
            for check in record["checks"] if not check["passed"]}


def _inputs(verdict: dict) -> dict[str, list]:
    """Each failed check's input, as the verdict keeps it as data."""
    return {check["check"]: check["inputs"] for record in verdict["exercises"].values()
            for check in record["checks"] if not check["passed"]}


def _counts(verdict: dict) -> dict[str, tuple[int, int]]:
    return {name: (r["passed"], r["total"]) for name, r in verdict["exercises"].items()}


def test_the_first_failing_input_scores_what_the_smallest_scores(monkeypatch):
    first_wrong = {name: answers[0] for name, answers in wrong_answers(ASSIGNMENT).items()}
    notebook = with_answers(complete_notebook(ASSIGNMENT), first_wrong)
    shrunk = judge(notebook, ASSIGNMENT)
    monkeypatch.setenv(variable("first_failure"), "1")  # a judge started under it
    first = judge(notebook, ASSIGNMENT)
    assert _counts(first) == _counts(shrunk)
    assert set(_failures(first)) == set(_failures(shrunk)) and len(_failures(shrunk)) >= 5
    differ = [name for name, inputs in _inputs(first).items() if inputs != _inputs(shrunk)[name]]
    assert differ, "every failure shows the same input: the setting was not obeyed"
    # Each drawn input says which it is: the smallest, or the first (not "smallest").
    drawn = [name for name, detail in _failures(shrunk).items() if "failing input: " in detail]
    assert set(differ) <= set(drawn)
    assert all("\nsmallest failing input: " in _failures(shrunk)[name] for name in drawn)
    assert all("\nfailing input: " in _failures(first)[name] for name in drawn)
