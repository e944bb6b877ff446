"""Stored checks: a public check whose truth is the exercise itself compares with answers
stored at release for fixed inputs, and nothing a student can import computes them.

Twelve exercises' truth is more than a torch call (a graph walk, a training loop, the
packing of a buffer...): their oracles live on the judge's side only
(``grader/hidden/<chapter>/oracles.py``), and ``check`` tries their public examples as stored in
``grader/checks/public_examples/`` by ``make release`` (``grader.checks._public_examples``).
"""

import contextlib
import io
import re
import subprocess
import sys
import warnings

import pytest
import torch
from support import COURSE, ROOT, solution_namespace

from grader import check, cli
from grader.checks import Mismatch, NotAttempted, _finite_answers, _public_examples, exercise_names
from grader.checks._compare import first_difference, scalar_close, tolerance
from grader.checks._registry import registered
from grader.hidden.oracles import ORACLES, public_examples, write_public_examples
from grader.hidden.wrong_answers import named_wrong_answers

exercise_names()  # every chapter's checks registered
STORED = sorted(name for name, entry in registered().items() if entry.stored)


def _same(a, b) -> bool:
    """``a`` is ``b``: the same containers, ints and strings; floats and tensor values
    within a few units in the last place (another CPU may round them otherwise)."""
    if isinstance(b, torch.Tensor):
        return isinstance(a, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape \
            and a.stride() == b.stride() and a.storage_offset() == b.storage_offset() \
            and a.device == b.device and a.requires_grad == b.requires_grad \
            and (b.device.type == "meta"
                 or first_difference(a.detach(), b.detach(), **tolerance(b.dtype)) is None)
    if type(a) is not type(b):
        return False
    if isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in b)
    if isinstance(b, float):
        return scalar_close(a, b, 1e-6, 1e-12)
    return a == b


def test_the_stored_checks_are_the_twelve_with_an_oracle_each():
    assert len(STORED) == 12
    assert sorted(ORACLES) == STORED
    stored_files = sorted(p.stem for p in _public_examples.EXAMPLES_DIR.glob("*.json"))
    assert stored_files == STORED  # no stray file, none missing


def test_an_exercise_cannot_get_a_second_oracle():
    from grader.hidden._oracle_registry import oracle

    with pytest.raises(ValueError, match="pack has two oracles"):
        oracle("pack")(lambda tensors: None)
    assert ORACLES["pack"].__name__ == "torch_pack"


@pytest.mark.parametrize("name", STORED)
def test_the_stored_examples_are_the_oracles_answers_as_released(name):
    stored, fresh = _public_examples.load(name), public_examples(name)
    drifted = f"grader/checks/public_examples/{name}.json drifted: run `make release`"
    assert len(stored) == len(fresh) == len(registered()[name].examples()), drifted
    for (args, kwargs), (true_args, true_kwargs) in zip(stored, fresh):
        assert _same(args, true_args), drifted
        assert _same(kwargs, true_kwargs), drifted


def test_release_rewrites_them(tmp_path, monkeypatch):
    committed = {name: _public_examples.load(name) for name in STORED}
    # Only the step under test: no notebook, digest or link is rewritten here.
    monkeypatch.setattr(cli, "_run_nbgrader", lambda *args: 0)
    monkeypatch.setattr(cli._authoring, "refresh", lambda path: False)
    monkeypatch.setattr(cli._navigation, "refresh", lambda course: [])
    monkeypatch.setattr(_finite_answers, "write", lambda: None)
    monkeypatch.setattr(_public_examples, "EXAMPLES_DIR", tmp_path)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.release(COURSE) == 0
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == STORED
    for name in STORED:
        assert _same(_public_examples.load(name, tmp_path), committed[name]), name


def test_writing_them_twice_gives_the_same_bytes(tmp_path):
    """A release that changes nothing leaves nothing to commit."""
    first, second = tmp_path / "first", tmp_path / "second"
    write_public_examples(first)
    write_public_examples(second)
    assert [p.read_bytes() for p in sorted(first.iterdir())] == \
        [p.read_bytes() for p in sorted(second.iterdir())]


def test_the_students_kernel_never_loads_an_oracle():
    """Every public check loaded and every stored check's examples read, as ``check`` does
    in a student's kernel: nothing under grader/hidden comes with them."""
    probe = ("import sys, grader.checks as c\n"
             "from grader.checks._registry import registered\n"
             "c.exercise_names()\n"
             "assert sum(1 for e in registered().values() if e.stored and e.cases()) == 12\n"
             "print(sorted(m for m in sys.modules if m.startswith('grader')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    loaded = set(eval(done.stdout))
    assert "grader.checks._public_examples" in loaded
    assert not [m for m in loaded if m.startswith("grader.hidden")]


def test_a_wrong_answer_gets_a_counterexample_from_the_stored_answer():
    def last_tokens(x, lengths):  # ignores lengths: the last position of every sequence
        return x[:, -1]

    with pytest.raises(Mismatch) as caught:
        check(last_tokens)
    message = str(caught.value)
    assert message.startswith("last_tokens: last_tokens(shape (2, 3, 4), stride (12, 4, 1)")
    assert "yours 20.0, torch's 12.0" in message and len(message) < 600


_RULES = re.compile(r"#\s*Mistake\s*\(rules\):")  # right values: the rules are the grader's


def test_every_wrong_answer_fails_its_public_check_unless_it_breaks_only_the_rules():
    """A student who makes a named mistake hears it from ``check`` first (a counterexample,
    or for an exception NotImplementedError "not attempted"), except where the mistake is
    only against a puzzle's rules, which grading checks in the submitted code."""
    passing, tried = [], 0
    for assignment in COURSE.assignments():
        solution = solution_namespace(assignment)
        for exercise, answers in named_wrong_answers(assignment).items():
            for mistake, source in answers:
                if _RULES.search(source):
                    continue
                namespace = dict(solution)
                exec(compile(source, f"wrong {exercise}", "exec"), namespace)
                tried += 1
                with contextlib.suppress(Mismatch, NotAttempted), warnings.catch_warnings(), \
                        contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")  # what torch says of a wrong answer
                    registered()[exercise].run(namespace[exercise])
                    passing.append(f"{exercise}: {mistake}")
    assert tried > 100 and passing == []
