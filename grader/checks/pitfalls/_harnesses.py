"""Harnesses for chapter 6 (pitfalls): run beside the student's function.

A graph cannot cross the wire, so these run where the student's function lives
(see ``grader._harness``). Both hand it copies of the arguments as leaves that
require grad, whatever flags the arguments arrived with.
``training_harness`` also reports, for each part of the answer, its value and
how many autograd nodes hang behind it. Only their source travels: each
imports what it needs in its body and uses no globals. They report facts;
every verdict is the judge's, against torch.
"""

__all__ = ["swish_harness", "training_harness"]


def swish_harness(student_fn, x, w):
    """``student_fn(x, w)`` with x and w made leaves that require grad."""
    return student_fn(x.detach().clone().requires_grad_(True),
                      w.detach().clone().requires_grad_(True))


def training_harness(student_fn, w, batches, lr):
    """Call ``student_fn(w, batches, lr)``; describe the ``(weights, loss)`` it returns:
    each one's value (tensors as detached copies) and, for tensors, whether they require
    grad and how many autograd nodes hang behind them. ``{"kind": ...}`` if not a pair.
    """
    import torch

    def nodes_behind(tensor):
        seen, todo = set(), [tensor.grad_fn]
        while todo:
            node = todo.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            todo.extend(next_node for next_node, _ in node.next_functions)
        return len(seen)

    answer = student_fn(w.detach().clone().requires_grad_(True), batches, lr)
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return {"kind": type(answer).__name__}
    facts = {"kind": "pair"}
    for name, value in zip(("weights", "loss"), answer):
        if isinstance(value, torch.Tensor):
            facts[name] = value.detach().clone()
            facts[f"{name}_requires_grad"] = bool(value.requires_grad)
            facts[f"{name}_nodes"] = nodes_behind(value)
        elif isinstance(value, (bool, int, float)):
            facts[name] = value
        else:
            facts[name] = f"a {type(value).__name__}"
    return facts
