"""Chapter 2, creating tensors: what its exercises hand the student.

Imports neither torch nor NumPy: the grading command reads ``EXPRESSIONS`` (each
student's variant, ``grader.bridge._variants``) and leaves torch to the judges, whose
import of it costs seconds of CPU (``tests/judge/test_warm.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import torch

__all__ = ["EXPRESSIONS", "as_numpy"]

# Exercise 2: what each of these makes (dtype and shape). Torch decides, on the
# judge's side; the notebook imports this list. In scope: torch, np (NumPy).
EXPRESSIONS = [
    "torch.tensor([1, 2, 3])",
    "torch.tensor([1, 2.0, True])",
    "torch.tensor([[True], [False]])",
    "torch.tensor(3.5)",
    "torch.tensor([])",
    "torch.Tensor(2, 3)",
    "torch.Tensor([2, 3])",
    "torch.tensor(np.zeros(3))",
    "torch.tensor([np.float64(0.5), 1.5])",
    "torch.full((2, 2), 7)",
    "torch.ones(())",
    "torch.arange(5)",
    "torch.arange(0.1, 0.4, 0.1)",
    "torch.linspace(0, 1, 5)",
    "torch.eye(2, 3)",
    "torch.randint(10, (3,))",
    "torch.full_like(torch.arange(3), 2.5)",
    "torch.arange(3).new_tensor([1.5, 2.5])",
]


def as_numpy(x: torch.Tensor, steps, readonly: bool) -> np.ndarray:
    """The NumPy array of exercise ``share_or_copy``: a view of x's memory.

    ``x.numpy()`` shares x's memory; slicing with ``steps`` (one nonzero int per
    dimension, negative = reversed) makes a NumPy view with those steps; with
    ``readonly`` the view is marked not writeable.
    """
    array = x.numpy()[tuple(slice(None, None, step) for step in steps)]
    if readonly:
        array.flags.writeable = False
    return array
