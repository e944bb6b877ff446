"""Hypothesis strategies for chapter 5's hidden checks (autograd).

* ``graph_recipes``: small random graphs as plain data (leaves of shapes that
  broadcast together, then unary and binary ops), trees or DAGs with shared
  nodes, optionally with detached branches and leaves that do not require grad;
* ``logsumexp_cases``: ``(x, dim, upstream)`` in float64, any layout, values
  of any magnitude, optionally with ``-inf`` entries;
* ``accumulation_cases``: ``(kind, w, x, y, micro, stale)``;
* ``loss_recipes`` / ``plain_losses``: losses for ``running_mean_losses``;
* ``train_only_cases``: ``(spec, seed, trainable, x, y, steps)``;
* ``backprop_graphs``: ``(graph, output)`` for ``backprop``: graphs of scalar
  nodes as plain data (leaves, ``add``, ``mul``, ``exp``, ``sum``) in a shuffled
  dict; with helpers that tell what a graph holds (``reuses``, ``has_diamond``,
  ``has_unused_leaf``).
"""

import math

import torch
from hypothesis import strategies as st

from grader.checks.autograd._examples import BINARY, CUTTING, UNARY
from grader.givens.autograd import build_model

from .. import strategies as gs  # what every chapter draws

__all__ = [
    "graph_recipes",
    "trivial_recipes",
    "float_layouts",
    "logsumexp_cases",
    "accumulation_cases",
    "loss_recipes",
    "plain_losses",
    "train_only_cases",
    "backprop_graphs",
    "ancestry",
    "reuses",
    "has_diamond",
    "has_unused_leaf",
]

_SEEDS = st.integers(0, 2**32 - 1)


# --- graph recipes ------------------------------------------------------------------


@st.composite
def _leaves(draw, count, optional_grad):
    """Leaf shapes that broadcast with a common shape: trailing dims of it, some set to 1."""
    base = draw(gs.shapes(max_dims=3, min_size=1, max_size=3))
    leaves = []
    for _ in range(count):
        kept = draw(st.integers(0, len(base)))
        shape = tuple(draw(st.sampled_from((1, n))) for n in base[len(base) - kept:])
        # Mostly requiring grad, so that cut graphs are rarely empty.
        grad = draw(st.sampled_from([True, True, False])) if optional_grad else True
        leaves.append([shape, grad])
    return leaves


@st.composite
def graph_recipes(draw, shared=False, cutting=False, max_nodes=7):
    """A recipe for ``grader.checks.autograd._harnesses.graph_harness``.

    A tree uses each leaf and each result exactly once (in a random order); with
    ``shared`` every operand is any earlier value, so nodes and leaves may be reached
    several times. ``cutting`` adds ``detach`` and leaves that do not require grad.
    """
    count = draw(st.integers(1, 4))
    leaves = draw(_leaves(count, optional_grad=cutting))
    unary = {**UNARY, **CUTTING} if cutting else UNARY
    pool, nodes = list(range(count)), []
    while len(nodes) < max_nodes and (len(pool) > 1 or not nodes or draw(st.booleans())):
        binary = draw(st.booleans()) if shared else len(pool) > 1 and draw(st.booleans())
        table = BINARY if binary else unary
        template = table[draw(gs.sampled(tuple(sorted(table))))]
        if shared:
            # Mostly built on the latest value (so the output depends on most nodes),
            # with other operands from anywhere before: paths meet again.
            latest = count + len(nodes) - 1
            first = latest if nodes and draw(st.integers(0, 3)) else draw(st.integers(0, latest))
            operands = [first] + [draw(st.integers(0, latest)) for _ in range(binary)]
        else:
            operands = [pool.pop(draw(st.integers(0, len(pool) - 1))) for _ in range(1 + binary)]
        nodes.append([template, operands])
        pool.append(count + len(nodes) - 1)
    if not shared:
        for leftover in pool[:-1]:  # a tree: every value ends up in the output
            nodes.append([BINARY["add"], [count + len(nodes) - 1, leftover]])
    return {"leaves": leaves, "nodes": nodes}


@st.composite
def trivial_recipes(draw):
    """Outputs with no graph to walk: a leaf itself, or a result that needs no grad."""
    leaves = draw(_leaves(draw(st.integers(1, 3)), optional_grad=True))
    kind = draw(st.sampled_from(["leaf", "no_grad", "detached"]))
    if kind == "leaf":
        return {"leaves": leaves, "nodes": []}
    if kind == "no_grad":
        for leaf in leaves:
            leaf[1] = False
        names = sorted(UNARY)
        nodes = [[UNARY[draw(st.sampled_from(names))], [len(leaves) - 1]]]
        return {"leaves": leaves, "nodes": nodes}
    nodes = [[BINARY["mul"], [0, len(leaves) - 1]], [CUTTING["detach"], [len(leaves)]]]
    return {"leaves": leaves, "nodes": nodes}


# --- logsumexp ----------------------------------------------------------------------


@st.composite
def float_layouts(draw, shape, dtype=torch.float64, any_layout=True):
    """A float tensor of ``shape``: a realistic layout over a storage of random values."""
    layout = draw(gs.layouts(gs.fixed(shape), permute=any_layout, step=any_layout,
                             offset=any_layout, expand=any_layout))
    size = layout.untyped_storage().nbytes() // layout.element_size()
    values = torch.randn(size, dtype=dtype, generator=torch.Generator().manual_seed(draw(_SEEDS)))
    return values.as_strided(layout.shape, layout.stride(), layout.storage_offset())


@st.composite
def logsumexp_cases(draw, any_layout=False, large=False, masked=False):
    """``(x, dim, upstream)``: the reduced dim has at least one element.

    ``any_layout`` also allows empty dims other than ``dim``; ``large`` shifts each
    slice by its own offset up to ±1e4 (so ``exp`` overflows or underflows);
    ``masked`` sets some entries to ``-inf``, never a whole slice.
    """
    min_size = 0 if any_layout else 1
    shape = list(draw(gs.shapes(min_dims=1, max_dims=4, min_size=min_size, max_size=4)))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    shape[dim] = max(shape[dim], 1)
    x = draw(float_layouts(tuple(shape), any_layout=any_layout))
    if large:
        offsets = draw(float_layouts(tuple(1 if d == dim % len(shape) else n
                                           for d, n in enumerate(shape)), any_layout=False))
        x = x + (offsets * 5e3).round()
    if masked:
        mask = draw(float_layouts(tuple(shape), any_layout=False)) > 0.5
        keep = torch.zeros_like(mask).index_fill_(dim, torch.tensor([0]), True)
        x = x.masked_fill(mask & ~keep, -torch.inf)  # the first entry of each slice stays
    out_shape = tuple(n for d, n in enumerate(shape) if d != dim % len(shape))
    return x, dim, draw(float_layouts(out_shape, any_layout=False))


# --- accumulated_grad ---------------------------------------------------------------


@st.composite
def accumulation_cases(draw, divides=None, stale=False, kinds=("mse", "cross_entropy")):
    """``(kind, w, x, y, micro, stale)``; ``divides``: whether micro divides the rows."""
    kind = draw(st.sampled_from(kinds))
    micro = draw(st.integers(1, 5))
    chunks = draw(st.integers(1, 4))
    if divides is True:
        rows = micro * chunks
    elif divides is False:
        micro = max(micro, 2)
        rows = micro * chunks + draw(st.integers(1, micro - 1))
    else:
        rows = draw(st.integers(1, 16))
    width, classes = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    w = draw(float_layouts((width, classes), any_layout=False))
    x = draw(float_layouts((rows, width)))
    if kind == "mse":
        y = draw(float_layouts((rows, classes)))
    else:
        y = torch.tensor(draw(st.lists(st.integers(0, classes - 1), min_size=rows,
                                       max_size=rows)), dtype=torch.int64)
    return kind, w, x, y, micro, stale


# --- running_mean_losses ------------------------------------------------------------


def loss_recipes(min_steps=1, max_steps=12):
    return st.fixed_dictionaries({
        "seed": _SEEDS, "steps": st.integers(min_steps, max_steps), "rows": st.integers(1, 5),
        "width": st.integers(1, 4), "dtype": st.sampled_from(["float32", "float64"]),
    })


@st.composite
def plain_losses(draw):
    """``(values, dtype)``: loss values (nonnegative floats) and their dtype."""
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    values = draw(st.lists(st.floats(0.0, 1e3, allow_subnormal=False), min_size=1,
                           max_size=30))
    return values, dtype


# --- train_only ---------------------------------------------------------------------


@st.composite
def _spec(draw, min_linears=1):
    widths = draw(st.lists(st.integers(1, 4), min_size=min_linears + 1, max_size=4))
    spec = []
    for k, (size_in, size_out) in enumerate(zip(widths, widths[1:])):
        spec.append(("linear", size_in, size_out))
        if k < len(widths) - 2:
            spec.append(draw(st.sampled_from([("relu",), ("tanh",), ("layernorm", size_out)])))
    return spec


@st.composite
def train_only_cases(draw, pattern="any"):
    """``pattern``: ``"any"`` subset; ``"sandwich"``: a frozen layer after a trainable one;
    ``"partial"``: a layer with some but not all parameters trainable; ``"all_or_none"``."""
    spec = draw(_spec(min_linears=2 if pattern == "sandwich" else 1))
    seed = draw(st.integers(0, 2**31 - 1))
    layers: dict[str, list[str]] = {}
    for name, _ in build_model(spec, seed).named_parameters():
        layers.setdefault(name.split(".")[0], []).append(name)
    groups = list(layers.values())
    if pattern == "sandwich":
        first = draw(st.integers(0, len(groups) - 2))
        chosen = set(draw(st.sets(st.sampled_from(groups[first]), min_size=1)))
        chosen |= {n for g in groups[first + 2:] for n in g if draw(st.booleans())}
    elif pattern == "partial":
        group = draw(st.sampled_from(groups))
        chosen = {draw(st.sampled_from(group))}
        chosen |= {n for g in groups if g is not group for n in g if draw(st.booleans())}
    elif pattern == "all_or_none":
        chosen = {n for g in groups for n in g} if draw(st.booleans()) else set()
    else:
        chosen = {n for g in groups for n in g if draw(st.booleans())}
    rows = draw(st.integers(1, 6))
    x = draw(float_layouts((rows, spec[0][1]), dtype=torch.float32))
    y = draw(float_layouts((rows, spec[-1][2]), dtype=torch.float32, any_layout=False))
    return spec, seed, sorted(chosen), x, y, draw(st.integers(1, 3))


# --- backprop graphs ----------------------------------------------------------------

_LEAF_NAMES = "xyzw"
_EXP_LIMIT = 3.0  # exp only of values this small: gradients stay far from overflow
_MUL_LIMIT = 1e3


@st.composite
def backprop_graphs(draw, max_ops=6, tree=False, any_output=False):
    """``(graph, output)``: 1-4 leaves (multiples of 1/4 in -2..2), then 1 to ``max_ops``
    nodes, each of inputs drawn from the nodes before it (so leaves and nodes get
    reused: ``["mul", "x", "x"]``, diamonds), in a shuffled dict.

    ``tree``: each node is the input of at most one node, once. ``any_output``: the
    output is any node, a leaf included, not the last one made.
    """
    graph, values, free = {}, {}, []
    for name in _LEAF_NAMES[:draw(st.integers(1, len(_LEAF_NAMES)))]:
        values[name] = draw(st.integers(-8, 8)) / 4
        graph[name] = ["leaf", values[name]]
        free.append(name)
    for k in range(1, draw(st.integers(1, max_ops)) + 1):
        pool = free if tree else list(graph)
        small = [n for n in pool if abs(values[n]) <= _EXP_LIMIT]
        ops = ["sum"] + (["exp"] if small else []) + (["add", "mul"] if len(pool) >= 2 or
                                                        not tree else [])
        op = draw(gs.sampled(tuple(ops)))
        if op == "exp":
            inputs = [draw(gs.sampled(tuple(small)))]
        else:
            count = 2 if op in ("add", "mul") else draw(st.integers(1, min(3, len(pool))
                                                                    if tree else 3))
            if tree:
                inputs = list(draw(st.permutations(pool)))[:count]
            else:
                inputs = [draw(gs.sampled(tuple(pool))) for _ in range(count)]
        if op == "mul" and abs(values[inputs[0]] * values[inputs[1]]) > _MUL_LIMIT:
            op = "add"
        x = [values[n] for n in inputs]
        values[f"v{k}"] = {"add": sum, "sum": sum, "mul": lambda x: x[0] * x[1],
                           "exp": lambda x: math.exp(x[0])}[op](x)
        graph[f"v{k}"] = [op, *inputs]
        if tree:
            free = [n for n in free if n not in inputs]
        free.append(f"v{k}")
    output = draw(st.sampled_from(list(graph))) if any_output else f"v{k}"
    order = draw(st.permutations(list(graph)))
    return {name: graph[name] for name in order}, output


def ancestry(graph: dict, output: str) -> set[str]:
    """The nodes ``output`` depends on, itself included."""
    seen, todo = set(), [output]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            op, *inputs = graph[name]
            todo += inputs if op != "leaf" else []
    return seen


def _uses(graph: dict, output: str) -> dict[str, int]:
    """How many times each node is an input of a node ``output`` depends on."""
    uses = {}
    for name in ancestry(graph, output):
        op, *inputs = graph[name]
        for i in inputs if op != "leaf" else []:
            uses[i] = uses.get(i, 0) + 1
    return uses


def reuses(case) -> bool:
    """Some node on the way to the output is an input twice (of one node or two)."""
    return any(n > 1 for n in _uses(*case).values())


def has_diamond(case) -> bool:
    """Some node that is not a leaf is an input of two nodes on the way to the output."""
    graph, output = case
    return any(n > 1 and graph[name][0] != "leaf" for name, n in _uses(*case).items())


def has_unused_leaf(case) -> bool:
    """Some leaf is not on the way to the output."""
    graph, output = case
    return any(op == "leaf" and name not in ancestry(graph, output)
               for name, (op, *_) in graph.items())
