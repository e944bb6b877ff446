"""Plausible wrong answers for chapter 6 (pitfalls and debugging).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment. Most are half-repairs:
the error of the broken snippet is gone, the bug is not.
"""

_VERDICTS = {
    "int_true_division": "False", "zero_dim_float64": "False", "uint8_plus_int8": "True",
    "contiguous_is_self": "True", "clone_is_contiguous": "False", "expand_allocates": "False",
    "grad_fills_dot_grad": "False", "second_backward_raises": "False", "max_ties_split": "True",
    "max_skips_nan": "False", "sort_nan_last": "True", "int_div_zero_raises": "True",
    "squeeze_non_one_raises": "False", "cat_skips_empty_1d": "True",
    "unsqueeze_minus_one": "False",
}


def _verdicts_answer(mistake: str, changes: dict[str, str]) -> str:
    """A predict_verdicts answer: the right verdicts with ``changes`` (by claim) applied."""
    table = {**_VERDICTS, **changes}
    assert set(table) == set(_VERDICTS), set(table) - set(_VERDICTS)
    rows = "\n".join(f"        {claim!r}: {answer}," for claim, answer in table.items())
    return f"\ndef predict_verdicts():\n    # Mistake: {mistake}\n    return {{\n{rows}\n    }}\n"


WRONG_ANSWERS: dict[str, list[str]] = {
    "flatten_scores": [
        """
import torch

def flatten_scores(images, weight):
    # Mistake: reshape fixes the permuted batch, but squeeze() also drops a batch of one.
    return (images.reshape(images.shape[0], -1) @ weight).squeeze()
""",
        """
import torch

def flatten_scores(images, weight):
    # Mistake: squeeze(1) fixes the batch of one, but view still fails on permuted batches.
    return (images.view(images.shape[0], -1) @ weight).squeeze(1)
""",
        """
import torch

def flatten_scores(images, weight):
    # Mistake: squeeze(0) was meant to drop "the extra dim", but dim 0 is the batch.
    return (images.contiguous().view(images.shape[0], -1) @ weight).squeeze(0)
""",
    ],
    "masked_mean": [
        """
import torch

def masked_mean(x, lengths):
    # Mistake: the mask is made on x's device, but .float() still promotes float16 batches.
    steps = torch.arange(x.shape[1], device=x.device)
    mask = (steps[None, :] < lengths[:, None]).float()
    return (x * mask[..., None]).sum(1) / lengths[:, None]
""",
        """
import torch

def masked_mean(x, lengths):
    # Mistake: "move everything to the CPU, then back": a meta tensor has nothing to move.
    device = x.device
    x, lengths = x.cpu(), lengths.cpu()
    steps = torch.arange(x.shape[1])
    mask = (steps[None, :] < lengths[:, None]).to(x.dtype)
    return ((x * mask[..., None]).sum(1) / lengths[:, None]).to(device)
""",
        """
import torch

def masked_mean(x, lengths):
    # Mistake: avoids making a mask at all by averaging every step, padding included.
    return x.mean(1)
""",
    ],
    "linear_on_pixels": [
        """
import torch

def linear_on_pixels(pixels, weight, bias):
    # Mistake: converts after subtracting, so uint8 pixels below 128 have already wrapped.
    centered = (pixels - 128).to(weight.dtype)
    return centered @ weight.T + bias
""",
        """
import torch

def linear_on_pixels(pixels, weight, bias):
    # Mistake: .float() everywhere, which a float64 model refuses in the matmul.
    centered = pixels.float() - 128
    return centered @ weight.T + bias
""",
        """
import torch

def linear_on_pixels(pixels, weight, bias):
    # Mistake: promotes both sides, so a float64 batch turns a float32 model into float64.
    dtype = torch.promote_types(pixels.dtype, weight.dtype)
    centered = pixels.to(dtype) - 128
    return centered @ weight.to(dtype).T + bias.to(dtype)
""",
    ],
    "swish_grads": [
        """
import torch

def swish_grads(x, w):
    # Mistake: .data hides the in-place change from autograd: no error, wrong gradients.
    h = x @ w
    h.relu_()
    s = torch.sigmoid(h)
    s.data.mul_(h.data)
    loss = s.sum()
    grad_x, grad_w = torch.autograd.grad(loss, (x, w))
    return loss.detach(), grad_x, grad_w
""",
        """
import torch

def swish_grads(x, w):
    # Mistake: "no_grad makes it invisible to autograd": the version counter still counts.
    h = x @ w
    h.relu_()
    s = torch.sigmoid(h)
    with torch.no_grad():
        s *= h
    loss = s.sum()
    grad_x, grad_w = torch.autograd.grad(loss, (x, w))
    return loss.detach(), grad_x, grad_w
""",
        """
import torch

def swish_grads(x, w):
    # Mistake: detaches the sigmoid to stop the error, losing its part of the gradient.
    h = x @ w
    h.relu_()
    s = torch.sigmoid(h).detach() * h
    loss = s.sum()
    grad_x, grad_w = torch.autograd.grad(loss, (x, w))
    return loss.detach(), grad_x, grad_w
""",
    ],
    "train_epoch": [
        """
import torch

def train_epoch(w, batches, lr):
    # Mistake (forged): the right weights, NaN for the mean loss.
    for x, y in batches:
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        w = (w - lr * grad).detach().requires_grad_(True)
    return w, float("nan")
""",
        """
import torch

def train_epoch(w, batches, lr):
    # Mistake: fixes the weights, but total += loss keeps every batch's graph alive.
    total = 0
    for x, y in batches:
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        w = (w - lr * grad).detach().requires_grad_(True)
        total += loss
    return w, total / len(batches)
""",
        """
import torch

def train_epoch(w, batches, lr):
    # Mistake: fixes the loss, but w = w - lr * grad chains every step into one graph.
    total = 0.0
    for x, y in batches:
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        w = w - lr * grad
        total += loss.item()
    return w, total / len(batches)
""",
        """
import torch

def train_epoch(w, batches, lr):
    # Mistake: updates under no_grad but forgets that the new w must require grad again.
    total = 0.0
    for x, y in batches:
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        with torch.no_grad():
            w = w - lr * grad
        total += loss.item()
    return w, total / len(batches)
""",
    ],
    "bce_loss": [
        """
import torch

def bce_loss(probs, targets):
    # Mistake: clamps the probabilities to [1e-7, 1 - 1e-7]: finite, but not torch's values.
    p = probs.clamp(1e-7, 1 - 1e-7)
    return -(targets * torch.log(p) + (1 - targets) * torch.log(1 - p))
""",
        """
import torch

def bce_loss(probs, targets):
    # Mistake: nan_to_num after the fact turns inf into 3.4e38, not 100.
    loss = -(targets * torch.log(probs) + (1 - targets) * torch.log(1 - probs))
    return loss.nan_to_num()
""",
        """
import torch

def bce_loss(probs, targets):
    # Mistake: clamps log(probs) only; log(1 - probs) is still -inf at probs == 1.
    log_p = torch.log(probs).clamp(min=-100)
    return -(targets * log_p + (1 - targets) * torch.log(1 - probs))
""",
    ],
    "predict_verdicts": [
        _verdicts_answer(
            "the intuitive verdicts: float64 always wins, a copy is contiguous, a second "
            "backward always fails, NaN is skipped by max and sorted first, x // 0 is inf.",
            {
                "zero_dim_float64": "True",
                "clone_is_contiguous": "True",
                "second_backward_raises": "True",
                "max_ties_split": "False",
                "max_skips_nan": "True",
                "sort_nan_last": "False",
                "int_div_zero_raises": "False",
                "squeeze_non_one_raises": "True",
                "cat_skips_empty_1d": "False",
            },
        ),
        _verdicts_answer("every claim is true.", {claim: "True" for claim in _VERDICTS}),
        _verdicts_answer("every claim is a myth.", {claim: "False" for claim in _VERDICTS}),
    ],
}
