"""The examples ``check()`` tries for chapter 5 (autograd), and the graph ops.

``UNARY`` and ``BINARY`` are the operations a graph recipe may use, as Python
templates over ``{0}`` / ``{1}`` (the hidden checks draw from the same tables).
Every example is built lazily and deterministically (private generators).
"""

import torch

from .._redraw import renamed_sizes

__all__ = [
    "UNARY",
    "BINARY",
    "CUTTING",
    "graph_examples",
    "graph_redrawn",
    "logsumexp_examples",
    "accumulation_examples",
    "running_mean_examples",
    "running_mean_redrawn",
    "train_only_examples",
]

# Each keeps shapes broadcastable with the leaves' common shape.
UNARY = {
    "exp": "{0}.exp()",
    "sin": "{0}.sin()",
    "tanh": "{0}.tanh()",
    "sigmoid": "{0}.sigmoid()",
    "relu": "{0}.relu()",
    "neg": "-{0}",
    "square": "{0} ** 2",
    "scale": "{0} * 2",
    "sum": "{0}.sum()",
    "sum_last": "{0}.sum(-1, keepdim=True)",
    "mean": "{0}.mean()",
    "clone": "{0}.clone()",
    "double": "{0}.double()",
    "unsqueeze": "{0}.unsqueeze(0)",
}
BINARY = {
    "add": "{0} + {1}",
    "sub": "{0} - {1}",
    "mul": "{0} * {1}",
    "div": "{0} / {1}",
    "maximum": "torch.maximum({0}, {1})",
}
CUTTING = {"detach": "{0}.detach()"}  # cuts the graph: what it hides is not in it


def _recipe(leaves, *nodes):
    """``leaves``: ``(shape, requires_grad)``; nodes: ``(op name, *operand indices)``."""
    ops = {**UNARY, **BINARY, **CUTTING}
    return {"leaves": [[shape, grad] for shape, grad in leaves],
            "nodes": [[ops[op], list(operands)] for op, *operands in nodes]}


def graph_examples():
    a, b, c = ((2, 3), True), ((3,), True), ((2, 1), False)
    return [
        (_recipe([a, b], ("mul", 0, 1)),),  # leaves in the order of next_functions
        (_recipe([a], ("exp", 0), ("sin", 1), ("sum", 2)),),  # a chain
        (_recipe([a, b], ("mul", 0, 1), ("exp", 2), ("add", 3, 0), ("sum", 4)),),
        (_recipe([a], ("exp", 0), ("mul", 1, 1), ("mean", 2)),),  # a diamond: visit once
        (_recipe([b, a], ("div", 0, 1), ("add", 2, 0), ("sum_last", 3)),),  # a leaf twice
        (_recipe([a, c], ("add", 0, 1), ("relu", 2)),),  # c does not require grad
        (_recipe([a, b], ("detach", 0), ("mul", 2, 1)),),  # a detached branch
        (_recipe([a, b], ("scale", 0), ("double", 2), ("maximum", 3, 1)),),
        (_recipe([b]),),  # the output is itself a leaf
        (_recipe([c], ("exp", 0)),),  # nothing requires grad
    ]


# Ops a redrawn graph swaps for one another: one node each, elementwise, shapes kept.
_ELEMENTWISE = [UNARY[op] for op in ("exp", "sin", "tanh", "sigmoid", "relu", "neg", "square",
                                     "scale")]
_SWAPS = {template: kind for kind in (_ELEMENTWISE, list(BINARY.values())) for template in kind}


def graph_redrawn(example, rng):
    # Leaf sizes above 1 renamed one-to-one (the leaves still broadcast together), each
    # elementwise op another of its kind on the same operands: a graph of the same form.
    (recipe,) = example
    leaves = recipe["leaves"]
    shapes = renamed_sizes([shape for shape, _ in leaves], rng) or [shape for shape, _ in leaves]
    nodes = [[rng.choice(_SWAPS.get(template, [template])), operands]
             for template, operands in recipe["nodes"]]
    return ({"leaves": [[shape, grad] for shape, (_, grad) in zip(shapes, leaves)],
             "nodes": nodes},)


def _randn(generator, *shape, scale=1.0):
    return torch.randn(shape, dtype=torch.float64, generator=generator) * scale


def logsumexp_examples():
    g = torch.Generator().manual_seed(5)
    x34 = _randn(g, 3, 4)
    large = torch.tensor([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]],
                         dtype=torch.float64)
    masked = torch.tensor([[0.0, -torch.inf, 1.0], [2.0, 3.0, -torch.inf]], dtype=torch.float64)
    return [  # (x, dim, upstream)
        (x34, 1, torch.ones(3, dtype=torch.float64)),
        (x34, 0, _randn(g, 4)),  # not the last dim; an upstream gradient that is not 1
        (x34, -1, _randn(g, 3)),
        (large, 1, _randn(g, 2)),  # exp(1000) overflows: subtract the max first
        (large * 50, 0, _randn(g, 3)),
        (masked, 1, _randn(g, 2)),  # -inf entries (masked logits) weigh nothing
        (_randn(g, 4, 3).t(), 0, _randn(g, 4)),  # a transposed input
        (_randn(g, 2, 3, 4), -2, _randn(g, 2, 4)),
        (_randn(g, 1), 0, _randn(g)),  # one element: a 0-d output
    ]


def _batch(generator, kind, rows, width, classes):
    w, x = _randn(generator, width, classes), _randn(generator, rows, width)
    if kind == "mse":
        return w, x, _randn(generator, rows, classes)
    return w, x, torch.randint(0, classes, (rows,), generator=generator)


def accumulation_examples():
    g = torch.Generator().manual_seed(3)
    return [  # (kind, w, x, y, micro, stale)
        ("mse", *_batch(g, "mse", 6, 3, 2), 2, False),  # three equal micro-batches
        ("mse", *_batch(g, "mse", 7, 2, 1), 3, False),  # 3 + 3 + 1: the last one is smaller
        ("cross_entropy", *_batch(g, "cross_entropy", 5, 3, 4), 2, False),
        ("cross_entropy", *_batch(g, "cross_entropy", 4, 2, 3), 4, False),  # one batch
        ("mse", *_batch(g, "mse", 5, 2, 2), 2, True),  # w.grad holds an old gradient
        ("cross_entropy", *_batch(g, "cross_entropy", 3, 2, 2), 1, False),
    ]


def running_mean_examples():
    return [  # (recipe,): losses of steps of a small linear regression
        ({"seed": 0, "steps": 1, "rows": 4, "width": 3, "dtype": "float32"},),
        ({"seed": 1, "steps": 5, "rows": 4, "width": 3, "dtype": "float32"},),
        ({"seed": 2, "steps": 3, "rows": 2, "width": 2, "dtype": "float64"},),
    ]


def running_mean_redrawn(example, rng):
    # Another seed of the data; the steps, sizes and dtype kept.
    (recipe,) = example
    return ({**recipe, "seed": rng.randrange(2**31)},)


def train_only_examples():
    g = torch.Generator().manual_seed(8)
    mlp = [("linear", 3, 4), ("relu",), ("linear", 4, 2)]
    deep = [("linear", 2, 3), ("tanh",), ("linear", 3, 3), ("layernorm", 3), ("linear", 3, 1)]
    x3, y2 = torch.randn(5, 3, generator=g), torch.randn(5, 2, generator=g)
    x2, y1 = torch.randn(4, 2, generator=g), torch.randn(4, 1, generator=g)
    return [  # (spec, seed, trainable, x, y, steps)
        (mlp, 0, ["2.weight", "2.bias"], x3, y2, 1),  # the head only
        (mlp, 1, ["0.weight", "0.bias"], x3, y2, 2),  # the first layer, under a frozen head
        (mlp, 2, ["0.weight"], x3, y2, 3),  # a weight without its bias
        (mlp, 3, [], x3, y2, 2),  # nothing to train
        (mlp, 4, ["0.weight", "0.bias", "2.weight", "2.bias"], x3, y2, 2),
        (deep, 5, ["0.bias", "3.weight", "4.weight"], x2, y1, 3),
    ]
