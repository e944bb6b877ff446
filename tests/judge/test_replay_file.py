"""Examples kept on disk (``grader/judge/_replay_file.py``): read back exactly, or not kept.

A judge that replays examples read from a file must call the student's function
on what the search drew, property by property; what ``torch.save`` would change
is searched again instead. The file is read without running code.
"""

import collections
import copy
import os
import random

import torch

from grader.judge import _replay_file
from grader.judge._replay_file import exactly

KEY = ("digest", "test.py::test_it")


def _example(*args) -> list:
    """A check's log as ``_replay`` records it: a deep copy of one call's arguments (a view
    is copied as a tensor over a copy of its storage), and the random state."""
    return [(copy.deepcopy((args, {})), (None, torch.random.get_rng_state(), None))]


def _kept(tmp_path, log: list) -> dict:
    path = tmp_path / "examples-cpu.pt"
    _replay_file.keep(path, {KEY: log})
    return _replay_file.read(path)


def test_plain_tensors_views_and_shared_storage_are_kept_exactly(tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    log = _example(base, base.t()[1:, ::2], torch.tensor([-0.0, float("nan")]),
                   torch.ones(3, 1).expand(3, 4), torch.nn.Parameter(torch.ones(2)),
                   torch.float16, slice(1, None), [{"n": 3}], torch.empty(0, 3).t())
    back = _kept(tmp_path, log)[KEY]
    assert exactly(log, back)
    (args, _), _ = back[0]
    assert args[0].untyped_storage().data_ptr() == args[1].untyped_storage().data_ptr()
    assert str(args[2][0].item()) == "-0.0" and type(args[4]) is torch.nn.Parameter


def test_what_torch_save_would_change_is_not_kept(tmp_path):
    z = torch.tensor([1 + 2j, 3 - 1j])
    conj = [(((z.conj(),), {}), None)]  # (deepcopy would drop the bit before the file does)
    assert _kept(tmp_path, conj) == {}  # read back as a plain tensor
    neg = [(((z.conj().imag,), {}), None)]
    assert _kept(tmp_path, neg) == {}  # its negative bit lost
    assert _kept(tmp_path, _example(z)) != {}  # the same tensor, unconjugated
    named = collections.namedtuple("Batch", "x")
    assert _kept(tmp_path / "namedtuple", _example(named(z))) == {}  # refused by the reader


def test_the_comparison_sees_every_difference():
    x = torch.tensor([[0.0, 1, 2], [3, 4, 5]])
    assert exactly(x, x.clone())
    assert not exactly(x, x.t().contiguous().t())  # the same values, other strides
    assert not exactly(x, x + 1e-7)  # values, bit for bit
    assert not exactly(x, x.double())
    assert not exactly(x, x.clone().requires_grad_())
    assert not exactly(torch.nn.Parameter(x), x.clone())  # the subclass
    y = x.clone()
    assert not exactly((x, x), (y, y.clone()))  # one storage shared, not two
    assert not exactly((x, x.clone()), (y, y))  # ... and the other way round
    assert not exactly(0.0, -0.0) and not exactly(1, True)
    z = torch.tensor([1 + 2j, 3 - 1j])
    # The same bytes, strides and offsets, but for the conjugate or the negative bit
    assert not exactly(z.conj(), z.clone())
    assert not exactly(z.conj().imag, z.clone().imag)


def test_sequences_of_numbers_and_shared_ones_compare_as_element_by_element():
    # A random generator's state, as each logged call holds it (often one object for all).
    state = random.getstate()
    assert exactly([state, state], [state, random.getstate()])
    assert not exactly((1, 2, 1), (1, 2, True))  # == says equal; the types are not
    assert not exactly([0.0, 1], [-0.0, 1]) and not exactly((1, "a"), (1, b"a"))
    assert not exactly((1, 2), [1, 2]) and not exactly((1, 2), (1, 2, 3))
    shared, other = (1, 2), (1, 3)
    # The pair compared first does not decide a later pair of other objects.
    assert not exactly([shared, shared], [(1, 2), other])
    assert not exactly([shared, (shared,)], [(1, 2), (other,)])


def test_a_file_that_would_run_code_is_not_read(tmp_path):
    ran = tmp_path / "ran"

    class Runs:
        def __reduce__(self):
            return (os.mkdir, (str(ran),))

    path = tmp_path / "examples-cpu.pt"
    torch.save({"format": 1, "examples": [(KEY, Runs())]}, path)
    assert _replay_file.read(path) == {} and not ran.exists()
    path.write_bytes(b"half a file")
    assert _replay_file.read(path) == {}
    assert _replay_file.read(tmp_path / "none") == {}


def test_other_judges_examples_stay_in_the_file(tmp_path):
    path = tmp_path / "examples-cpu.pt"
    _replay_file.keep(path, {KEY: _example(torch.ones(2))})
    _replay_file.keep(path, {("digest", "other"): _example(torch.zeros(2))})
    assert set(_replay_file.read(path)) == {KEY, ("digest", "other")}
