"""Torch's answer to chapter 2's seeded_init: the judge's side only (``grader.hidden.oracles``).

Moved here from ``grader/checks/creating_tensors/_oracle.py``: one private
generator and one ``randn`` per shape is the exercise itself.
"""

import torch

from .._oracle_registry import oracle

__all__ = ["torch_seeded_init"]


@oracle("seeded_init")
def torch_seeded_init(shapes, seed: int, dtype: torch.dtype) -> list[torch.Tensor]:
    """One private generator, one ``randn`` per shape, in order, drawn in ``dtype``."""
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, dtype=dtype, generator=generator) for shape in shapes]
