"""Torch as the oracle for chapter 2 (creating tensors), and readable reports.

Every truth here is computed by torch itself: what ``torch.tensor`` infers or
raises, whether ``torch.from_numpy`` accepts an array without a warning, what a
sparse COO tensor stands for. What a seeded generator draws for seeded_init is
the exercise itself: it lives on the judge's side only
(``grader.hidden.creating_tensors.oracles``); a factory expression's result is
a finite answer (``grader.checks._finite_answers``).
"""

import warnings

import numpy as np
import torch

from .._compare import describe_tensor
from .._test_cell import fill, translate

__all__ = [
    "torch_infer_dtype",
    "torch_from_numpy_shares",
    "torch_coo_to_dense",
    "describe_array",
    "describe_input",
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


def torch_coo_to_dense(indices, values, size) -> torch.Tensor:
    """The dense form of the COO tensor with these entries (duplicates add up)."""
    index = torch.tensor(indices, dtype=torch.int64).reshape(len(indices), len(size)).t()
    sparse = torch.sparse_coo_tensor(index, torch.tensor(values, dtype=torch.float32), size,
                                     check_invariants=True)
    return sparse.to_dense()


# --- readable reports -----------------------------------------------------------------


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
    return fill(translate("a tensor of {description}", "checks"), description=describe_tensor(x))


def describe_array(a: np.ndarray) -> str:
    return fill(translate("array of shape {shape}, strides {strides} (bytes), dtype {dtype}, "
                          "writeable={writeable}", "checks"),
                shape=a.shape, strides=a.strides, dtype=a.dtype, writeable=a.flags.writeable)
