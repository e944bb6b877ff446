"""Torch as the oracle for chapter 2 (creating tensors), and readable reports.

Every truth here is computed by torch itself, on the judge's side: what
``torch.tensor`` infers or raises, what a factory expression makes, whether
``torch.from_numpy`` accepts an array without a warning, what a seeded
generator draws, what a sparse COO tensor stands for.
"""

import warnings

import numpy as np
import torch

from ._registry import Mismatch

__all__ = [
    "torch_infer_dtype",
    "torch_from_numpy_shares",
    "torch_seeded_init",
    "torch_coo_to_dense",
    "shares_storage",
    "describe_array",
    "describe_tensor",
    "describe_input",
    "describe_values",
    "expect_tensor",
]




def torch_infer_dtype(data):
    """``torch.tensor(data).dtype``, or ``(exception type name, message)`` if torch raises."""
    try:
        return torch.tensor(data).dtype
    except (ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc).splitlines()[0][:120]


def torch_from_numpy_shares(array: np.ndarray) -> bool:
    """Whether ``torch.from_numpy`` takes ``array`` as it is and the array is writeable.

    For a read-only array torch warns (only once per process, so we cannot rely
    on seeing the warning) that writing to the tensor is undefined behaviour.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the read-only warning: we test the flag below
        try:
            torch.from_numpy(array)
        except (ValueError, TypeError):
            return False
    return bool(array.flags.writeable)


def torch_seeded_init(shapes, seed: int, dtype: torch.dtype) -> list[torch.Tensor]:
    """One private generator, one ``randn`` per shape, in order, drawn in ``dtype``."""
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, dtype=dtype, generator=generator) for shape in shapes]


def torch_coo_to_dense(indices, values, size) -> torch.Tensor:
    """The dense form of the COO tensor with these entries (duplicates add up)."""
    index = torch.tensor(indices, dtype=torch.int64).reshape(len(indices), len(size)).t()
    sparse = torch.sparse_coo_tensor(index, torch.tensor(values, dtype=torch.float32), size,
                                     check_invariants=True)
    return sparse.to_dense()


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# --- readable reports -----------------------------------------------------------------


def _fmt(value) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


def describe_values(t: torch.Tensor, max_values: int = 8) -> str:
    """The first values, flattened in row-major order, floats to 6 significant digits."""
    values = t.flatten()[:max_values].tolist()
    more = ", ..." if t.numel() > max_values else ""
    return "[" + ", ".join(_fmt(v) for v in values) + more + "]"


def describe_tensor(t: torch.Tensor) -> str:
    return (f"shape {tuple(t.shape)}, stride {t.stride()}, dtype {t.dtype}, "
            f"values {describe_values(t)}")


def _first_difference(result: torch.Tensor, truth: torch.Tensor) -> str:
    differ = (result != truth) & ~(result.isnan() & truth.isnan()) \
        if truth.dtype.is_floating_point else result != truth
    if not differ.any():
        return "NaN where torch has NaN too, but torch.equal counts NaN as unequal"
    index = tuple(differ.nonzero()[0].tolist())
    return (f"first difference at index {index}: yours {result[index].item()!r}, "
            f"torch {truth[index].item()!r}")


def describe_input(x: torch.Tensor) -> str:
    """A torch expression that rebuilds ``x`` when its storage holds 0, 1, 2, ... (ours do;
    bools alternate False, True); otherwise a description of it."""
    n = x.untyped_storage().nbytes() // x.element_size()
    storage = x.new_empty(0).set_(x.untyped_storage(), 0, (n,), (1,))
    counting = torch.arange(n) % 2 if x.dtype == torch.bool else torch.arange(n)
    if x.storage_offset() == 0 and torch.equal(storage, counting.to(x.dtype)):
        base = f"(torch.arange({n}) % 2)" if x.dtype == torch.bool else f"torch.arange({n})"
        cast = "" if x.dtype == torch.int64 else f".to({x.dtype})"
        return f"{base}{cast}.as_strided({tuple(x.shape)}, {x.stride()})"
    return f"a tensor of {describe_tensor(x)}"


def describe_array(a: np.ndarray) -> str:
    return (f"array of shape {a.shape}, strides {a.strides} (bytes), dtype {a.dtype}, "
            f"writeable={a.flags.writeable}")


def expect_tensor(call: str, result, truth: torch.Tensor) -> None:
    """``result`` must be a tensor equal to ``truth``: shape, dtype and every value."""
    if not isinstance(result, torch.Tensor):
        raise Mismatch(f"{call} returned {type(result).__name__}; expected a tensor")
    mine, torchs = f"yours: {describe_tensor(result)}", f"torch: {describe_tensor(truth)}"
    if result.shape != truth.shape or result.dtype != truth.dtype:
        raise Mismatch(f"{call}: wrong shape or dtype. {mine}\n  {torchs}")
    if not torch.equal(result, truth):
        raise Mismatch(f"{call}: wrong values, {_first_difference(result, truth)}.\n"
                       f"  {mine}\n  {torchs}")
