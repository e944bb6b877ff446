"""Torch as the oracle for chapter 1 (storage and strides), and readable reports.

Every truth here is computed by torch itself; nothing is hard-coded. The
``describe_*`` helpers turn inputs and results into the one-line text of a
counterexample.
"""

import torch

from .._strategies import storage_extent
from ._registry import Mismatch

__all__ = [
    "torch_contiguous_strides",
    "torch_storage_position",
    "torch_can_view",
    "describe_tensor",
    "describe_layout",
    "expect_int",
    "expect_view",
]


def torch_contiguous_strides(shape) -> tuple[int, ...]:
    """The strides of a new contiguous tensor (on "meta": no memory is allocated)."""
    return torch.empty(shape, device="meta").stride()


def torch_storage_position(index, shape, stride, offset) -> int | None:
    """Storage position of ``t[index]`` on a storage holding 0, 1, 2, ...; None if IndexError."""
    storage = torch.arange(storage_extent(shape, stride, offset))
    try:
        return storage.as_strided(shape, stride, offset)[tuple(index)].item()
    except IndexError:
        return None


def torch_can_view(shape, stride, new_shape) -> bool:
    """Whether ``.view(new_shape)`` succeeds; on "meta" it gives the CPU verdict without memory."""
    t = torch.empty(storage_extent(shape, stride), device="meta").as_strided(shape, stride)
    try:
        t.view(new_shape)
    except RuntimeError:
        return False
    return True


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# --- readable reports -----------------------------------------------------------------


def describe_layout(t: torch.Tensor) -> str:
    return f"shape {tuple(t.shape)}, stride {t.stride()}, offset {t.storage_offset()}"


def describe_tensor(t: torch.Tensor) -> str:
    """A torch expression that rebuilds ``t`` when its storage holds 0, 1, 2, ... (ours do)."""
    n = t.untyped_storage().nbytes() // t.element_size()
    storage = t.new_empty(0).set_(t.untyped_storage(), 0, (n,), (1,))
    if torch.equal(storage, torch.arange(n, dtype=t.dtype)):
        dtype = "" if t.dtype == torch.int64 else f", dtype={t.dtype}"
        layout = f"{tuple(t.shape)}, {t.stride()}, {t.storage_offset()}"
        return f"torch.arange({n}{dtype}).as_strided({layout})"
    return f"a tensor with {describe_layout(t)}: {t.tolist()}"


def _describe_result(result: torch.Tensor, max_values: int = 24) -> str:
    if result.numel() <= max_values:
        values = str(result.tolist())
    else:
        values = str(result.flatten()[:max_values].tolist())[:-1] + ", ...] (flattened)"
    return f"{describe_layout(result)}, dtype {result.dtype}, values {values}"


def expect_int(call: str, result, truth: int) -> None:
    """``result`` must be the plain int ``truth``."""
    if not isinstance(result, int) or isinstance(result, bool):
        raise Mismatch(f"{call} returned {result!r} ({type(result).__name__}); expected an int")
    if result != truth:
        raise Mismatch(f"{call} returned {result}; torch: {truth}")


def expect_view(call: str, result, truth: torch.Tensor, x: torch.Tensor) -> None:
    """``result`` must equal ``truth`` (shape, dtype, values) and share ``x``'s storage."""
    if not isinstance(result, torch.Tensor):
        raise Mismatch(f"{call} returned {type(result).__name__}; expected a tensor")
    mine = f"your result: {_describe_result(result)}"
    torchs = f"torch: {_describe_result(truth)}"
    if result.shape != truth.shape or result.dtype != truth.dtype:
        raise Mismatch(f"{call}: wrong shape or dtype. {mine}\n  {torchs}")
    if not torch.equal(result, truth):
        raise Mismatch(f"{call}: wrong values. {mine}\n  {torchs}")
    if not shares_storage(result, x):
        raise Mismatch(f"{call}: right values, but a copy: it does not share x's storage. {mine}")
