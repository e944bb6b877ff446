"""Torch as the oracle for chapter 3 (shape operations and broadcasting), and readable reports.

Every truth here is computed by torch itself; nothing is hard-coded. The
``describe_*`` helpers turn inputs and results into the text of a
counterexample; the ``expect_*`` helpers raise ``Mismatch`` with it.
"""

import math

import torch
import torch.nn.functional as F

from ._registry import Mismatch

__all__ = [
    "torch_broadcast_shape",
    "torch_source_index",
    "torch_unbroadcast",
    "torch_batched_matmul",
    "torch_softmax",
    "torch_one_hot",
    "torch_last_tokens",
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


def torch_source_index(out_index, in_shape, out_shape) -> tuple[int, ...]:
    """The index into the input that ``input.expand(out_shape)[out_index]`` reads.

    The input holds 0, 1, 2, ... in row-major order, so the value read names
    the input element; unravelling it gives that element's index.
    """
    source = torch.arange(math.prod(in_shape)).reshape(in_shape)
    flat = source.expand(out_shape)[tuple(out_index)].item()
    return tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(in_shape)))


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


def torch_last_tokens(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    return x[torch.arange(x.shape[0]), lengths - 1]


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


# --- readable reports -----------------------------------------------------------------


def _describe_layout(t: torch.Tensor) -> str:
    return f"shape {tuple(t.shape)}, stride {t.stride()}, offset {t.storage_offset()}"


def _values(t: torch.Tensor, max_values: int = 12) -> str:
    flat = t.detach().reshape(-1)[:max_values].tolist()
    if t.dtype.is_floating_point:
        text = ", ".join(f"{v:.6g}" for v in flat)
    else:
        text = ", ".join(str(v) for v in flat)
    more = ", ..." if t.numel() > max_values else ""
    flattened = " (flattened)" if t.dim() > 1 else ""
    return f"[{text}{more}]{flattened}"


def describe_tensor(t: torch.Tensor) -> str:
    """One line: layout, dtype and the first values."""
    return f"tensor with {_describe_layout(t)}, dtype {t.dtype}, values {_values(t)}"


def expect_shape(call: str, result, truth: tuple[int, ...]) -> None:
    """``result`` must be a tuple (or list) of ints equal to ``truth``."""
    if not isinstance(result, (tuple, list)) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in result
    ):
        raise Mismatch(f"{call} returned {result!r}; expected a tuple of ints, torch: {truth}")
    if tuple(result) != truth:
        raise Mismatch(f"{call} returned {tuple(result)}; torch: {truth}")


def expect_tensor(call: str, result, truth: torch.Tensor) -> None:
    """``result`` must have ``truth``'s shape and dtype, and its values (dtype-aware tolerance)."""
    if not isinstance(result, torch.Tensor):
        raise Mismatch(f"{call} returned {type(result).__name__}; expected a tensor")
    if tuple(result.shape) != tuple(truth.shape) or result.dtype != truth.dtype:
        raise Mismatch(
            f"{call}: wrong shape or dtype. Yours: shape {tuple(result.shape)}, {result.dtype}; "
            f"torch: shape {tuple(truth.shape)}, {truth.dtype}"
        )
    if result.device.type != "cpu":
        raise Mismatch(f"{call} returned a tensor on {result.device}; expected a CPU tensor")
    if not torch.allclose(result, truth, equal_nan=True, **tolerance(truth.dtype)):
        raise Mismatch(
            f"{call}: wrong values.\n  yours: {_values(result)}\n  torch: {_values(truth)}"
        )
