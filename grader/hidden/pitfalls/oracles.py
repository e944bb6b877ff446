"""Torch's answers to four of chapter 6's repairs: the judge's side only
(``grader.hidden.oracles``).

Each is the repaired snippet written out (reshape, not view; the mask
arithmetic; the dtype fix; the loss to differentiate): the exercise itself.
Moved here from ``grader/checks/pitfalls/_oracle.py``.
"""

import torch
import torch.nn.functional as F

from .._oracle_registry import oracle

__all__ = [
    "torch_flatten_scores",
    "torch_masked_mean",
    "torch_linear_on_pixels",
    "torch_swish_grads",
]


@oracle("flatten_scores")
def torch_flatten_scores(images: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return (images.reshape(images.shape[0], -1) @ weight).squeeze(1)


@oracle("masked_mean")
def torch_masked_mean(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    steps = torch.arange(x.shape[1], device=x.device)
    mask = (steps < lengths[:, None]).to(x.dtype)
    return (x * mask[..., None]).sum(1) / lengths[:, None]


@oracle("linear_on_pixels")
def torch_linear_on_pixels(pixels, weight, bias) -> torch.Tensor:
    return F.linear(pixels.to(weight.dtype) - 128, weight, bias)


@oracle("swish_grads")
def torch_swish_grads(x: torch.Tensor, w: torch.Tensor):
    """``(loss, grad of x, grad of w)`` for ``sum(silu(relu(x @ w)))``."""
    x, w = x.detach().requires_grad_(True), w.detach().requires_grad_(True)
    loss = F.silu(torch.relu(x @ w)).sum()
    grad_x, grad_w = torch.autograd.grad(loss, (x, w))
    return loss.detach(), grad_x, grad_w
