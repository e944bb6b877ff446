"""Torch's answers to chapter 5's graph_summary, running_mean_losses and train_only.

Each is the exercise's own idiom or algorithm (a walk of the graph, the running
means, the training loop), so it lives on the judge's side only (see
``grader.hidden.oracles``). Moved here from ``grader/checks/autograd/_oracle.py``.
"""

import torch
from torch import nn

from grader.checks.autograd._harnesses import graph_harness, running_mean_harness
from grader.givens.autograd import LR, MOMENTUM, WEIGHT_DECAY, build_model

from .._oracle_registry import oracle

__all__ = [
    "reference_graph_summary",
    "torch_graph_summary",
    "torch_running_means",
    "torch_running_mean_truth",
    "torch_plain_running_means",
    "torch_train_only",
]


# --- 1. graph_summary ---------------------------------------------------------------


def reference_graph_summary(output: torch.Tensor):
    """Leaf shapes and op names of ``output``'s graph, depth first, each node once."""
    if output.grad_fn is None:
        return ([tuple(output.shape)], []) if output.requires_grad else ([], [])
    leaves, ops, seen, stack = [], [], set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))  # every node stays alive with the graph: ids are unique
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(tuple(node.variable.shape))
            continue
        ops.append(type(node).__name__)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return leaves, ops


@oracle("graph_summary")
def torch_graph_summary(recipe):
    """The truth for a recipe: the judge builds the graph itself and walks it."""
    return graph_harness(reference_graph_summary, recipe)


# --- 4. running_mean_losses ---------------------------------------------------------


def torch_running_means(losses) -> list[float]:
    """The mean of the first i + 1 losses, for each i, computed in float64."""
    values = torch.stack([loss.detach().double() for loss in losses])
    counts = torch.arange(1, len(losses) + 1, dtype=torch.float64)
    return (values.cumsum(0) / counts).tolist()


@oracle("running_mean_losses")
def torch_running_mean_truth(recipe) -> tuple[list[float], torch.Tensor]:
    """``(the running means, w.grad after backward through the losses)``: what
    ``running_mean_harness`` reports for an answer that is right."""
    means, _, _, grad, _ = running_mean_harness(torch_running_means, recipe)
    return means, grad


def torch_plain_running_means(values, dtype) -> list[float]:
    """The running means of leaf losses made from ``values`` (the hidden checks' plain case)."""
    return torch_running_means([torch.tensor(v, dtype=dtype) for v in values])


# --- 5. train_only ------------------------------------------------------------------


@oracle("train_only")
def torch_train_only(spec, seed, trainable, x, y, steps) -> dict[str, torch.Tensor]:
    """Parameters after ``steps`` SGD steps that update exactly the ``trainable`` ones."""
    model = build_model(spec, seed)
    chosen = [p for name, p in model.named_parameters() if name in trainable]
    for name, p in model.named_parameters():
        p.requires_grad_(name in trainable)
    if chosen:
        optimizer = torch.optim.SGD(chosen, lr=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
        for _ in range(steps):
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
    return {name: p.detach() for name, p in model.named_parameters()}
