"""Adversarial answers score nothing: NaN, inf, -0.0, huge, wrong dtype, meta, lying subclass.

For every assignment and every kind of answer, the complete (right) notebook
gets one more cell (``adversarial/wrapper.py``) that makes each exercise's
function return the right answer changed in that way, and the real judge
grades it. Every exercise must score exactly 0. The four puzzles of chapter 3
are the exception that proves the rule: their ``def`` is read from the
notebook and run alone, so a later cell cannot swap it, and they keep full
marks.
"""

import copy
from concurrent.futures import ThreadPoolExecutor

import pytest
from adversarial import wrapper
from support import COURSE, complete_notebook, load_notebook

from grader import _notebook
from grader._settings import variable
from grader.givens.shape_ops_broadcasting import RULES
from grader.judge._judge_server import judge

pytestmark = pytest.mark.heavy  # grades a class in a fixture: scheduled first

KINDS = ["nan", "inf", "negative zero", "huge", "wrong dtype", "meta", "lying subclass"]


def _exercises(assignment: str) -> list[str]:
    return sorted(_notebook.exercise_cells(load_notebook(COURSE.release_notebook(assignment))))


def _adversarial(assignment: str, kind: str) -> dict:
    names = [name for name in _exercises(assignment) if name not in RULES]
    source = wrapper.__loader__.get_source(wrapper.__name__)
    source = source.replace('KIND = "..."', f"KIND = {kind!r}", 1) \
        .replace('NAMES = ["..."]', f"NAMES = {names!r}", 1)
    nb = copy.deepcopy(complete_notebook(assignment))
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": source,
                        "outputs": [], "execution_count": None})
    return nb


@pytest.fixture(scope="module")
def scores() -> dict:
    """(assignment, kind) -> exercise -> (passed, total), all graded by the real judge.

    Scores alone are asserted, so the judges show each failure's first input rather than
    shrink it (``$TENSOR_ANATOMY_FIRST_FAILURE``: the same scores,
    ``tests/judge/test_first_failure.py``); every check here fails."""
    runs = [(a, kind) for a in COURSE.assignments() for kind in KINDS]
    with pytest.MonkeyPatch.context() as patch, ThreadPoolExecutor(max_workers=2) as pool:
        patch.setenv(variable("first_failure"), "1")
        verdicts = pool.map(lambda run: judge(_adversarial(*run), run[0]), runs)
        return {run: {name: (r["passed"], r["total"]) for name, r in v["exercises"].items()}
                for run, v in zip(runs, verdicts, strict=True)}


@pytest.mark.parametrize("kind", KINDS)
def test_no_adversarial_answer_scores(kind, assignment, scores):
    got = scores[(assignment, kind)]
    assert sorted(got) == _exercises(assignment)
    scored = {name: passed for name, (passed, total) in got.items()
              if passed != (total if name in RULES else 0)}
    assert scored == {}, f"{kind} answers scored: {scored}"
