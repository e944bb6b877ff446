"""Torch as the oracle for chapter 3 (shape operations and broadcasting), and readable reports.

Every truth here is a torch call; nothing is hard-coded. The truths of
last_tokens and source_index are the puzzles' own tricks: they live on the
judge's side only (``grader.hidden.shape_ops_broadcasting.oracles``). The
``describe_*`` helpers turn inputs and results into the text of a
counterexample; the ``expect_*`` helpers raise ``Mismatch`` with it.
"""

import torch
import torch.nn.functional as F

from .. import _compare
from .._compare import describe_tensor, expect_ints

__all__ = [
    "torch_broadcast_shape",
    "torch_unbroadcast",
    "torch_batched_matmul",
    "torch_softmax",
    "torch_one_hot",
    "whole_storage",
    "torch_add_at",
    "tolerance",
    "describe_tensor",
    "expect_shape",
    "expect_tensor",
]


def torch_broadcast_shape(shapes) -> tuple[int, ...] | None:
    """``torch.broadcast_shapes`` as a tuple, or None where it raises (RuntimeError)."""
    try:
        return tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError:
        return None


def torch_unbroadcast(grad: torch.Tensor, shape) -> torch.Tensor:
    """The gradient that reaches ``x`` of ``shape`` through ``x.expand(grad.shape)``."""
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (result,) = torch.autograd.grad(leaf.expand(grad.shape), leaf, grad)
    return result


def torch_batched_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.matmul(a, b)


def torch_softmax(x: torch.Tensor, dim: int) -> torch.Tensor:
    return torch.softmax(x, dim)


def torch_one_hot(labels: torch.Tensor, num_classes: int) -> torch.Tensor:
    return F.one_hot(labels, num_classes)


def whole_storage(t: torch.Tensor) -> torch.Tensor:
    """Every element of ``t``'s storage, in storage order (a 1-D view, not a copy)."""
    count = t.untyped_storage().nbytes() // t.element_size()
    return torch.empty(0, dtype=t.dtype).set_(t.untyped_storage(), 0, (count,), (1,))


def torch_add_at(target: torch.Tensor, index: torch.Tensor, values: torch.Tensor):
    """What ``target.index_add_(0, index, values)`` leaves in target's whole storage.

    Done on a copy of that storage, through target's own layout, so the
    arguments stay as they were: the truth is computed before the student runs.
    """
    storage = whole_storage(target).clone()
    storage.as_strided(target.shape, target.stride(), target.storage_offset()) \
        .index_add_(0, index, values)
    return storage


def tolerance(dtype: torch.dtype) -> dict:
    """``allclose`` tolerances for results of this dtype (integers and bools: exact)."""
    if dtype == torch.float64:
        return {"rtol": 1e-10, "atol": 1e-12}
    if dtype == torch.float32:
        return {"rtol": 1e-5, "atol": 1e-6}
    if dtype.is_floating_point:
        return {"rtol": 1e-2, "atol": 1e-3}
    return {"rtol": 0.0, "atol": 0.0}


# --- through the one comparison module: chapter 3 wants CPU tensors, its own tolerances --


def expect_shape(call: str, result, truth: tuple[int, ...]) -> None:
    """``result`` must be a tuple (or list) of Python ints equal to ``truth``."""
    expect_ints(call, result, truth)


def expect_tensor(call: str, result, truth: torch.Tensor) -> torch.Tensor:
    """``result`` must have ``truth``'s shape, dtype, CPU device and values (``tolerance``)."""
    return _compare.expect_tensor(call, result, truth, device=True, **tolerance(truth.dtype))
