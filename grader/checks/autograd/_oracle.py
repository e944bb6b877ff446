"""Torch as the oracle for chapter 5 (autograd), and readable reports.

Every truth is computed here, on the judge's side: the graph torch builds for
a recipe (walked by ``reference_graph_summary``), ``torch.logsumexp`` and its
gradient, the full-batch gradient, the running means, and a model trained by
torch's own SGD with exactly the chosen parameters.
"""

import torch
from torch import nn

from ...givens.autograd import LR, MOMENTUM, WEIGHT_DECAY, build_model
from ._harnesses import graph_harness, running_mean_harness

__all__ = [
    "reference_graph_summary",
    "torch_graph_summary",
    "torch_logsumexp",
    "torch_full_batch_grad",
    "torch_running_means",
    "torch_running_mean_facts",
    "torch_train_only",
    "torch_backprop",
    "describe_recipe",
    "describe_spec",
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


def torch_graph_summary(recipe):
    """The truth for a recipe: the judge builds the graph itself and walks it."""
    return graph_harness(reference_graph_summary, recipe)


def describe_recipe(recipe) -> str:
    """The recipe as the code that builds it (``output`` is the graph's output)."""
    names = [f"l{i}" for i in range(len(recipe["leaves"]))]
    lines = [f"{name} = torch.full({tuple(shape)}, 0.5{', requires_grad=True' * grad})"
             for name, (shape, grad) in zip(names, recipe["leaves"])]
    for k, (template, operands) in enumerate(recipe["nodes"]):
        names.append(f"v{k}")
        lines.append(f"v{k} = " + template.format(*(names[i] for i in operands)))
    lines.append(f"output = {names[-1]}")
    return "; ".join(lines)


# --- 2. logsumexp -------------------------------------------------------------------


def torch_logsumexp(x: torch.Tensor, dim: int, upstream: torch.Tensor):
    """``torch.logsumexp(x, dim)`` and the gradient of x for this upstream gradient."""
    leaf = x.detach().requires_grad_(True)
    out = torch.logsumexp(leaf, dim)
    (grad,) = torch.autograd.grad(out, leaf, upstream)
    return out.detach(), grad


# --- 3. accumulated_grad ------------------------------------------------------------


def torch_full_batch_grad(kind: str, w, x, y) -> torch.Tensor:
    """The gradient of the loss over the whole batch at once, by torch's own losses."""
    leaf = w.detach().requires_grad_(True)
    logits = x @ leaf
    if kind == "mse":
        loss = nn.functional.mse_loss(logits, y)
    else:
        loss = nn.functional.cross_entropy(logits, y)
    (grad,) = torch.autograd.grad(loss, leaf)
    return grad


# --- 4. running_mean_losses ---------------------------------------------------------


def torch_running_means(losses) -> list[float]:
    """The mean of the first i + 1 losses, for each i, computed in float64."""
    values = torch.stack([loss.detach().double() for loss in losses])
    counts = torch.arange(1, len(losses) + 1, dtype=torch.float64)
    return (values.cumsum(0) / counts).tolist()


def torch_running_mean_facts(recipe):
    """What ``running_mean_harness`` reports for an answer that is right."""
    return running_mean_harness(torch_running_means, recipe)


# --- 5. train_only ------------------------------------------------------------------


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


def describe_spec(spec) -> str:
    names = {"linear": "Linear", "relu": "ReLU", "tanh": "Tanh", "layernorm": "LayerNorm"}
    layers = ", ".join(f"nn.{names[kind]}({', '.join(map(str, sizes))})" for kind, *sizes in spec)
    return f"nn.Sequential({layers})"


# --- 6. backprop --------------------------------------------------------------------

# How torch computes each op of ``backprop``'s graphs (inputs: float64 tensors).
_BACKPROP_OPS = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "exp": torch.exp,
    "sum": lambda *inputs: torch.stack(inputs).sum(),
}


def torch_backprop(graph: dict, output: str) -> dict[str, float]:
    """``{leaf: d output / d leaf}`` by ``torch.autograd.grad`` over ``graph`` built in torch
    (float64 leaves that require grad; 0.0 for a leaf ``output`` does not use)."""
    values = {}

    def value(name):
        if name not in values:
            op, *inputs = graph[name]
            if op == "leaf":
                values[name] = torch.tensor(float(inputs[0]), dtype=torch.float64,
                                            requires_grad=True)
            else:
                values[name] = _BACKPROP_OPS[op](*(value(i) for i in inputs))
        return values[name]

    out = value(output)
    leaves = [name for name, (op, *_) in graph.items() if op == "leaf"]
    grads = torch.autograd.grad(out, [value(name) for name in leaves], allow_unused=True)
    return {name: 0.0 if g is None else g.item() for name, g in zip(leaves, grads)}
