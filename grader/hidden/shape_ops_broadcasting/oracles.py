"""Torch's answers to chapter 3's last_tokens and source_index: the judge's side only
(``grader.hidden.oracles``).

Each is the puzzle's own trick (the indexing; the arange that names every
element). Moved here from ``grader/checks/shape_ops_broadcasting/_oracle.py``.
"""

import math

import torch

from .._oracle_registry import oracle

__all__ = ["torch_source_index", "torch_last_tokens"]


@oracle("source_index")
def torch_source_index(out_index, in_shape, out_shape) -> tuple[int, ...]:
    """The index into the input that ``input.expand(out_shape)[out_index]`` reads.

    The input holds 0, 1, 2, ... in row-major order, so the value read names
    the input element; unravelling it gives that element's index.
    """
    source = torch.arange(math.prod(in_shape)).reshape(in_shape)
    flat = source.expand(out_shape)[tuple(out_index)].item()
    return tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(in_shape)))


@oracle("last_tokens")
def torch_last_tokens(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    return x[torch.arange(x.shape[0]), lengths - 1]
