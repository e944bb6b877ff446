"""The examples ``check()`` tries vary per student (``grader/checks/_variant_examples.py``).

A published variant holds a seed (no key); ``check()`` draws a few examples of the
student's own from it before the fixed ones, by each exercise's redraw rule. Two
students' examples differ, the solution passes every variant's, a rule keeps the
verdict its comment promises, a student without a published variant gets the fixed
examples, and the hidden checks read the fixed examples whatever is published.
"""

import json
import random
from pathlib import Path

import pytest
import torch
from support import ASSIGNMENTS, solution_namespace

from grader.bridge import _variants
from grader.checks import _public_examples, check, exercise_names
from grader.checks._digests import finite_exercises
from grader.checks._local import LocalFunction
from grader.checks._registry import registered
from grader.checks._variant_examples import DRAWN, drawn_for, shown
from grader.checks.creating_tensors._oracle import torch_infer_dtype
from grader.checks.shape_ops_broadcasting._oracle import torch_broadcast_shape
from grader.checks.storage_strides._oracle import torch_storage_position
from grader.givens import variants as _variant

KEY = bytes(range(32))
IDS = [f"student{number:03d}" for number in range(30)]
# Measured: every exercise with examples varies, the 23 whose truth is torch's and the 12
# whose truth is stored: 17 by their float tensors (the default rule), 18 by a rule of
# their own (shapes, Python data, indices, lengths, seeds: next to their examples).
VARYING = {"accumulated_grad", "add_at_", "backprop", "batched_matmul", "bce_loss",
           "broadcast_shape", "can_view", "causal_mask", "contiguous_strides", "coo_to_dense",
           "diagonal_view", "infer_dtype", "logsumexp", "one_hot", "share_or_copy",
           "sliding_windows", "stable_softmax", "storage_position", "strided_sum",
           "time_device_work", "to_device", "train_epoch", "unbroadcast"}
STORED_VARYING = {"flatten_scores", "graph_summary", "last_tokens", "linear_on_pixels",
                  "masked_mean", "pack", "running_mean_losses", "seeded_init", "source_index",
                  "swish_grads", "train_only", "unpack"}
# What a rule keeps, by its comment: the verdict torch gives each fixed example (a dtype or
# an error; a broadcast or a clash; an element or an IndexError).
VERDICTS = {
    "infer_dtype": lambda data: str(torch_infer_dtype(data))[:14],  # ('TypeError', ...
    "broadcast_shape": lambda *shapes: torch_broadcast_shape(shapes) is None,
    "storage_position": lambda *example: torch_storage_position(*example) is None,
}


def _checks() -> dict:
    exercise_names()  # every chapter registered
    return registered()


def _assignment(chapter: str) -> str:
    return next(a for a in ASSIGNMENTS if a.split("_", 1)[1] == chapter)


def _shown(cases) -> str:
    """What a student is shown of their examples: values, layouts and dtypes."""
    def one(value):
        if isinstance(value, torch.Tensor):  # a meta tensor has a layout and no values
            values = value.tolist() if value.device.type != "meta" else None
            return values, value.stride(), value.storage_offset(), str(value.dtype)
        return repr(value)
    return repr([[one(value) for value in example] for example, _ in cases])


def _published(tmp_path: Path, assignment: str, students: list[str]) -> Path:
    instructor, released = tmp_path / "instructor", tmp_path / assignment
    instructor.mkdir(parents=True, exist_ok=True)
    (instructor / _variants.KEY_FILE).write_text(KEY.hex() + "\n")
    released.mkdir()
    _variants.publish(instructor, released, assignment, students)
    return released


def _as(monkeypatch, student: str, folder: Path) -> None:
    monkeypatch.setenv("USER", student)
    monkeypatch.delenv("LOGNAME", raising=False)
    monkeypatch.chdir(folder)


def test_two_students_are_shown_different_examples(tmp_path, monkeypatch):
    differ = set()
    for assignment in ASSIGNMENTS:
        released = _published(tmp_path, assignment, ["ada", "grace"])
        for name, entry in _checks().items():
            if _assignment(entry.chapter) == assignment:
                _as(monkeypatch, "ada", released)
                ada = entry.cases()
                _as(monkeypatch, "grace", released)
                if _shown(entry.cases()) != _shown(ada):
                    differ.add(name)
    assert differ - finite_exercises() == VARYING | STORED_VARYING, sorted(differ)


@pytest.mark.parametrize("name", sorted(VARYING))
def test_the_solution_passes_every_variants_examples(name):
    entry = _checks()[name]
    solution = LocalFunction(solution_namespace(_assignment(entry.chapter))[name])
    for student in IDS:
        seed = _variants.example_seed(KEY, _assignment(entry.chapter), student)
        drawn = drawn_for(name, entry.examples(), seed, entry.redraw)
        assert 0 < len(drawn) <= DRAWN
        for example in drawn:
            entry.compare(solution, *example)


@pytest.mark.parametrize("name", sorted(STORED_VARYING))
def test_the_solution_passes_every_variants_stored_examples(name):
    """Stored-truth examples are drawn and answered when published: the oracle's answer
    on each is one the solution reaches."""
    entry = _checks()[name]
    assignment = _assignment(entry.chapter)
    solution = LocalFunction(solution_namespace(assignment)[name])
    for student in IDS[:10]:
        seed = _variants.example_seed(KEY, assignment, student)
        cases = _public_examples.decode(_variants.stored_examples(assignment, seed)[name])
        assert 0 < len(cases) <= DRAWN
        for example, answers in cases:
            entry.compare(solution, *example, **answers)


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_a_redrawn_example_keeps_its_verdict(name):
    entry, verdict = _checks()[name], VERDICTS[name]
    for example in entry.examples():
        for seed in range(50):
            redrawn = entry.redraw(example, random.Random(seed))
            if redrawn is not None:
                assert verdict(*redrawn) == verdict(*example), (example, redrawn)


def _same_repeats(a: list, b: list) -> bool:
    """Whether ``a`` and ``b`` have equal items at the same places, and only there."""
    return [[x == y for y in a] for x in a] == [[x == y for y in b] for x in b]


def test_a_redrawn_example_keeps_indices_in_range_and_repeated():
    """one_hot's labels stay below num_classes; coo_to_dense's indices stay in range and
    a repeated one still repeats (its values add up); add_at_'s rows stay in range and
    repeat where they did; last_tokens' lengths stay in 1..x.shape[1]."""
    one_hot, coo = _checks()["one_hot"], _checks()["coo_to_dense"]
    add_at, last_tokens = _checks()["add_at_"], _checks()["last_tokens"]
    for seed in range(50):
        for example in add_at.examples():
            redrawn = add_at.redraw(example, random.Random(seed))
            if redrawn is not None:
                rows, size = redrawn[1].tolist(), example[0].shape[0]
                assert all(0 <= row < size for row in rows)
                assert _same_repeats(rows, example[1].tolist()), (example[1], rows)
        for example in last_tokens.examples():
            redrawn = last_tokens.redraw(example, random.Random(seed))
            if redrawn is not None:
                x, lengths = redrawn
                assert x.shape == example[0].shape and lengths.shape == example[1].shape
                assert all(1 <= n <= x.shape[1] for n in lengths.tolist()), lengths
        for labels, classes in filter(None, (one_hot.redraw(e, random.Random(seed))
                                             for e in one_hot.examples())):
            assert labels.dtype == torch.int64 and 0 <= labels.min() <= labels.max() < classes
        for example in coo.examples():
            redrawn = coo.redraw(example, random.Random(seed))
            if redrawn is not None:
                indices, _, size = redrawn
                assert all(0 <= i < n for index in indices for i, n in zip(index, size))
                assert len(set(indices)) == len(set(example[0]))


def test_the_same_seed_draws_the_same_examples():
    for name, entry in _checks().items():
        if name in VARYING:
            first, again = (_shown([(e, {}) for e in drawn_for(name, entry.examples(), "ab12",
                                                               entry.redraw)])
                            for _ in range(2))
            assert first == again, name


def test_without_a_published_variant_the_fixed_examples(tmp_path, monkeypatch):
    released = _published(tmp_path, "01_storage_strides", ["ada"])
    old = released / _variant.FOLDER / _variant.file_name("grace")  # published before seeds
    old.write_text(json.dumps({"view_or_copy": ["x.t()"]}))
    entry = _checks()["diagonal_view"]
    fixed = _shown([(example, {}) for example in entry.examples()])
    for student, folder in (("ada", tmp_path), ("grace", released), ("", released)):
        _as(monkeypatch, student or "nobody", folder)
        assert _shown(entry.cases()) == fixed, student
    _as(monkeypatch, "ada", released)
    assert _shown(entry.cases()) != fixed
    stored = _checks()["last_tokens"]  # 03: nothing published here, the stored examples
    _as(monkeypatch, "ada", released)
    assert _shown(stored.cases()) == _shown(_public_examples.load("last_tokens"))


def test_the_hidden_checks_read_the_fixed_examples_whatever_is_published(tmp_path, monkeypatch):
    entry = _checks()["stable_softmax"]
    fixed = _shown([(example, {}) for example in entry.examples()])
    _as(monkeypatch, "ada", _published(tmp_path, "03_shape_ops_broadcasting", ["ada"]))
    assert _shown([(example, {}) for example in entry.examples()]) == fixed


def test_check_tries_the_students_examples_and_the_seed_is_no_key(tmp_path, monkeypatch,
                                                                 capsys):
    released = _published(tmp_path, "05_autograd", ["ada"])
    published = (released / _variant.FOLDER / _variant.file_name("ada")).read_text()
    assert KEY.hex() not in published and _variant.EXAMPLES_SEED in json.loads(published)
    solution = solution_namespace("05_autograd")
    _as(monkeypatch, "ada", released)
    for name in ("logsumexp", "train_only"):  # its truth: torch's, and stored
        check(solution[name])
        fixed = len(_checks()[name].examples())
        assert f"{fixed + DRAWN} examples agree" in capsys.readouterr().out


def test_checks_success_line_shows_the_students_own_example(tmp_path, monkeypatch, capsys):
    """The notebook shows each student their own examples: check()'s success line names
    the first drawn for them (short, whatever its tensors), and a classmate's differs."""
    released = _published(tmp_path, "03_shape_ops_broadcasting", ["ada", "grace"])
    solution = solution_namespace("03_shape_ops_broadcasting")
    lines = {}
    for student in ("ada", "grace"):
        _as(monkeypatch, student, released)
        for name in ("broadcast_shape", "batched_matmul", "last_tokens"):  # stored truth: last
            check(solution[name])
            first = _checks()[name].yours()[0][0]
            line = capsys.readouterr().out.strip()
            assert line.endswith(shown(name, first)), line
            assert f"{DRAWN} of them drawn for you alone" in line and len(line) < 240, line
            lines[student, name] = line
    assert all(lines["ada", name] != lines["grace", name] for name in ("broadcast_shape",
                                                                       "batched_matmul"))
    described = "f(tensor([0, 0, 0, ...], (4, 3), float32, stride (1, 4)), [1])"
    assert shown("f", (torch.zeros(3, 4).t(), [1])) == described
    monkeypatch.setenv("TENSOR_ANATOMY_LANG", "zh-CN")
    check(solution["broadcast_shape"])
    assert f"其中 {DRAWN} 个是只为你抽取的" in capsys.readouterr().out
    monkeypatch.delenv("TENSOR_ANATOMY_LANG")
    _as(monkeypatch, "nobody", released)  # no variant published: the line everyone gets
    check(solution["broadcast_shape"])
    assert "drawn for you" not in capsys.readouterr().out
