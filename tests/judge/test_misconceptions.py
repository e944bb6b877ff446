"""Misconceptions by name: does a student's failure get the name of the wrong answer it is?

Unit tests of the names, of the matching (``grader.judge._misconceptions``) and of
the instructor's table and plot (``grader.batch._misconception_report``); then the
named wrong answers of chapters 1 and 3 graded as students through the real judge,
each of which must be named by its own mistake, and a small batch through
``grader.cli grade``, whose instructor folder must hold the table and the plot.
"""

import copy
import csv
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from support import COURSE, complete_notebook
from support.answers import with_answers
from support.batch import ASSIGNMENT, grade_to_the_end

from grader._verdict import with_verdict
from grader.batch import _misconception_report as report
from grader.bridge._verdict_text import misconceptions_shown, report_lines
from grader.hidden.wrong_answers import mistake_name, named_wrong_answers
from grader.judge import _misconceptions
from grader.judge._misconceptions import name_misconceptions, same_answer
from grader.judge._remote import _call_message
from grader.student import _worker

# --- names ------------------------------------------------------------------------------


def test_a_name_is_the_first_sentence_of_the_first_mistake_comment():
    assert mistake_name("def f():\n    # Mistake: forgets the offset. Then more.\n") == \
        "forgets the offset"
    assert mistake_name("def f():\n    # Mistake: a plain product, so a size-0\n"
                        "    # dim zeroes the rest (torch: 1).\n    return 1\n    # later\n") == \
        "a plain product, so a size-0 dim zeroes the rest (torch: 1)"
    assert mistake_name("# Mistake (rules): calls torch.softmax, which the rules forbid.") == \
        "calls torch.softmax, which the rules forbid"
    assert mistake_name('# Mistake: "view works iff contiguous".\n# Mistake: not this') == \
        '"view works iff contiguous"'
    assert mistake_name("def f():\n    return 1\n") is None


def test_every_wrong_answer_has_a_name_of_its_own_within_its_exercise():
    for assignment in COURSE.assignments():
        for exercise, answers in named_wrong_answers(assignment).items():
            names = [name for name, _ in answers]
            assert all(mistake_name(source) for _, source in answers), (assignment, exercise)
            assert len(set(names)) == len(names), (assignment, exercise, names)


# --- one answer against another -------------------------------------------------------------


def _exchange(source: str, name: str, *args, inputs_after: bool = False):
    """(request, reply): ``source``'s ``name`` called as the judge calls a student's."""
    namespace = {"__builtins__": __builtins__}
    exec(source, namespace)
    request = _call_message(name, list(args), {}, None, inputs_after)
    return request, _worker._call(namespace, request)


def _same(one: str, other: str, name: str, *args, **options) -> bool:
    request, first = _exchange(one, name, *args, **options)
    return same_answer(request, first, _exchange(other, name, *args, **options)[1])


def test_answers_are_the_same_when_their_values_types_and_views_are():
    x = torch.arange(12.0).reshape(3, 4)
    view = "import torch\ndef f(x):\n    return torch.diagonal(x)\n"
    copied = "import torch\ndef f(x):\n    return torch.diagonal(x).clone()\n"
    other_view = "import torch\ndef f(x):\n    return x[0, :3]\n"
    assert _same(view, view, "f", x)
    assert not _same(view, copied, "f", x)  # the same values, but a copy
    assert not _same(view, other_view, "f", x)
    assert _same("def f(s):\n    return (1, 2)\n", "def f(s):\n    return (1, 2)\n", "f", ())
    assert not _same("def f(s):\n    return (1, 2)\n", "def f(s):\n    return [1, 2]\n", "f", ())
    assert not _same("def f(s):\n    return 1\n", "def f(s):\n    return True\n", "f", ())
    nan = "def f(s):\n    return float('nan')\n"
    assert _same(nan, nan, "f", ())
    assert not _same(nan, "def f(s):\n    return 0.0\n", "f", ())
    assert _same("def f(s):\n    return 0.1 + 0.2\n", "def f(s):\n    return 0.3\n", "f", ())


def test_exceptions_are_the_same_answer_by_their_type_only():
    value_error = "def f(s):\n    raise ValueError('one message')\n"
    assert _same(value_error, "def f(s):\n    raise ValueError('another')\n", "f", ())
    assert not _same(value_error, "def f(s):\n    raise IndexError('one message')\n", "f", ())
    assert not _same(value_error, "def f(s):\n    return 1\n", "f", ())


def test_an_answer_in_place_is_compared_with_its_inputs_as_the_call_left_them():
    add = "def f(t):\n    t.add_(1)\n    return t\n"
    fresh = "def f(t):\n    return t + 1\n"
    t = torch.zeros(3)
    assert _same(add, add, "f", t, inputs_after=True)
    assert not _same(add, fresh, "f", t, inputs_after=True)
    assert t.tolist() == [0.0, 0.0, 0.0]  # the inputs themselves are never touched


def test_a_missing_function_is_no_answer_to_compare():
    request, reply = _exchange("def f(s):\n    return 1\n", "f", ())
    assert not same_answer(request, {"status": "missing"}, reply)


# --- naming, from a verdict and its failing calls -------------------------------------------

_CHAPTER_1 = "01_storage_strides"
_FORTRAN = named_wrong_answers(_CHAPTER_1)["contiguous_strides"][0]


def _failing(source: str, exercise: str, *cases) -> dict:
    """A verdict's exercises and failing calls for ``source`` failing one check per case."""
    calls = [_exchange(source, exercise, *case) for case in cases]
    record = {"passed": 1, "total": 1 + len(calls), "checks": []}
    return {exercise: record}, {exercise: calls}


def test_a_failure_like_a_wrong_answers_gets_its_name_and_keeps_its_score():
    exercises, calls = _failing(_FORTRAN[1], "contiguous_strides", ((2, 3),), ((4, 1, 5),))
    before = copy.deepcopy(exercises)
    name_misconceptions(_CHAPTER_1, exercises, calls)
    assert exercises["contiguous_strides"].pop("misconceptions") == [_FORTRAN[0]]
    assert exercises == before


def test_a_failure_no_wrong_answer_gives_is_named_nothing():
    odd = "def contiguous_strides(shape):\n    return tuple(7 for _ in shape)\n"
    exercises, calls = _failing(odd, "contiguous_strides", ((2, 3),))
    name_misconceptions(_CHAPTER_1, exercises, calls)
    assert "misconceptions" not in exercises["contiguous_strides"]


def test_an_unfinished_exercise_or_a_check_without_an_answer_names_nothing():
    stub = "def contiguous_strides(shape):\n    raise NotImplementedError()\n"
    exercises, calls = _failing(stub, "contiguous_strides", ((2, 3),))
    name_misconceptions(_CHAPTER_1, exercises, calls)
    assert "misconceptions" not in exercises["contiguous_strides"]
    exercises, calls = _failing(_FORTRAN[1], "contiguous_strides", ((2, 3),))
    calls["contiguous_strides"].append(None)  # a check that timed out: no reply to compare
    name_misconceptions(_CHAPTER_1, exercises, calls)
    assert "misconceptions" not in exercises["contiguous_strides"]


def test_matching_that_errors_or_runs_out_of_time_names_nothing_and_says_so(
        monkeypatch, caplog):
    exercises, calls = _failing(_FORTRAN[1], "contiguous_strides", ((2, 3),))

    def broken(assignment):
        raise RuntimeError("no catalogue")

    monkeypatch.setattr(_misconceptions, "named_wrong_answers", broken)
    with caplog.at_level(logging.WARNING):
        name_misconceptions(_CHAPTER_1, exercises, calls)
    assert "misconceptions" not in exercises["contiguous_strides"]
    assert "no catalogue" in caplog.text
    slow = "import time\ndef contiguous_strides(shape):\n    while True:\n        time.sleep(1)\n"
    monkeypatch.setattr(_misconceptions, "named_wrong_answers",
                        lambda assignment: {"contiguous_strides": [("hangs", slow), _FORTRAN]})
    monkeypatch.setattr(_misconceptions, "BUDGET_SECONDS", 0.5)
    started = time.monotonic()
    name_misconceptions(_CHAPTER_1, exercises, calls)
    assert time.monotonic() - started < 5
    assert "misconceptions" not in exercises["contiguous_strides"]


def test_the_feedback_says_what_it_looks_like_and_the_report_reads_it_back(tmp_path):
    record = {"passed": 1, "total": 2, "misconceptions": ["forgets the offset"], "checks": [
        {"description": "a check", "passed": False, "detail": "yours 1\ntorch's 2"}]}
    lines = report_lines("storage_position", record, 2.0)
    assert lines[-1] == "  Looks like: forgets the offset"
    cell = with_verdict({"cell_type": "code", "metadata": {"nbgrader": {
        "grade": True, "solution": False, "grade_id": "storage_position", "points": 2}}},
        "storage_position", record, 2.0)
    assert misconceptions_shown(cell) == ["forgets the offset"]
    # The report reads an autograded notebook's verdicts, as data.
    folder = tmp_path / "ada" / _CHAPTER_1
    folder.mkdir(parents=True)
    (folder / "nb.ipynb").write_text(json.dumps({"cells": [cell]}), encoding="utf-8")
    assert report.shown_by_student(tmp_path, _CHAPTER_1) == {
        "ada": {"storage_position": ["forgets the offset"]}}
    assert "Looks like" not in "\n".join(report_lines("x", {**record, "misconceptions": []}, 2))


# --- the instructor's table and plot -----------------------------------------------------


def test_the_table_counts_students_per_misconception_with_a_row_for_each_named_one(tmp_path):
    wrong = named_wrong_answers(_CHAPTER_1)
    offset = wrong["storage_position"][0][0]
    shown = {"ada": {"storage_position": [offset], "can_view": []},
             "bob": {"storage_position": [offset]}, "cy": {}}
    rows = report.misconception_table(_CHAPTER_1, shown)
    assert len(rows) == sum(len(answers) for answers in wrong.values())
    counted = {(r["exercise"], r["misconception"]): r for r in rows if r["students"]}
    assert list(counted) == [("storage_position", offset)]
    assert counted["storage_position", offset]["student_ids"] == "ada;bob"
    assert {r["of"] for r in rows} == {3}
    plot = tmp_path / "plot.png"
    report.plot_misconceptions(rows, plot, _CHAPTER_1)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- the wrong answers as students, through the real judge ----------------------------------

# Wrong answers that fail the way another one does on every input they fail, so that both
# are named: (exercise, k) → the others' k, in WRONG_ANSWERS[exercise].
ALSO_NAMED = {
    # A bool answer: on the layouts these fail, "view works iff the tensor is contiguous"
    # answers False too.
    ("can_view", 2): {0},  # size-1 dims keep their strides
    ("can_view", 3): {0},  # tensors with no elements not special-cased
    # "the largest size wins" gives the largest size where "never checks for a clash" does.
    ("broadcast_shape", 2): {1},
    # Both leave a non-contiguous target unchanged and return a new tensor.
    ("add_at_", 2): {1},
}
# A puzzle's answer that breaks its rules fails before any call: there is nothing to compare.
_BREAKS_THE_RULES = "# Mistake (rules):"


def _graded_rounds(assignment: str) -> tuple[dict, list[dict]]:
    """The solution's verdict, and one per round k: every exercise's k-th wrong answer at
    once (exercises are independent functions), two judges at a time."""
    from grader.judge._judge_server import judge

    wrong = named_wrong_answers(assignment)
    complete = complete_notebook(assignment)
    notebooks = [complete] + [
        with_answers(complete, {ex: answers[k][1] for ex, answers in wrong.items()
                                 if k < len(answers)})
        for k in range(max(map(len, wrong.values())))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        solution, *rounds = pool.map(lambda nb: judge(nb, assignment), notebooks)
    return solution, rounds


@pytest.mark.parametrize("graded", ["01_storage_strides", "03_shape_ops_broadcasting"])
def test_each_wrong_answer_graded_as_a_student_is_named_by_its_own_mistake(graded):
    solution, rounds = _graded_rounds(graded)
    assert not [name for name, record in solution["exercises"].items()
                if "misconceptions" in record]
    for k, verdict in enumerate(rounds):
        for exercise, answers in named_wrong_answers(graded).items():
            if k >= len(answers):
                continue
            name, source = answers[k]
            named = verdict["exercises"][exercise].get("misconceptions", [])
            if _BREAKS_THE_RULES in source:
                assert named == [], (exercise, name)
                continue
            group = {name} | {answers[j][0] for j in ALSO_NAMED.get((exercise, k), ())}
            assert name in named and set(named) <= group, (exercise, k, named)


# --- a small batch through the grading command ---------------------------------------------


def test_the_grading_command_writes_the_instructors_table_and_plot(tmp_path):
    wrong = named_wrong_answers(ASSIGNMENT)
    students = {"right": {}, "fortran": {"contiguous_strides": 0, "storage_position": 0},
                "offset": {"storage_position": 0, "diagonal_view": 2},
                "copies": {"diagonal_view": 0, "sliding_windows": 0}}
    instructor, complete = tmp_path / "instructor", complete_notebook(ASSIGNMENT)
    name = COURSE.release_notebook(ASSIGNMENT).name
    for student, mistakes in students.items():
        folder = instructor / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        answers = {ex: wrong[ex][k][1] for ex, k in mistakes.items()}
        (folder / name).write_text(json.dumps(with_answers(complete, answers)), encoding="utf-8")
    grade_to_the_end(instructor, "--jobs", "1")
    reports = instructor / "reports"
    with open(reports / f"{ASSIGNMENT}_misconceptions.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    counted = {(r["exercise"], r["misconception"]): r["student_ids"] for r in rows
               if r["students"] != "0"}
    expected = {}
    for student, mistakes in students.items():
        for ex, k in mistakes.items():
            expected.setdefault((ex, wrong[ex][k][0]), []).append(student)
    assert counted == {key: ";".join(sorted(who)) for key, who in expected.items()}
    assert {r["of"] for r in rows} == {str(len(students))}
    assert (reports / f"{ASSIGNMENT}_misconceptions.png").read_bytes()[:4] == b"\x89PNG"
    feedback = (instructor / "feedback" / "fortran" / ASSIGNMENT / name.replace(
        ".ipynb", ".html")).read_text(encoding="utf-8")
    assert f"Looks like: {wrong['contiguous_strides'][0][0]}" in feedback
