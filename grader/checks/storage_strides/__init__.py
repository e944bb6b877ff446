"""Chapter 1, storage and strides: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` calls the student's ``fn`` on one
example, asks torch for the truth, and raises ``Mismatch`` with a small
counterexample when they disagree. The hidden checks
(``grader/hidden/storage_strides/test.py``) reuse these same functions on
hypothesis-generated inputs, so public and hidden checks cannot drift apart.
"""

import torch

from ...givens.storage_strides import OPERATIONS
from ...givens.variants import your_items
from .._compare import expect_int, expect_ints
from .._digests import is_right
from .._redraw import new_index, renamed_sizes
from .._registry import RAISED_LIKE_TORCH, Mismatch, public_check, result_unless_torch_raises
from .._test_cell import fill, translate
from ._harnesses import torch_calls_harness
from ._oracle import (
    describe_input,
    expect_view,
    torch_can_view,
    torch_contiguous_strides,
    torch_storage_position,
    torch_strided_sum,
)

__all__ = [
    "compare_contiguous_strides",
    "compare_storage_position",
    "compare_view_or_copy",
    "compare_diagonal_view",
    "compare_sliding_windows",
    "compare_can_view",
    "compare_strided_sum",
]


# --- 1. contiguous_strides ------------------------------------------------------------


def _contiguous_strides_examples():
    shapes = [(2, 3, 4), (5,), (), (1,), (3, 1, 2), (4, 4), (2, 0, 3), (0,), (4, 0), (0, 4)]
    return [(shape,) for shape in shapes]


def _contiguous_strides_redrawn(example, rng):
    # Any sizes make a shape: those above 1 renamed, 0 and 1 kept (the edge cases).
    return renamed_sizes(example, rng)


@public_check("contiguous_strides", _contiguous_strides_examples,
              redraw=_contiguous_strides_redrawn)
def compare_contiguous_strides(fn, shape):
    result = fn(shape)
    truth = torch_contiguous_strides(shape)
    # Ints only: (3.0, 1.0) or (True, True) would compare equal to (3, 1) or (1, 1).
    expect_ints(f"contiguous_strides({shape})", result, truth,
                why=fill(translate("{expression} is {truth}", "checks"),
                         expression=f"torch.empty({shape}).stride()", truth=truth))


# --- 2. storage_position --------------------------------------------------------------


def _storage_position_examples():
    return [  # (index, shape, stride, storage_offset)
        ((1, 2), (2, 3), (3, 1), 0),
        ((2, 1), (3, 2), (1, 3), 0),  # transposed
        ((0, 1), (2, 2), (8, 2), 5),  # stepped, with an offset
        ((2,), (4,), (0,), 3),  # expanded: every element is the same one
        ((), (), (), 7),  # a scalar is just its offset
        ((1, 0, 2), (2, 1, 3), (3, 7, 1), 2),
        ((-1, -1), (2, 3), (3, 1), 1),  # negative indices count from the end
        ((-2, 0), (2, 3), (1, 2), 0),
        ((2, 0), (2, 3), (3, 1), 0),  # out of range
        ((0, -4), (2, 3), (3, 1), 0),
        ((0, 0), (2, 0), (0, 1), 0),  # a zero-size dim has no valid index
    ]


def _storage_position_redrawn(example, rng):
    # Any non-negative strides and offset (a zero stride kept: expanded); each index in
    # range another with its sign, one out of range kept: an IndexError stays one.
    index, shape, stride, _ = example
    return (tuple(new_index(i, size, rng) for i, size in zip(index, shape)), shape,
            tuple(s and rng.randint(1, 9) for s in stride), rng.randint(0, 9))


@public_check("storage_position", _storage_position_examples,
              redraw=_storage_position_redrawn)
def compare_storage_position(fn, index, shape, stride, offset):
    truth = torch_storage_position(index, shape, stride, offset)
    call = f"storage_position({index}, {shape}, {stride}, {offset})"
    result = result_unless_torch_raises(call, lambda: fn(index, shape, stride, offset),
                                        truth is None, "IndexError",
                                        translate("out of range", "checks"))
    if result is not RAISED_LIKE_TORCH:
        expect_int(call, result, truth)


# --- 3. view_or_copy ------------------------------------------------------------------


def _view_or_copy_examples():
    # The student's own variant where one was published beside the notebook (the grader
    # grades the variant of the id that submits: grader/bridge/_variants.py).
    return [(operation,) for operation in your_items("view_or_copy", OPERATIONS, quiet=True)]


@public_check("view_or_copy", _view_or_copy_examples)
def compare_view_or_copy(fn, operation, truth: str | None = None):
    """``truth`` is torch's answer where the judge computed it; in the student's kernel
    the answer is checked against its salted digest instead (``_digests``)."""
    answers = fn()
    if not isinstance(answers, dict):
        raise Mismatch(fill(translate("{call} returned {kind}; expected a dict", "checks"),
                            call="view_or_copy()", kind=type(answers).__name__))
    answer = answers.get(operation)
    if not isinstance(answer, str) or answer.strip().lower() not in ("view", "copy"):
        raise Mismatch(fill(translate("{item} is {answer!r}; expected 'view' or 'copy'", "checks"),
                            item=f"view_or_copy()[{operation!r}]", answer=answer))
    answer = answer.strip().lower()
    if not is_right("view_or_copy", operation, answer, truth):
        raise Mismatch(fill(translate("view_or_copy() says {operation} is a {answer}; not on "
                                      "torch {version} (run it, and compare storages)", "checks"),
                            operation=operation, answer=answer,
                            version=torch.__version__.split('+')[0]))


# --- 4. diagonal_view -----------------------------------------------------------------


def _diagonal_view_examples():
    return [
        (torch.arange(12).reshape(3, 4),),
        (torch.arange(12.0).reshape(3, 4).t(),),  # transposed
        (torch.arange(30).reshape(5, 6)[1:4, 2:5],),  # a block: nonzero offset
        (torch.arange(40.0).reshape(5, 8)[::2, ::3],),  # stepped
        (torch.arange(3).expand(3, 3),),  # broadcast rows: stride 0
        (torch.arange(4).reshape(4, 1).expand(4, 2),),
        (torch.arange(12).reshape(3, 4)[1:2],),  # a single row
        (torch.arange(6).reshape(2, 3)[:, 3:],),  # zero columns
    ]


@public_check("diagonal_view", _diagonal_view_examples)
def compare_diagonal_view(fn, x):
    result = fn(x)
    call = fill(translate("{call} for x = {x}", "checks"), call="diagonal_view(x)",
                x=describe_input(x))
    expect_view(call, result, torch.diagonal(x), x)


# --- 5. sliding_windows ---------------------------------------------------------------


def _sliding_windows_examples():
    return [  # (x, size, step) with 1 <= size <= len(x) and step >= 1
        (torch.arange(8), 3, 1),
        (torch.arange(8), 3, 2),
        (torch.arange(8.0), 2, 3),  # gaps between windows
        (torch.arange(9), 4, 5),  # the last element fits no window
        (torch.arange(8), 8, 1),  # one window: everything
        (torch.arange(5), 1, 1),
        (torch.arange(20)[3::2], 3, 2),  # stride 2, offset 3
        (torch.arange(10)[5:], 2, 2),  # offset 5
        (torch.arange(4)[2:3].expand(5), 2, 1),  # stride 0
    ]


@public_check("sliding_windows", _sliding_windows_examples)
def compare_sliding_windows(fn, x, size, step):
    result = fn(x, size, step)
    call = fill(translate("{call} for x = {x}", "checks"),
                call=f"sliding_windows(x, {size}, {step})", x=describe_input(x))
    expect_view(call, result, x.unfold(0, size, step), x)


# --- 6. can_view ----------------------------------------------------------------------


def _can_view_examples():
    return [  # (shape, stride, new_shape)
        ((2, 3), (3, 1), (6,)),
        ((2, 3), (3, 1), (3, 2)),
        ((2, 3), (1, 2), (6,)),  # transposed
        ((2, 3, 4), (12, 1, 3), (2, 12)),  # last two dims swapped
        ((2, 3, 4), (12, 1, 3), (6, 4)),
        ((4, 3), (6, 1), (2, 2, 3)),  # every other row: rows still split
        ((4, 3), (6, 1), (12,)),
        ((6,), (2,), (2, 3)),  # stepped 1-D
        ((3, 4), (0, 1), (3, 2, 2)),  # broadcast rows
        ((3, 4), (0, 1), (12,)),
        ((1, 6), (99, 1), (2, 3)),  # a size-1 dim's stride is never used
        ((2, 1, 3), (3, 5, 1), (6,)),
        ((), (), (1, 1)),
        ((2, 0, 3), (1, 5, 2), (3, 0, 2)),  # no elements
    ]


def _can_view_redrawn(example, rng):
    # The tensor's dims permuted with their strides, every stride times 1, 2 or 3 (another
    # real layout: a permuted, stepped view), new_shape's sizes permuted (as many
    # elements, still no -1). Whether it views is torch's to say.
    shape, stride, new_shape = example
    dims, step = rng.sample(range(len(shape)), len(shape)), rng.randint(1, 3)
    return (tuple(shape[d] for d in dims), tuple(stride[d] * step for d in dims),
            tuple(rng.sample(new_shape, len(new_shape))))


@public_check("can_view", _can_view_examples, redraw=_can_view_redrawn)
def compare_can_view(fn, shape, stride, new_shape):
    result = fn(shape, stride, new_shape)
    truth = torch_can_view(shape, stride, new_shape)
    if not isinstance(result, bool) or result != truth:
        said = translate("{call} returned {result!r}; torch: {view} succeeds for t with shape "
                         "{shape} and stride {stride}", "checks") if truth else \
            translate("{call} returned {result!r}; torch: {view} raises RuntimeError for t with "
                      "shape {shape} and stride {stride}", "checks")
        raise Mismatch(fill(said, call=f"can_view({shape}, {stride}, {new_shape})", result=result,
                            view=f"t.view({new_shape})", shape=shape, stride=stride))


# --- 7. strided_sum ------------------------------------------------------------------


def _strided_sum_examples():
    digits = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]
    return [  # (storage, shape, stride, offset, dim)
        (digits[:6], (2, 3), (3, 1), 0, 1),
        (digits[:6], (2, 3), (3, 1), 0, 0),
        (digits[:6], (3, 2), (1, 3), 0, 1),  # transposed
        (digits, (2, 3, 2), (1, 6, 3), 2, 1),  # permuted, with an offset
        (digits, (2, 3), (8, 2), 3, -1),  # stepped, offset; negative dim
        (digits[:4], (4, 3), (0, 1), 1, 0),  # expanded rows: stride 0
        (digits[:4], (4, 3), (0, 1), 1, 1),
        (digits, (5,), (3,), 4, 0),  # 1-D: one int
        (digits[:5], (3, 3), (1, 1), 0, 0),  # overlapping windows
        (digits[:3], (2, 0), (0, 1), 1, 1),  # summing no elements gives 0
        (digits[:3], (0, 3), (3, 1), 0, 1),  # no rows: an empty list
        (digits[:3], (2, 0, 2), (1, 1, 1), 0, -3),
    ]


def _strided_sum_redrawn(example, rng):
    # New ints in the storage, -9..9 as the hidden checks' (the layout reads the same
    # positions of a list as long), and another dim in range, negative or not.
    storage, shape, stride, offset, _ = example
    return ([rng.randint(-9, 9) for _ in storage], shape, stride, offset,
            rng.randrange(-len(shape), len(shape)))


def _same_nested(result, truth) -> bool:
    """``result`` is ``truth`` (nested lists of ints, as ``.tolist()`` gives) exactly."""
    if isinstance(truth, list):
        return type(result) is list and len(result) == len(truth) \
            and all(_same_nested(r, t) for r, t in zip(result, truth))
    return type(result) is int and result == truth  # 3.0, True or a tensor is not an int


@public_check("strided_sum", _strided_sum_examples, redraw=_strided_sum_redrawn)
def compare_strided_sum(fn, storage, shape, stride, offset, dim):
    call = f"strided_sum({list(storage)}, {shape}, {stride}, {offset}, {dim})"
    result, called = fn.harness(torch_calls_harness, storage, shape, stride, offset, dim)
    if called:
        raise Mismatch(fill(translate("{call} called torch ({called}); the rule is no torch: read "
                                      "storage[...] yourself at the positions the strides give",
                                      "checks"), call=call, called=", ".join(called)))
    truth = torch_strided_sum(storage, shape, stride, offset, dim)
    if not _same_nested(result, truth):
        expression = f"as_strided(torch.tensor(storage), {shape}, {stride}, {offset})" \
                     f".sum({dim}).tolist()"
        raise Mismatch(fill(translate("{call} returned {result!r}; torch: {expression} is "
                                      "{truth!r}", "checks"),
                            call=call, result=result, expression=expression, truth=truth))
