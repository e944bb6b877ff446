"""Harnesses for chapter 5 (autograd): facts gathered beside the student's function.

A graph, a ``.grad`` after ``backward`` and a callable handed to the student
cannot cross the wire, so these functions run where the student's function
lives (see ``grader._harness``). Only their source travels: each imports what
it needs in its body and uses no globals. They report facts (values, grads,
node names, batch sizes); every verdict is the judge's, against torch.
"""

__all__ = [
    "graph_harness",
    "logsumexp_harness",
    "accumulation_harness",
    "running_mean_harness",
    "plain_running_mean_harness",
]


def graph_harness(student_fn, recipe):
    """Build the recipe's graph here and hand its output to ``student_fn``.

    ``recipe["leaves"]``: ``[shape, requires_grad]`` per leaf; ``recipe["nodes"]``:
    ``[template, operands]`` per node, the template a Python expression over
    ``{0}``, ``{1}`` (earlier values, leaves first). The output is the last value.
    The judge calls this same function with its own walk to get the truth.
    """
    import torch

    values = [torch.full(tuple(shape), 0.5, requires_grad=requires_grad)
              for shape, requires_grad in recipe["leaves"]]
    for template, operands in recipe["nodes"]:
        expression = template.format(*(f"values[{i}]" for i in operands))
        values.append(eval(expression, {"torch": torch, "values": values}))
    return student_fn(values[-1])


def logsumexp_harness(student_fn, x, dim, upstream):
    """Forward and backward through ``student_fn(x, dim)`` with this upstream gradient.

    Returns ``(output, grad of x, facts)``; facts name the output's ``grad_fn``,
    say whether it is a custom ``autograd.Function`` node, and how many tensors
    that node saved with ``ctx.save_for_backward``.
    """
    import torch

    x = x.detach().requires_grad_(True)  # same layout, now a leaf of our graph
    out = student_fn(x, dim)
    node = out.grad_fn
    custom = isinstance(node, torch.autograd.function.BackwardCFunction)
    facts = {"grad_fn": type(node).__name__, "custom": custom,
             "saved": len(node.saved_tensors) if custom else 0}
    (grad,) = torch.autograd.grad(out, x, upstream)
    return out.detach(), grad, facts


def accumulation_harness(student_fn, kind, w, x, y, micro, stale):
    """Call ``student_fn(loss_fn, w, x, y, micro)`` with a ``loss_fn`` that takes at most
    ``micro`` rows at a time (like a GPU that fits no more) and records the batch sizes.

    With ``stale``, ``w.grad`` already holds a gradient from an earlier step.
    Returns ``(the student's gradient, the batch sizes loss_fn saw)``.
    """
    import torch

    sizes = []

    def loss_fn(weights, x_batch, y_batch):
        rows = int(x_batch.shape[0])
        if rows > micro:
            raise MemoryError(f"loss_fn got {rows} rows; at most micro={micro} fit")
        sizes.append(rows)
        logits = x_batch @ weights
        if kind == "mse":
            return ((logits - y_batch) ** 2).mean()
        return torch.nn.functional.cross_entropy(logits, y_batch)

    w = w.detach().requires_grad_(True)
    if stale:
        w.grad = torch.ones_like(w)  # left over from an earlier step
    return student_fn(loss_fn, w, x, y, micro), sizes


def running_mean_harness(student_fn, recipe):
    """Losses of real training steps (each with its graph) through ``student_fn``.

    Step ``i`` computes ``((x_i @ w - y_i) ** 2).mean()`` with data drawn from
    ``recipe["seed"]``. After the call, the caller still backpropagates through
    every loss. Returns ``(the student's result, for each of its items whether it
    is a tensor holding a graph, for each loss whether it is still attached to its
    graph, w.grad after backward through their sum, the error backward raised)``.
    """
    import torch

    dtype = getattr(torch, recipe["dtype"])
    generator = torch.Generator().manual_seed(recipe["seed"])
    rows, width = recipe["rows"], recipe["width"]
    w = torch.randn(width, 1, dtype=dtype, generator=generator).requires_grad_(True)
    losses = []
    for _ in range(recipe["steps"]):
        x = torch.randn(rows, width, dtype=dtype, generator=generator)
        y = torch.randn(rows, 1, dtype=dtype, generator=generator)
        losses.append(((x @ w - y) ** 2).mean())
    result = student_fn(list(losses))  # their own list: ours stays as it is
    # A tensor's requires_grad does not cross: say here which items hold a graph.
    items = result if isinstance(result, (list, tuple)) else [result]
    holds = [isinstance(v, torch.Tensor) and (v.requires_grad or v.grad_fn is not None)
             for v in items]
    attached = [loss.requires_grad and loss.grad_fn is not None for loss in losses]
    try:
        sum(losses).backward()
    except RuntimeError as exc:
        return result, holds, attached, None, str(exc)[:200]
    return result, holds, attached, w.grad, None


def plain_running_mean_harness(student_fn, values, dtype):
    """``student_fn`` on leaf losses that require grad (as a logged loss of a parameter
    would); returns ``(the student's result, for each item whether it holds a graph)``."""
    import torch

    losses = [torch.tensor(v, dtype=dtype, requires_grad=True) for v in values]
    result = student_fn(losses)
    items = result if isinstance(result, (list, tuple)) else [result]
    return result, [isinstance(v, torch.Tensor) and (v.requires_grad or v.grad_fn is not None)
                    for v in items]
