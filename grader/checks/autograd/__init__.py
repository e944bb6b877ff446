"""Chapter 5, autograd: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` runs the student's ``fn`` (through a
harness where a graph or a ``.grad`` must stay on the student's side), asks
torch for the truth, and raises ``Mismatch`` with a small counterexample when
they disagree. The hidden checks (``grader/hidden/autograd/test.py``) reuse
these functions on hypothesis-generated inputs.

graph_summary, running_mean_losses and train_only are their own truth (a walk
of the graph, the running means, the training loop): their comparisons take it
as ``truth=``, from ``grader.hidden.autograd.oracles`` in the judge and stored
with the public examples at release in the student's kernel (``stored=True``).
"""

from ...givens.autograd import build_model
from .._compare import (
    as_plain,
    describe_tensor,
    expect_float,
    expect_tensor,
    is_tensor,
    scalar_close,
)
from .._registry import Mismatch, public_check
from .._test_cell import fill, translate
from ..storage_strides._harnesses import torch_calls_harness
from ._examples import (
    accumulation_examples,
    graph_examples,
    graph_redrawn,
    logsumexp_examples,
    running_mean_examples,
    running_mean_redrawn,
    train_only_examples,
)
from ._harnesses import (
    accumulation_harness,
    graph_harness,
    logsumexp_harness,
    plain_running_mean_harness,
    running_mean_harness,
)
from ._oracle import (
    describe_recipe,
    describe_spec,
    torch_backprop,
    torch_full_batch_grad,
    torch_logsumexp,
)

__all__ = [
    "compare_graph_summary",
    "compare_logsumexp",
    "compare_accumulated_grad",
    "compare_running_mean_losses",
    "compare_running_mean_losses_plain",
    "compare_train_only",
    "compare_backprop",
]


# --- 1. graph_summary ---------------------------------------------------------------


def _as_summary(call: str, result):
    """The student's ``(leaf shapes, op names)`` as ``(list of tuples, list of str)``."""
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Mismatch(fill(translate("{call} returned {result!r:.200}; expected a pair (leaves, "
                                      "ops)", "checks"), call=call, result=result))
    leaves, ops = result
    if not isinstance(leaves, (tuple, list)) or not all(
            isinstance(s, (tuple, list)) and all(type(n) is int for n in s) for s in leaves):
        raise Mismatch(fill(translate("{call}: leaves is {leaves!r:.200}; expected a list of "
                                      "shape tuples", "checks"), call=call, leaves=leaves))
    if not isinstance(ops, (tuple, list)) or not all(isinstance(op, str) for op in ops):
        raise Mismatch(fill(translate("{call}: ops is {ops!r:.200}; expected a list of grad_fn "
                                      "class names", "checks"), call=call, ops=ops))
    return [tuple(s) for s in leaves], list(ops)


@public_check("graph_summary", graph_examples, stored=True, redraw=graph_redrawn)
def compare_graph_summary(fn, recipe, *, truth):
    """``truth``: the graph's ``(leaf shapes, op names)``, depth first."""
    call = fill(translate("{call} for {recipe}", "checks"), call="graph_summary(output)",
                recipe=describe_recipe(recipe))
    leaves, ops = _as_summary(call, fn.harness(graph_harness, recipe))
    true_leaves, true_ops = truth
    if ops != true_ops:
        raise Mismatch(fill(translate("{call}: ops {ops}; the graph's nodes, depth first, are "
                                      "{truth}", "checks"), call=call, ops=ops, truth=true_ops))
    if leaves != true_leaves:
        raise Mismatch(fill(translate("{call}: leaves {leaves}; the graph's leaves, depth first, "
                                      "are {truth}", "checks"),
                            call=call, leaves=leaves, truth=true_leaves))


# --- 2. logsumexp -------------------------------------------------------------------


@public_check("logsumexp", logsumexp_examples)
def compare_logsumexp(fn, x, dim, upstream):
    call = fill(translate("{call} for x of {x}", "checks"), call=f"logsumexp(x, {dim})",
                x=describe_tensor(x))
    result = fn.harness(logsumexp_harness, x, dim, upstream)
    if not isinstance(result, tuple) or len(result) != 3 or not isinstance(result[2], dict):
        raise Mismatch(fill(translate("{call}: could not run forward and backward "
                                      "({result!r:.200})", "checks"), call=call, result=result))
    out, grad, facts = result
    true_out, true_grad = torch_logsumexp(x, dim, upstream)
    expect_tensor(call, out, true_out, rtol=1e-7, atol=1e-9,
                  what=translate("the output", "checks"))
    expect_tensor(fill(translate("{call}, upstream gradient {upstream}", "checks"), call=call,
                       upstream=describe_tensor(upstream)), grad, true_grad,
                  rtol=1e-7, atol=1e-9, what=translate("the gradient of x", "checks"))
    if facts.get("custom") is not True:
        raise Mismatch(fill(translate("{call}: the output's grad_fn is {grad_fn!r}, not your "
                                      "torch.autograd.Function: return LogSumExp.apply(x, dim)",
                                      "checks"), call=call, grad_fn=facts.get("grad_fn")))
    if not isinstance(facts.get("saved"), int) or facts["saved"] < 1:
        raise Mismatch(fill(translate("{call}: your Function saved no tensor with "
                                      "ctx.save_for_backward", "checks"), call=call))


# --- 3. accumulated_grad ------------------------------------------------------------


@public_check("accumulated_grad", accumulation_examples)
def compare_accumulated_grad(fn, kind, w, x, y, micro, stale):
    rows = x.shape[0]
    setting = translate("{call} with the {kind} loss, {rows} rows, w of shape {shape}, w.grad "
                        "left over from an earlier step", "checks") if stale else \
        translate("{call} with the {kind} loss, {rows} rows, w of shape {shape}", "checks")
    call = fill(setting, call=f"accumulated_grad(loss_fn, w, x, y, micro={micro})", kind=kind,
                rows=rows, shape=tuple(w.shape))
    result = fn.harness(accumulation_harness, kind, w, x, y, micro, stale)
    if not isinstance(result, tuple) or len(result) != 2 or not isinstance(result[1], list):
        raise Mismatch(fill(translate("{call}: could not run ({result!r:.200})", "checks"),
                            call=call, result=result))
    grad, sizes = result
    if any(type(n) is not int or n > micro for n in sizes) or sum(sizes) != rows:
        raise Mismatch(fill(translate("{call}: loss_fn saw batches of {sizes} rows; expected "
                                      "batches of at most {micro} rows covering all {rows} rows "
                                      "once", "checks"),
                            call=call, sizes=sizes, micro=micro, rows=rows))
    truth = torch_full_batch_grad(kind, w, x, y)
    expect_tensor(call, grad, truth, rtol=1e-7, atol=1e-10,
                  what=translate("the gradient", "checks"))


# --- 4. running_mean_losses ---------------------------------------------------------


def _expect_running_means(call: str, result, holds, truth: list[float], rtol: float) -> None:
    if not isinstance(result, (list, tuple)) or len(result) != len(truth):
        raise Mismatch(fill(translate("{call} returned {result!r:.200}; expected a list of "
                                      "{count} floats", "checks"),
                            call=call, result=result, count=len(truth)))
    if not isinstance(holds, list) or len(holds) != len(result):
        raise Mismatch(fill(translate("{call}: could not inspect the result ({holds!r:.100})",
                                      "checks"), call=call, holds=holds))
    for i, (value, holding, true_value) in enumerate(zip(result, holds, truth)):
        if holding is not False:
            raise Mismatch(fill(translate("{call}: entry {i} is a tensor attached to a graph (it "
                                          "requires grad): it keeps the graphs of the losses "
                                          "alive", "checks"), call=call, i=i))
        plain = as_plain(value) if is_tensor(value) else None
        if plain is not None and plain.numel() == 1 and plain.device.type != "meta":
            value = plain.item()  # a 0-d tensor that holds no graph will do
        expect_float(call, value, true_value, rtol=rtol, atol=1e-12, ints=True,
                     what=fill(translate("entry {i}", "checks"), i=i),
                     why=fill(translate("the mean of the first {count} losses is {mean!r}",
                                        "checks"), count=i + 1, mean=true_value))


def _tolerance(dtype: str) -> float:
    return 1e-5 if dtype == "float32" else 1e-12


@public_check("running_mean_losses", running_mean_examples, stored=True,
              redraw=running_mean_redrawn)
def compare_running_mean_losses(fn, recipe, *, truth):
    """``truth``: ``(the running means, w.grad after backward through the losses)``."""
    steps, dtype = recipe["steps"], recipe["dtype"]
    call = fill(translate("{call} for {steps} {dtype} losses of real training steps", "checks"),
                call="running_mean_losses(losses)", steps=steps, dtype=dtype)
    result = fn.harness(running_mean_harness, recipe)
    if not isinstance(result, tuple) or len(result) != 5:
        raise Mismatch(fill(translate("{call}: could not run ({result!r:.200})", "checks"),
                            call=call, result=result))
    means, holds, attached, grad, error = result
    true_means, true_grad = truth
    _expect_running_means(call, means, holds, true_means, _tolerance(dtype))
    if error is not None or attached != [True] * steps:
        raise Mismatch(fill(translate("{call}: afterwards the losses are no longer attached to "
                                      "their graphs (attached: {attached}), so the caller's "
                                      "backward fails: {error}. Leave the losses as they were",
                                      "checks"), call=call, attached=attached, error=error))
    expect_tensor(fill(translate("{call}, then backward through the losses", "checks"),
                       call=call), grad, true_grad, rtol=1e-5, atol=1e-7, what="w.grad")


def compare_running_mean_losses_plain(fn, values, dtype, *, truth):
    """The same exercise on leaf losses that require grad, made from ``values``;
    ``truth``: their running means (hidden checks only)."""
    name = str(dtype).removeprefix("torch.")
    call = fill(translate("{call} for {count} {dtype} losses {values!r:.120}", "checks"),
                call="running_mean_losses(losses)", count=len(values), dtype=name, values=values)
    result = fn.harness(plain_running_mean_harness, values, dtype)
    if not isinstance(result, tuple) or len(result) != 2:
        raise Mismatch(fill(translate("{call}: could not run ({result!r:.200})", "checks"),
                            call=call, result=result))
    _expect_running_means(call, result[0], result[1], truth, _tolerance(name))


# --- 5. train_only ------------------------------------------------------------------


@public_check("train_only", train_only_examples, stored=True)
def compare_train_only(fn, spec, seed, trainable, x, y, steps, *, truth):
    """``truth``: every parameter's name and value after torch's own SGD steps."""
    call = fill(translate("{call} for {model}, x of shape {shape}", "checks"),
                call=f"train_only(spec, {seed}, {sorted(trainable)}, x, y, {steps})",
                model=describe_spec(spec), shape=tuple(x.shape))
    result = fn(spec, seed, trainable, x, y, steps)
    if not isinstance(result, dict) or set(result) != set(truth):
        shown = sorted(result) if isinstance(result, dict) else type(result).__name__
        raise Mismatch(fill(translate("{call} returned {shown}; expected a dict with the names "
                                      "{names}", "checks"),
                            call=call, shown=shown, names=sorted(truth)))
    initial = dict(build_model(spec, seed).named_parameters())
    for name, true_value in truth.items():
        if name not in trainable:  # compared with the parameter as built, exactly
            expect_tensor(call, result[name], initial[name].detach(),
                          what=fill(translate("{name} (frozen: it must not change at all)",
                                              "checks"), name=name))
        else:
            expect_tensor(call, result[name], true_value, rtol=1e-4, atol=1e-6, what=name)


# --- 6. backprop --------------------------------------------------------------------


def _backprop_examples():
    return [  # (graph, output); the dict's order is never a topological one
        ({"z": ["mul", "x", "y"], "x": ["leaf", 2.0], "y": ["leaf", -3.0]}, "z"),
        ({"e": ["exp", "x"], "x": ["leaf", 0.5]}, "e"),
        ({"s": ["mul", "x", "x"], "x": ["leaf", 1.5]}, "s"),  # one input, twice
        ({"t": ["sum", "x", "y", "x"], "x": ["leaf", 1.0], "y": ["leaf", 2.0]}, "t"),
        ({"out": ["add", "p", "q"], "q": ["mul", "p", "y"], "p": ["exp", "x"],  # a diamond
          "x": ["leaf", -0.5], "y": ["leaf", 2.0]}, "out"),
        ({"b": ["exp", "a"], "c": ["mul", "b", "b"], "a": ["add", "x", "y"],
          "d": ["sum", "c", "a", "x"], "x": ["leaf", 0.25], "y": ["leaf", -1.0]}, "d"),
        ({"u": ["add", "x", "x"], "x": ["leaf", 1.0], "w": ["leaf", 4.0]}, "u"),  # w unused
        ({"v": ["exp", "w"], "w": ["mul", "x", "y"], "x": ["leaf", 1.0], "y": ["leaf", 2.0]},
         "w"),  # v is not on the way to the output
        ({"x": ["leaf", 3.0], "y": ["leaf", 1.0]}, "x"),  # the output is a leaf
    ]


def _backprop_redrawn(example, rng):
    # New leaf values in [-2, 2] (exp of their sums and products stays far from overflow);
    # the graph and its order, never a topological one, kept.
    graph, output = example
    return {name: ["leaf", round(rng.uniform(-2, 2), 2)] if node[0] == "leaf" else node
            for name, node in graph.items()}, output


@public_check("backprop", _backprop_examples, redraw=_backprop_redrawn)
def compare_backprop(fn, graph, output):
    call = f"backprop({graph}, {output!r})"
    result, called = fn.harness(torch_calls_harness, graph, output)
    if called:
        raise Mismatch(fill(translate("{call} called torch ({called}); the rule is no torch: walk "
                                      "the graph yourself", "checks"),
                            call=call, called=", ".join(called)))
    truth = torch_backprop(graph, output)
    if not isinstance(result, dict) or set(result) != set(truth):
        raise Mismatch(fill(translate("{call} returned {result!r:.300}; expected a dict with a "
                                      "gradient for every leaf: {leaves}", "checks"),
                            call=call, result=result, leaves=sorted(truth)))
    for leaf, true_grad in truth.items():
        grad = result[leaf]
        if type(grad) not in (int, float) or not scalar_close(grad, true_grad, 1e-6, 1e-9):
            raise Mismatch(fill(translate("{call} gives {leaf} the gradient {grad!r}; "
                                          "torch.autograd.grad: {truth!r} (all of torch's: "
                                          "{all})", "checks"),
                                call=call, leaf=leaf, grad=grad, truth=true_grad, all=truth))
