"""Per-student variants of the finite exercises (``grader/bridge/_variants.py``): the
variants themselves, and grading on them.

Derived from the id that submitted and a key only the instructor holds: two students
answer different items, every variant has torch's answer, a classmate's table scores as
wrong for the items it lacks (with one line of feedback saying why), and an edited
variant cell does not change what is graded. Which id's variant each step takes, and
where the key goes: ``tests/bridge/test_variant_delivery.py``.
"""

import contextlib
import itertools
import json
import sys
from pathlib import Path

import pytest
from support import ROOT
from support.variant_key import (
    ASSIGNMENT,
    COURSE,
    EXERCISE,
    KEY,
    TRUTH,
    TRUTHS,
    VERDICTS,
    assignment_of,
    variant_of,
)

from grader._language import localized
from grader.bridge import _variants
from grader.bridge._verdict_text import report_lines
from grader.checks import _finite_answers
from grader.givens.pitfalls import CLAIMS, GROUPS
from grader.givens.storage_strides import OPERATIONS
from grader.judge._plugin import Grading

HIDDEN = ROOT / "grader" / "hidden"
IDS = [f"student{number:03d}" for number in range(200)]


POOLED = [(assignment, exercise) for assignment, exercises in _variants.POOLS.items()
          for exercise in exercises if exercise not in _variants.GROUPED]


def _counted(exercise: str) -> tuple[list[list[str]], list[frozenset], int, float]:
    """200 ids' variants of ``exercise``, their sets, pairs alike, items shared on average."""
    variants = [_variants.draw(KEY, assignment_of(exercise), exercise, s) for s in IDS]
    sets = [frozenset(v) for v in variants]
    same = sum(a == b for a, b in itertools.combinations(sets, 2))
    shared = [len(a & b) for a, b in itertools.combinations(sets, 2)]
    print(f"{exercise}, 200 ids: {len(set(map(tuple, variants)))} orders, {len(set(sets))} "
          f"sets of items, {same} pairs with the same items, "
          f"{sum(shared) / len(shared):.2f} of {len(variants[0])} shared on average")
    return variants, sets, same, sum(shared) / len(shared)


@pytest.mark.parametrize(("chapter", "exercise"), POOLED, ids=[e for _, e in POOLED])
def test_200_students_get_200_orders_and_almost_200_sets_of_items(chapter, exercise):
    variants, sets, same, shared = _counted(exercise)
    assert all(len(v) == len(set(v)) == _variants.SIZE for v in variants)
    assert len(set(map(tuple, variants))) == 200
    # C(16, 8) = 12,870 sets: 200 ids make about 1.5 pairs with the same items.
    assert len(set(sets)) >= 195 and same <= 5
    assert 3.0 < shared < 4.5  # a classmate shares half of yours or less


def test_predict_verdicts_variants_take_two_claims_of_every_group():
    """Graded group by group, all or nothing: every student's groups are alike in size."""
    variants, sets, same, shared = _counted("predict_verdicts")
    for variant in variants:
        assert [len(set(claims) & set(variant)) for claims in GROUPS.values()] == [2] * 5
    # 3^5 = 243 sets: 200 ids make about 82 pairs alike (measured 133 sets, 85 pairs).
    assert len(set(map(tuple, variants))) >= 195 and len(set(sets)) >= 120 and same <= 110
    assert 6.0 < shared < 7.4  # a pair of a group shared with odds 1/3: 2/3 * 10 on average


def test_two_students_differ_and_another_key_gives_other_variants():
    assert variant_of("ada") != variant_of("grace")
    assert variant_of("ada") != variant_of("ada", bytes(32))
    assert variant_of("ada") == variant_of("ada")  # regrading gives the same


@pytest.mark.parametrize("exercise", TRUTHS)
def test_every_variant_has_a_torch_answer_that_the_solution_reaches(exercise):
    solution, truth = _solution_table(exercise), TRUTHS[exercise]
    for student in IDS:
        variant = _variants.draw(KEY, assignment_of(exercise), exercise, student)
        assert set(variant) <= truth.keys() <= solution.keys()
    assert {item: solution[item] for item in truth} == truth


def _solution_table(exercise: str) -> dict:
    nb = json.loads(COURSE.source_notebook(assignment_of(exercise)).read_text(encoding="utf-8"))
    source = next("".join(c["source"]) for c in nb["cells"]
                  if f"def {exercise}" in "".join(c["source"]))
    namespace = {}
    exec(source, {**namespace, "OPERATIONS": OPERATIONS}, namespace)
    return namespace[exercise]()


def _graded(tmp_path: Path, table: dict, variants: dict | None,
            exercise: str = EXERCISE) -> dict:
    """The hidden checks of ``exercise`` on a student whose function returns ``table``,
    graded on ``variants`` (as the judge hands them), in this process."""
    assignment = assignment_of(exercise)
    code = tmp_path / "student.py"
    code.write_text(f"import numpy as np\nimport torch\n"
                    f"OPERATIONS = {list(table)!r}  # the variant cell, edited\n"
                    f"def {exercise}():\n    return {table!r}\n", encoding="utf-8")
    grading = Grading()
    grading.begin(None, variants)
    args = [str(HIDDEN / assignment.split("_", 1)[1] / "test.py"), "--student-code", str(code),
            "--student-local", "-q", "-k", f"test_{exercise}", "--noconftest",
            "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(HIDDEN),
            "-c", str(HIDDEN / "pytest.ini"), "-W", "ignore::pytest.PytestAssertRewriteWarning"]
    with contextlib.redirect_stdout(sys.stderr):
        assert pytest.main(args, plugins=[grading]) in (0, 1)
    return grading.verdict()[exercise]


def _table(items) -> dict[str, str]:
    return {op: TRUTH[op] for op in items}


def _pair() -> tuple[list[str], list[str]]:
    """Two students whose variants differ."""
    return variant_of("ada"), variant_of("grace")


def test_own_table_scores_full_and_only_the_variant_is_graded(tmp_path):
    ada, _ = _pair()
    record = _graded(tmp_path, _table(ada), {EXERCISE: ada})
    assert (record["passed"], record["total"]) == (8, 8)
    assert [c["check"] for c in record["checks"]] == [f"test_view_or_copy[{op}]"
                                                      for op in OPERATIONS if op in ada]
    assert "another_variant" not in record


def test_a_copied_table_scores_as_wrong_for_the_items_it_lacks_and_says_why(tmp_path):
    ada, grace = _pair()
    record = _graded(tmp_path, _table(grace), {EXERCISE: ada})  # ada hands in grace's table
    assert record["total"] == 8
    assert record["passed"] == len(set(ada) & set(grace)) < 8
    assert record["another_variant"] is True
    lines = report_lines(EXERCISE, record, 2.0)
    assert lines[1].strip().startswith("These answers are for another variant than yours")
    said = report_lines(EXERCISE, record, 2.0, "zh-CN")[1].strip()  # the student's language
    assert said == localized(lines[1].strip(), "verdict", "zh-CN") != lines[1].strip()


def test_factory_results_is_graded_on_the_variant_too(tmp_path):
    exercise, pool = "factory_results", _variants.POOLS["02_creating_tensors"]["factory_results"]
    ada, grace = (_variants.derive(KEY, "02_creating_tensors", exercise, s, pool)
                  for s in ("ada", "grace"))
    truth = {e: _finite_answers.torch_factory_result(e) for e in pool}
    own = _graded(tmp_path, {e: truth[e] for e in ada}, {exercise: ada}, exercise)
    copied = _graded(tmp_path, {e: truth[e] for e in grace}, {exercise: ada}, exercise)
    assert (own["passed"], own["total"]) == (8, 8) and "another_variant" not in own
    assert copied["passed"] == len(set(ada) & set(grace)) < 8 == copied["total"]
    assert copied["another_variant"] is True


def test_predict_verdicts_grades_the_variants_claims_of_each_group(tmp_path):
    """One check per group, on the student's two claims of it: a wrong verdict outside
    them costs nothing, one inside costs its group, a classmate's table the groups whose
    pair differs (with the another-variant line)."""
    exercise = "predict_verdicts"
    ada, grace = (_variants.draw(KEY, "06_pitfalls", exercise, s) for s in ("ada", "grace"))
    others = [claim for claim in CLAIMS if claim not in ada]
    slips = {**VERDICTS, others[0]: not VERDICTS[others[0]], ada[0]: not VERDICTS[ada[0]]}
    own = _graded(tmp_path, {claim: VERDICTS[claim] for claim in ada}, {exercise: ada}, exercise)
    slipped = _graded(tmp_path, slips, {exercise: ada}, exercise)
    copied = _graded(tmp_path, {c: VERDICTS[c] for c in grace}, {exercise: ada}, exercise)
    assert (own["passed"], own["total"]) == (5, 5) and "another_variant" not in own
    assert (slipped["passed"], slipped["total"]) == (4, 5)  # ada[0]'s group only
    alike = sum(set(ada) & set(claims) <= set(grace) for claims in GROUPS.values())
    assert copied["passed"] == alike < 5 == copied["total"]
    assert copied["another_variant"] is True


def test_the_whole_list_is_never_penalised(tmp_path):
    """What a student with no published variant answers: fair on every variant."""
    ada, _ = _pair()
    record = _graded(tmp_path, TRUTH, {EXERCISE: ada})
    assert (record["passed"], record["total"]) == (8, 8) and "another_variant" not in record


def test_without_a_key_the_whole_list_is_graded(tmp_path):
    assert _variants.variants_of(tmp_path, ASSIGNMENT, "ada") == {}
    record = _graded(tmp_path, TRUTH, None)
    assert (record["passed"], record["total"]) == (16, 16)
