"""Torch as the oracle for chapter 6 (pitfalls).

An epoch of plain SGD, and torch's own binary cross-entropy (which clamps its
logs at -100). The repaired snippets of flatten_scores, masked_mean,
linear_on_pixels and swish_grads are the exercises themselves: they live on
the judge's side only (``grader.hidden.pitfalls.oracles``), and the public
checks compare with the answers stored for their examples at release
(``grader.checks._public_examples``).
"""

import torch
import torch.nn.functional as F

__all__ = [
    "torch_train_epoch",
    "torch_bce_loss",
]


def torch_train_epoch(w: torch.Tensor, batches, lr: float):
    """``(trained weights, mean of the batch losses)``: one SGD step per batch."""
    w, losses = w.detach().clone(), []
    for x, y in batches:
        w.requires_grad_(True)
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        losses.append(loss.item())
        w = (w - lr * grad).detach()
    return w, sum(losses) / len(losses)


def torch_bce_loss(probs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.binary_cross_entropy(probs, targets, reduction="none")
