"""Chapter 3, shape operations, indexing and broadcasting: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` calls the student's ``fn`` on one
example, asks torch for the truth, and raises ``Mismatch`` with a small
counterexample when they disagree. The hidden checks
(``grader/hidden/shape_ops_broadcasting/test.py``) reuse these same
functions on hypothesis-generated inputs.

Four exercises are puzzles with rules (no loops, only listed functions):
``grader/givens/shape_ops_broadcasting.py`` holds them and the students'
``check_rules``; the hidden checks enforce them on the submitted code.

source_index's and last_tokens' truth is the puzzle's own trick: their
comparisons take it as ``truth=``, from
``grader.hidden.shape_ops_broadcasting.oracles`` in the judge and stored with
the public examples at release in the student's kernel (``stored=True``).
"""

import torch

from .._compare import DescribedCall, as_plain, first_difference, is_tensor, shares_storage
from .._redraw import new_floats, new_ints, new_values, renamed_ints, renamed_sizes
from .._registry import RAISED_LIKE_TORCH, Mismatch, public_check, result_unless_torch_raises
from .._test_cell import fill, translate
from ._oracle import (
    describe_tensor,
    expect_shape,
    expect_tensor,
    tolerance,
    torch_add_at,
    torch_batched_matmul,
    torch_broadcast_shape,
    torch_one_hot,
    torch_softmax,
    torch_unbroadcast,
    whole_storage,
)

__all__ = [
    "compare_broadcast_shape",
    "compare_source_index",
    "compare_unbroadcast",
    "compare_batched_matmul",
    "compare_stable_softmax",
    "compare_one_hot",
    "compare_last_tokens",
    "compare_add_at_",
]

def _seeded(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


# --- 1. broadcast_shape ---------------------------------------------------------------


def _broadcast_shape_examples():
    return [  # the shapes, each a tuple
        ((3, 1), (4,)),
        ((8, 1, 6, 1), (7, 1, 5)),
        ((2, 3), (3, 2)),  # clash in the last dim
        ((5, 4), (1,)),
        ((), (2, 3)),  # a scalar broadcasts with anything
        ((2, 1), (1, 3), (4, 1, 1)),  # three shapes
        ((4,), (3,), (1,)),  # a clash between the first two
        ((0,), (1,)),  # 1 stretches to 0
        ((0,), (3,)),  # 0 is not 1: a clash
        ((2, 0), (2, 1)),
        ((1, 1), (1,)),
        ((3,),),  # one shape
        (),  # no shapes at all
    ]


# Redrawn: sizes above 1 renamed one-to-one, 0 and 1 kept (_redraw.renamed_sizes), so
# each example broadcasts, or clashes, as before.
@public_check("broadcast_shape", _broadcast_shape_examples, redraw=renamed_sizes)
def compare_broadcast_shape(fn, *shapes):
    truth = torch_broadcast_shape(shapes)
    call = f"broadcast_shape({', '.join(map(str, shapes))})"
    result = result_unless_torch_raises(call, lambda: fn(*shapes), truth is None,
                                        "RuntimeError", translate("no broadcast", "checks"))
    if result is not RAISED_LIKE_TORCH:
        expect_shape(call, result, truth)


# --- 2. source_index ------------------------------------------------------------------


def _source_index_examples():
    return [  # (out_index, in_shape, out_shape)
        ((2, 3), (3, 1), (3, 4)),
        ((1, 2), (4,), (3, 4)),  # fewer dims: aligned from the right
        ((2, 1), (1, 4), (3, 4)),
        ((1, 2, 3), (1, 1, 4), (2, 3, 4)),
        ((1, 0, 2), (2, 1, 3), (2, 4, 3)),
        ((0, 1, 2), (), (1, 2, 3)),  # a scalar: every element reads it
        ((4,), (1,), (5,)),
        ((1, 3), (2, 4), (2, 4)),  # nothing stretched
    ]


def _source_index_redrawn(example, rng):
    # Sizes renamed as broadcast_shape's (in_shape still broadcasts to out_shape), and an
    # out_index anywhere in the out_shape.
    _, in_shape, out_shape = example
    in_shape, out_shape = renamed_sizes((in_shape, out_shape), rng) or (in_shape, out_shape)
    return tuple(rng.randrange(size) for size in out_shape), in_shape, out_shape


@public_check("source_index", _source_index_examples, stored=True, redraw=_source_index_redrawn)
def compare_source_index(fn, out_index, in_shape, out_shape, *, truth):
    """``truth``: the input index that ``input.expand(out_shape)[out_index]`` reads."""
    result = fn(out_index, in_shape, out_shape)
    expect_shape(f"source_index({out_index}, {in_shape}, {out_shape})", result, truth)


# --- 3. unbroadcast -------------------------------------------------------------------


def _unbroadcast_examples():
    grid = torch.arange(12.0).reshape(3, 4)
    return [  # (grad, shape)
        (grid, (4,)),  # a bias added to every row
        (grid, (3, 1)),
        (grid, (1, 4)),
        (grid, ()),  # a scalar
        (grid, (3, 4)),  # nothing was broadcast
        (torch.arange(24.0).reshape(2, 3, 4), (3, 1)),
        (torch.arange(12.0).reshape(4, 3).t(), (3, 1)),  # a transposed gradient
        (torch.ones(3).expand(2, 3), (1, 3)),  # an expanded (stride 0) gradient
        (torch.zeros(0, 4), (4,)),  # no rows: the sums are 0
        (torch.zeros(2, 0), (2, 1)),
        (torch.arange(6.0, dtype=torch.float64).reshape(2, 3), (1, 1)),
    ]


@public_check("unbroadcast", _unbroadcast_examples)
def compare_unbroadcast(fn, grad, shape):
    result = fn(grad, shape)
    expect_tensor(DescribedCall("unbroadcast", grad, shape), result, torch_unbroadcast(grad, shape))


# --- 4. batched_matmul ----------------------------------------------------------------


def _batched_matmul_examples():
    return [  # (a, b)
        (torch.arange(6).reshape(2, 3), torch.arange(12).reshape(3, 4)),
        (torch.arange(12.0).reshape(2, 2, 3), torch.arange(12.0).reshape(2, 3, 2)),
        (torch.arange(12.0).reshape(2, 1, 2, 3), torch.arange(18.0).reshape(3, 3, 2)),
        (torch.arange(18).reshape(3, 2, 3), torch.arange(12).reshape(3, 4)),  # b unbatched
        (torch.arange(6.0).reshape(2, 3), torch.arange(12.0).reshape(4, 3).t()),  # transposed
        (torch.arange(6).reshape(2, 3).expand(4, 2, 3), torch.arange(6).reshape(3, 2)),
        (torch.zeros(2, 0), torch.zeros(0, 3)),  # k = 0: a matrix of zeros
        (torch.zeros(0, 2, 3), torch.zeros(3, 1)),  # no batches
    ]


@public_check("batched_matmul", _batched_matmul_examples)
def compare_batched_matmul(fn, a, b):
    result = fn(a, b)
    expect_tensor(DescribedCall("batched_matmul", a, b), result, torch_batched_matmul(a, b))


# --- 5. stable_softmax ----------------------------------------------------------------


def _stable_softmax_examples():
    g = _seeded(0)
    big = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0]], dtype=torch.float64)
    return [  # (x, dim)
        (torch.tensor([1.0, 2.0, 3.0]), 0),
        (big, 1),  # exp(1000) is inf in any float dtype
        (big, 0),
        (big, -1),
        (torch.randn(2, 3, 4, generator=g, dtype=torch.float64) * 5, 1),
        (torch.randn(4, 3, generator=g, dtype=torch.float64).t() * 800, 0),  # transposed
        (torch.tensor([-800.0, -801.0]), 0),  # exp(-800) is 0: 0 / 0
        (torch.tensor(3.0), 0),  # a scalar
        (torch.zeros(0, 3, dtype=torch.float64), 1),
        (torch.zeros(2, 0, dtype=torch.float64), 1),  # softmax over an empty dim
    ]


@public_check("stable_softmax", _stable_softmax_examples)
def compare_stable_softmax(fn, x, dim):
    result = fn(x, dim)
    expect_tensor(DescribedCall("stable_softmax", x, dim), result, torch_softmax(x, dim))


# --- 6. one_hot -----------------------------------------------------------------------


def _one_hot_examples():
    return [  # (labels, num_classes)
        (torch.tensor([0, 2, 1]), 3),
        (torch.tensor([0, 2, 1]), 5),
        (torch.tensor(2), 4),  # a single label (0-d)
        (torch.tensor([[0, 1], [1, 0]]), 2),
        (torch.arange(4).reshape(2, 2).t(), 4),  # transposed
        (torch.tensor([1]).expand(3), 2),  # expanded
        (torch.zeros(0, dtype=torch.long), 3),
        (torch.zeros(2, 0, dtype=torch.long), 3),
    ]


def _one_hot_redrawn(example, rng):
    # New labels, laid out as before, anywhere in range(num_classes): indices in bounds.
    labels, num_classes = example
    return (new_ints(labels, rng, 0, num_classes - 1), num_classes) if labels.numel() else None


@public_check("one_hot", _one_hot_examples, redraw=_one_hot_redrawn)
def compare_one_hot(fn, labels, num_classes):
    result = fn(labels, num_classes)
    call = DescribedCall("one_hot", labels, num_classes)
    expect_tensor(call, result, torch_one_hot(labels, num_classes))


# --- 7. last_tokens -------------------------------------------------------------------


def _last_tokens_examples():
    x = torch.arange(24.0).reshape(2, 3, 4)
    return [  # (x, lengths), 1 <= lengths <= x.shape[1]
        (x, torch.tensor([3, 1])),
        (x, torch.tensor([2, 2])),
        (x, torch.tensor([1, 1])),  # the first tokens
        (torch.arange(24).reshape(2, 4, 3).transpose(1, 2), torch.tensor([1, 3])),
        (torch.arange(4.0).reshape(1, 1, 4).expand(3, 2, 4), torch.tensor([2, 1, 2])),
        (x, torch.tensor([3]).expand(2)),  # expanded lengths
        (torch.zeros(0, 3, 2), torch.zeros(0, dtype=torch.long)),  # no sequences
        (torch.zeros(2, 3, 0), torch.tensor([1, 2])),  # no features
    ]


def _last_tokens_redrawn(example, rng):
    # New values of x, and new lengths anywhere in 1..x.shape[1], the contract's range.
    x, lengths = example
    if not lengths.numel():
        return None
    return new_values(x, rng), new_ints(lengths, rng, 1, x.shape[1])


@public_check("last_tokens", _last_tokens_examples, stored=True, redraw=_last_tokens_redrawn)
def compare_last_tokens(fn, x, lengths, *, truth):
    """``truth``: ``x[b, lengths[b] - 1]`` for every b."""
    result = fn(x, lengths)
    expect_tensor(DescribedCall("last_tokens", x, lengths), result, truth)


# --- 8. add_at_ -----------------------------------------------------------------------


def _add_at_examples():
    return [  # (target, index, values): values[i] goes into target[index[i]]
        (torch.zeros(5, 3), torch.tensor([0, 2, 0, 4]), torch.ones(4, 3)),  # row 0 twice
        (torch.zeros(4), torch.tensor([1, 1, 1]), torch.tensor([1.0, 2.0, 4.0])),
        (torch.arange(15.0).reshape(3, 5).t(), torch.tensor([4, 0, 4]),
         torch.arange(9.0).reshape(3, 3)),  # a transposed view
        (torch.arange(24).reshape(6, 4)[:, 1], torch.tensor([5, 0, 5, 2]),
         torch.tensor([10, 20, 30, 40])),  # one column of a matrix: stride 4, offset 1
        (torch.arange(30.0).reshape(10, 3)[1::2], torch.tensor([0, 4, 4]),
         torch.ones(3, 3)),  # every other row
        (torch.zeros(3, 2, 2), torch.tensor([2, 2]), torch.arange(8.0).reshape(2, 2, 2)),
        (torch.zeros(3, 2), torch.zeros(0, dtype=torch.long), torch.zeros(0, 2)),  # no update
        (torch.zeros(2, 3, dtype=torch.float64), torch.tensor([1, 0, 1, 1]),
         torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3)),
    ]


def _same_tensor(a, b: torch.Tensor) -> bool:
    if not is_tensor(a):
        return False
    a = as_plain(a)
    return shares_storage(a, b) and a.shape == b.shape and a.stride() == b.stride() \
        and a.storage_offset() == b.storage_offset()


def _add_at_redrawn(example, rng):
    # target's rows renamed one-to-one in index (each in range, a row indexed twice still
    # is: the exercise's point), new floats in target and values.
    target, index, values = example
    if not index.numel():
        return None
    rows = renamed_ints(index, rng, 0, target.shape[0] - 1)
    return new_floats(target, rng), rows, new_floats(values, rng)


@public_check("add_at_", _add_at_examples, redraw=_add_at_redrawn)
def compare_add_at_(fn, target, index, values):
    call = fill(translate("{call} for target of {target}", "checks"),
                call=f"add_at_(target, index={index.tolist()}, values)",
                target=describe_tensor(target))
    truth = torch_add_at(target, index, values)  # before the call, from pristine arguments
    result, (target_after, index_after, values_after), _ = \
        fn.with_inputs_after(target, index, values)
    wrong = first_difference(whole_storage(target_after), truth, **tolerance(truth.dtype))
    if wrong is not None:
        wrong = wrong[0]
        unchanged = translate(" (unchanged: add into target itself, in place)", "checks") \
            if torch.equal(target_after, target) else ""
        raise Mismatch(fill(translate(
            "{call}: wrong values in target's storage after the call, first at storage position "
            "{position}, where torch's index_add_ leaves {value!r}. Target after your call: "
            "{target}{unchanged}", "checks"),
            call=call, position=wrong, value=truth[wrong].item(),
            target=describe_tensor(target_after), unchanged=unchanged))
    if not (torch.equal(index_after, index) and torch.equal(values_after, values)):
        raise Mismatch(fill(translate("{call}: changed index or values; only target may change",
                                      "checks"), call=call))
    if not _same_tensor(result, target_after):
        raise Mismatch(fill(translate("{call}: returned something other than target itself (the "
                                      "same storage, shape, stride and offset): return target, "
                                      "like index_add_", "checks"), call=call))
