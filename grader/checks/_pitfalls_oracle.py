"""Torch as the oracle for chapter 6 (pitfalls), and readable reports.

Every truth here is computed by torch itself, on the judge's side, with the
repaired code written out once: scores of flattened images, a masked mean on
the inputs' own device and dtype, a linear layer on centred pixels, the
gradients of a swish layer, an epoch of plain SGD, and torch's own binary
cross-entropy (which clamps its logs at -100).
"""

import torch
import torch.nn.functional as F

from ._registry import Mismatch

__all__ = [
    "torch_flatten_scores",
    "torch_masked_mean",
    "torch_linear_on_pixels",
    "torch_swish_grads",
    "torch_train_epoch",
    "torch_bce_loss",
    "describe_tensor",
    "expect_tensor",
    "expect_close",
]


def torch_flatten_scores(images: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return (images.reshape(images.shape[0], -1) @ weight).squeeze(1)


def torch_masked_mean(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    steps = torch.arange(x.shape[1], device=x.device)
    mask = (steps < lengths[:, None]).to(x.dtype)
    return (x * mask[..., None]).sum(1) / lengths[:, None]


def torch_linear_on_pixels(pixels, weight, bias) -> torch.Tensor:
    return F.linear(pixels.to(weight.dtype) - 128, weight, bias)


def torch_swish_grads(x: torch.Tensor, w: torch.Tensor):
    """``(loss, grad of x, grad of w)`` for ``sum(silu(relu(x @ w)))``."""
    x, w = x.detach().requires_grad_(True), w.detach().requires_grad_(True)
    loss = F.silu(torch.relu(x @ w)).sum()
    grad_x, grad_w = torch.autograd.grad(loss, (x, w))
    return loss.detach(), grad_x, grad_w


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


# --- readable reports -----------------------------------------------------------------


def _fmt(value) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


def describe_values(t: torch.Tensor, max_values: int = 6) -> str:
    if t.device.type == "meta":
        return "(meta: no values)"
    values = t.detach().flatten()[:max_values].tolist()
    more = ", ..." if t.numel() > max_values else ""
    return "[" + ", ".join(_fmt(v) for v in values) + more + "]"


def describe_tensor(t: torch.Tensor) -> str:
    device = "" if t.device.type == "cpu" else f", device {t.device.type}"
    return (f"shape {tuple(t.shape)}, stride {t.stride()}, dtype {t.dtype}{device}, "
            f"values {describe_values(t)}")


def expect_tensor(call: str, result, truth: torch.Tensor) -> torch.Tensor:
    """``result`` must be a tensor of ``truth``'s shape, dtype and device."""
    if not isinstance(result, torch.Tensor):
        raise Mismatch(f"{call} returned {type(result).__name__}; expected a tensor "
                       f"of {describe_tensor(truth)}")
    if result.device.type != truth.device.type:
        raise Mismatch(f"{call} returned a tensor on {result.device.type}; the inputs are on "
                       f"{truth.device.type}, so the answer belongs there too")
    if result.shape != truth.shape or result.dtype != truth.dtype:
        raise Mismatch(f"{call}: wrong shape or dtype.\n  yours: {describe_tensor(result)}\n"
                       f"  torch: {describe_tensor(truth)}")
    return result


_TOLERANCE = {  # (rtol, atol) per dtype
    torch.float16: (2e-3, 2e-3),
    torch.bfloat16: (2e-2, 2e-2),
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-9, 1e-12),
}


def expect_close(call: str, result, truth: torch.Tensor, rtol=None) -> None:
    """Same shape, dtype, device as ``truth``; on the CPU, values close and NaN-free."""
    result = expect_tensor(call, result, truth)
    if truth.device.type == "meta":
        return
    default_rtol, atol = _TOLERANCE.get(truth.dtype, (0.0, 0.0))
    rtol = default_rtol if rtol is None else rtol
    result, truth = result.detach(), truth.detach()
    if result.is_floating_point() and not result.isfinite().all() and truth.isfinite().all():
        bad = tuple((~result.isfinite()).nonzero()[0].tolist())
        raise Mismatch(f"{call}: your result holds {result[bad].item()} at index {bad}, where "
                       f"torch has {truth[bad].item():.6g}.\n  yours: {describe_tensor(result)}")
    close = torch.isclose(result, truth, rtol=rtol, atol=atol, equal_nan=True)
    if not close.all():
        bad = tuple((~close).nonzero()[0].tolist())
        raise Mismatch(f"{call}: wrong values, first at index {bad}: yours "
                       f"{result[bad].item():.6g}, torch {truth[bad].item():.6g}.\n"
                       f"  yours: {describe_tensor(result)}\n  torch: {describe_tensor(truth)}")
