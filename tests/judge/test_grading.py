"""Hidden checks through the real judge: full, zero, wrong answers, tampering.

Every verdict here comes from ``python -m grader.judge._judge`` in its own process,
exactly as nbgrader's autograde step gets it.
"""

import copy
from concurrent.futures import ThreadPoolExecutor

from support import COURSE, complete_notebook, load_notebook
from support.answers import with_answers, wrong_answers
from support.tampering import TAMPERING

from grader import _notebook
from grader._settings import variable
from grader.judge._judge_server import judge


def _fractions(verdict: dict) -> dict[str, tuple[int, int]]:
    return {name: (r["passed"], r["total"]) for name, r in verdict["exercises"].items()}


def _scores(verdict: dict, assignment: str) -> dict[str, tuple[int, int]]:
    """``_fractions``, after checking that every exercise of the assignment is there:
    a check over the exercises of a verdict that lost some would prove nothing."""
    fractions = _fractions(verdict)
    exercises = _notebook.exercise_cells(load_notebook(COURSE.release_notebook(assignment)))
    assert set(fractions) == set(exercises), "the verdict lost exercises"
    assert all(total > 0 for _, total in fractions.values()), fractions
    return fractions


def test_the_solution_scores_full(assignment):
    verdict = judge(complete_notebook(assignment), assignment)
    failing = {n: [c for c in r["checks"] if not c["passed"]]
               for n, r in verdict["exercises"].items() if r["passed"] < r["total"]}
    assert not failing
    assert all(total >= 3 for _, total in _fractions(verdict).values())
    # The hidden checks grade exactly the notebook's test cells, by name.
    source = load_notebook(COURSE.source_notebook(assignment))
    assert set(verdict["exercises"]) == set(_notebook.exercise_cells(source))


def test_the_released_stub_scores_zero(assignment):
    stub = load_notebook(COURSE.release_notebook(assignment))
    scores = _scores(judge(stub, assignment), assignment)
    assert all(passed == 0 for passed, _ in scores.values()), scores


def test_plausible_wrong_answers_are_caught(assignment, monkeypatch):
    # Scores alone are asserted: each failure's first input will do, not the smallest
    # (the same scores: tests/judge/test_first_failure.py).
    monkeypatch.setenv(variable("first_failure"), "1")
    wrong = wrong_answers(assignment)
    # Every exercise has its wrong answers: the exercises are the notebook's test cells, as
    # the judge matches them (test_the_solution_scores_full), read here without a judge run
    # (a complete notebook's judging cost 15-31 s of this test's time per assignment).
    source = load_notebook(COURSE.source_notebook(assignment))
    assert set(wrong) == set(_notebook.exercise_cells(source))
    assert all(len(answers) >= 2 for answers in wrong.values())
    # Exercises are independent functions, so round k swaps in every
    # exercise's k-th wrong answer at once: one judge run per round, two at a time.
    rounds = [{name: answers[k] for name, answers in wrong.items() if k < len(answers)}
              for k in range(max(len(answers) for answers in wrong.values()))]
    complete = complete_notebook(assignment)
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(pool.map(
            lambda answers: judge(with_answers(complete, answers), assignment),
            rounds))
    for k, (answers, verdict) in enumerate(zip(rounds, verdicts, strict=True)):
        for name, (passed, total) in _scores(verdict, assignment).items():
            if name in answers:
                assert passed < total, f"wrong answer #{k} for {name} scored full:\n{answers[name]}"
            else:
                assert passed == total, f"{name} lost points while another was wrong"


def test_tampering_scores_the_same_as_the_blank_stub(assignment):
    stub = load_notebook(COURSE.release_notebook(assignment))
    names = list(_notebook.exercise_cells(stub))
    tamper = TAMPERING + "\n".join(f"{name} = _anything" for name in names)
    nb = copy.deepcopy(stub)
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": tamper,
                        "outputs": [], "execution_count": None})
    scores = _scores(judge(nb, assignment), assignment)
    assert all(passed == 0 for passed, _ in scores.values()), scores


def test_a_right_answer_after_long_notes_in_its_cell_scores_full():
    """The puzzles' rules read the answer cell's source, however long the cell."""
    assignment = "03_shape_ops_broadcasting"
    nb = complete_notebook(assignment)
    notes = '"""My notes.\n' + "Broadcasting lines shapes up from the right.\n" * 1000 + '"""\n'
    cell = next(c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {})
                .get("grade_id") == "batched_matmul_answer")
    cell["source"] = notes + "".join(cell["source"])
    assert len(cell["source"]) > 40_000
    passed, total = _fractions(judge(nb, assignment))["batched_matmul"]
    assert passed == total


# Answers that call the grader's own oracles, claims or widgets. The oracles and claims
# were importable from the student's process, and scored full marks.
BORROWED = {
    "01_storage_strides": {
        "view_or_copy": "from grader.checks._finite_answers import OPERATIONS, "
                        "torch_view_or_copy\n"
                        "def view_or_copy():\n"
                        "    return {op: torch_view_or_copy(op) for op in OPERATIONS}\n",
        "contiguous_strides": "from anatomy_widgets._layout import contiguous_strides\n",
        "can_view": "from grader.checks.storage_strides._oracle import (\n"
                    "    torch_can_view as can_view)\n",
    },
    "06_pitfalls": {
        "predict_verdicts": "from grader.checks.pitfalls._claims import verdict\n"
                            "from grader.givens.pitfalls import CLAIMS\n"
                            "def predict_verdicts():\n"
                            "    return {claim: verdict(claim) for claim in CLAIMS}\n",
    },
}


def test_answers_borrowed_from_the_graders_own_modules_score_zero():
    for assignment, answers in BORROWED.items():
        verdict = judge(with_answers(complete_notebook(assignment), answers), assignment)
        scores = _fractions(verdict)
        assert {name: scores[name][0] for name in answers} == dict.fromkeys(answers, 0)
        assert all(passed == total for name, (passed, total) in scores.items()
                   if name not in answers)
