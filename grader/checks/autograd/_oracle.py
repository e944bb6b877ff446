"""Torch as the oracle for chapter 5 (autograd), and readable reports.

Truths that are a torch call (or a few): ``torch.logsumexp`` and its gradient,
the full-batch gradient by torch's own losses, ``torch.autograd.grad`` over a
backprop graph. The truths of graph_summary, running_mean_losses and
train_only are the exercises themselves (a walk of the graph, the running
means, the training loop): they live on the judge's side only
(``grader.hidden.autograd.oracles``), and the public checks compare with the
answers stored for their examples at release (``grader.checks._public_examples``).
"""

import torch
from torch import nn

__all__ = [
    "torch_logsumexp",
    "torch_full_batch_grad",
    "torch_backprop",
    "describe_recipe",
    "describe_spec",
]


# --- 1. graph_summary ---------------------------------------------------------------


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


# --- 5. train_only ------------------------------------------------------------------


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
