"""Torch as the oracle for chapter 1 (storage and strides), and readable reports.

Every truth here is computed by torch itself; nothing is hard-coded. The
``describe_*`` helpers turn inputs and results into the one-line text of a
counterexample.
"""

import torch

from .._compare import describe_tensor, expect_tensor, shares_storage
from .._registry import Mismatch
from .._test_cell import fill, translate

__all__ = [
    "storage_extent",
    "torch_contiguous_strides",
    "torch_storage_position",
    "torch_can_view",
    "torch_strided_sum",
    "describe_input",
    "expect_view",
]


# Plain arithmetic, not a torch truth: the size of the arange storage the oracles below
# build. It lives here, on the public side, so that the public check never imports the
# hypothesis strategies (hidden-only) that also size their storages by it.
def storage_extent(shape, stride, offset=0) -> int:
    """Storage elements needed to hold every element of that layout (at least 1)."""
    if 0 in shape:
        return offset + 1
    return offset + 1 + sum((n - 1) * s for n, s in zip(shape, stride))


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


def torch_strided_sum(storage, shape, stride, offset, dim):
    """``.sum(dim)`` of that layout over the list ``storage``, as nested lists (``.tolist()``)."""
    flat = torch.tensor(storage, dtype=torch.int64)
    return torch.as_strided(flat, shape, stride, offset).sum(dim).tolist()


# --- readable reports -----------------------------------------------------------------


def describe_input(t: torch.Tensor) -> str:
    """A torch expression that rebuilds ``t`` when its storage holds 0, 1, 2, ... (ours do)."""
    n = t.untyped_storage().nbytes() // t.element_size()
    storage = t.new_empty(0).set_(t.untyped_storage(), 0, (n,), (1,))
    if torch.equal(storage, torch.arange(n, dtype=t.dtype)):
        dtype = "" if t.dtype == torch.int64 else f", dtype={t.dtype}"
        layout = f"{tuple(t.shape)}, {t.stride()}, {t.storage_offset()}"
        return f"torch.arange({n}{dtype}).as_strided({layout})"
    return fill(translate("a tensor of {description}", "checks"), description=describe_tensor(t))


def expect_view(call: str, result, truth: torch.Tensor, x: torch.Tensor) -> None:
    """``result`` must equal ``truth`` (shape, dtype, values) and share ``x``'s storage."""
    plain = expect_tensor(call, result, truth)
    if not shares_storage(plain, x):
        raise Mismatch(fill(translate("{call}: right values, but a copy: it does not share x's "
                                      "storage. Yours: {yours}", "checks"),
                            call=call, yours=describe_tensor(plain)))
