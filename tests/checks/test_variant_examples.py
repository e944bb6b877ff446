"""The examples ``check()`` tries vary per student (``grader/checks/_variant_examples.py``).

A published variant holds a seed (no key); ``check()`` draws a few examples of the
student's own from it before the fixed ones. Two students' examples differ, the
solution passes every variant's, a student without a published variant gets the fixed
examples, and the hidden checks read the fixed examples whatever is published.
"""

import json
from pathlib import Path

import pytest
import torch
from support import ASSIGNMENTS, solution_namespace

from grader.bridge import _variants
from grader.checks import _public_examples, check, exercise_names
from grader.checks._digests import finite_exercises
from grader.checks._local import LocalFunction
from grader.checks._registry import registered
from grader.checks._variant_examples import DRAWN, examples_for
from grader.givens import variants as _variant

KEY = bytes(range(32))
IDS = [f"student{number:03d}" for number in range(30)]
# Measured: 13 of the 23 exercises whose truth is torch's hold a float CPU tensor to draw
# again, and 6 of the 12 whose truth is stored; the rest (shapes, Python data, indices)
# keep their fixed examples.
VARYING = {"accumulated_grad", "add_at_", "batched_matmul", "bce_loss", "causal_mask",
           "diagonal_view", "logsumexp", "share_or_copy", "sliding_windows", "stable_softmax",
           "to_device", "train_epoch", "unbroadcast"}
STORED_VARYING = {"flatten_scores", "last_tokens", "linear_on_pixels", "masked_mean",
                  "swish_grads", "train_only"}


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
    fixed = len(entry.examples())
    for student in IDS:
        seed = _variants.example_seed(KEY, _assignment(entry.chapter), student)
        examples = examples_for(name, entry.examples(), seed)
        assert 0 < len(examples) - fixed <= DRAWN  # drawn first, the fixed ones after
        for example in examples[:-fixed]:
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
