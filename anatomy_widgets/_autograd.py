"""The grad_fn graph of a live tensor, read from torch's own node objects.

Each node exposes what its backward formula saved as ``_saved_<name>``
attributes (reading one unpacks it, with torch's own checks) and, for tensors,
``_raw_saved_<name>`` (a ``SavedTensor`` whose ``.data`` skips those checks).
Torch does not expose the version a tensor was saved at, but unpacking compares
it with the live version and, when they differ, raises the very error backward
would raise ("... is at version N; expected version M"): so the saved version is
the live one when unpacking succeeds, and M when it fails. A saved tensor freed
by ``backward()`` raises "backward through the graph a second time" instead.
Nothing here calls backward or changes a tensor: reading the graph is harmless.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import torch

from ._language import english, translate

__all__ = ["Saved", "Leaf", "Node", "Graph", "graph_of", "values_text", "MAX_VALUES"]

MAX_VALUES = 8  # a grad with more elements is described by its shape only
_STALE = re.compile(r"is at version (\d+); expected version (\d+)")
_FREED = "backward through the graph a second time"
_UNKNOWN = english("checked with a stale input, state unknown", "autograd")


@dataclass(frozen=True)
class Saved:
    """One tensor a node saved for backward.

    ``state``: ``"ok"``, ``"stale"`` (changed in place since it was saved: backward
    will raise), ``"freed"`` (released by a backward without ``retain_graph``) or
    ``"none"`` (the slot exists but nothing was saved: no gradient needed it), or
    ``"unreadable"`` (torch refused for another reason, given in ``error``).
    """

    name: str
    state: str
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    version: int | None = None  # the live tensor's version now
    saved_version: int | None = None  # its version when the node saved it
    error: str | None = None  # torch's message on unpacking, for stale and freed
    of: str | None = None  # the name (given to graph_of) of the tensor saved, if it is one

    def mark(self) -> str:
        """The short text the drawing writes after the name."""
        if self.state == "freed":
            return translate("freed by backward()", "autograd")
        if self.state == "none":
            return translate("— (no gradient needed it)", "autograd")
        if self.state == "unreadable":  # the whole message is in the widget's error line
            why = translate(self.error or "", "autograd")  # torch's words stay torch's
            return translate("unreadable: {why}", "autograd").format(
                why=why if len(why) <= 48 else why[:47] + "…")
        where = f"{_shape_text(self.shape)} {self.dtype}, v{self.version}"
        if self.state == "stale":
            return translate("{where}, saved at v{version} → stale", "autograd").format(
                where=where, version=self.saved_version)
        return where


@dataclass(frozen=True)
class Leaf:
    """The variable of an ``AccumulateGrad`` node (or a named non-leaf with retain_grad)."""

    name: str | None
    shape: tuple[int, ...]
    dtype: str
    version: int
    grad: str | None  # None, or the grad's values (or shape when large) as text


@dataclass(frozen=True)
class Node:
    """One backward node: its class name, what it saved, and where it is drawn."""

    id: int  # discovery order from the root (breadth first): deterministic
    name: str
    saved: tuple[Saved, ...]
    attrs: tuple[tuple[str, str], ...]  # saved non-tensors: sizes, dims, scalars
    leaf: Leaf | None  # for AccumulateGrad: its variable
    output: Leaf | None  # a named non-leaf this node made (its grad if it retains one)
    untracked: int  # inputs that need no gradient (constants, detached tensors)
    layer: int = 0  # 0: the root; leaves share the last layer


@dataclass(frozen=True)
class Graph:
    """The graph behind ``root``; ``edges`` run from a node to the node of an input."""

    root: str  # a line describing the tensor itself
    nodes: tuple[Node, ...]
    edges: tuple[tuple[int, int], ...]
    retained: Leaf | None  # the root's own grad, when it retains one

    @property
    def layers(self) -> int:
        return 1 + max((n.layer for n in self.nodes), default=-1)

    def saved(self, state: str) -> list[tuple[Node, Saved]]:
        return [(n, s) for n in self.nodes for s in n.saved if s.state == state]


def values_text(t: torch.Tensor | None) -> str | None:
    """A small tensor's values (4 significant digits), a large one's shape; None stays None."""
    if t is None:
        return None
    if t.numel() > MAX_VALUES:
        return f"{_shape_text(tuple(t.shape))} tensor"
    flat = [f"{v:.4g}" for v in t.detach().reshape(-1).tolist()]
    return "[" + ", ".join(flat) + "]" if t.dim() else flat[0]


def _shape_text(shape) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _dtype_text(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _leaf(t: torch.Tensor, name: str | None) -> Leaf:
    # A non-leaf's .grad is read only when it retains one (otherwise torch warns).
    grad = t.grad if t.is_leaf or t.retains_grad else None
    return Leaf(name, tuple(t.shape), _dtype_text(t.dtype), t._version, values_text(grad))


def _saved_tensor(name: str, raw, unpack) -> Saved:
    """Unpack one saved tensor the way backward would, and say what became of it."""
    try:
        value = unpack()
    except RuntimeError as e:
        return _refused(name, raw, str(e))
    if value is None:
        return Saved(name, "none")
    version = value._version
    return Saved(name, "ok", tuple(value.shape), _dtype_text(value.dtype), version, version)


def _refused(name: str, raw, message: str) -> Saved:
    if _FREED in message:
        return Saved(name, "freed", error=message)
    versions = _STALE.search(message)
    if versions is None or raw is None:  # another refusal: say it, do not guess
        return Saved(name, "unreadable", error=message)
    live = raw.data  # the tensor itself, or a shallow copy sharing its version counter
    now, then = (int(v) for v in versions.groups())
    return Saved(name, "stale", tuple(live.shape), _dtype_text(live.dtype), now, then, message)


def _saved_of(node) -> tuple[list[Saved], list[tuple[str, str]]]:
    if "_raw_saved_tensors" in dir(node) and "_saved_tensors" not in dir(node):
        return _custom_saved(node), []
    saved, attrs = [], []
    for name in [a.removeprefix("_saved_") for a in dir(node) if a.startswith("_saved_")]:
        try:
            raw = getattr(node, f"_raw_saved_{name}", None)
        except RuntimeError as e:  # a list of tensors, freed: torch no longer says how many
            saved.append(_refused(name, None, str(e)))
            continue
        if raw is None:  # not a tensor: sizes, dims, Python scalars are never freed
            attrs.append((name, _attr_text(getattr(node, f"_saved_{name}"))))
        elif isinstance(raw, (tuple, list)):  # a list of tensors, e.g. IndexBackward0's indices
            saved += [_saved_tensor(f"{name}[{k}]", r, _unpacker(node, name, k))
                      for k, r in enumerate(raw)]  # fmt: skip
        else:
            saved.append(_saved_tensor(name, raw, _unpacker(node, name, None)))
    return saved, attrs


def _unpacker(node, name: str, k: int | None):
    def unpack():
        value = getattr(node, f"_saved_{name}")
        return value if k is None else value[k]

    return unpack


def _custom_saved(node) -> list[Saved]:
    """What a custom ``autograd.Function`` saved with ``ctx.save_for_backward``.

    Each input is checked on its own (``SavedTensor.unpack``). A saved output can only
    be unpacked by its node, all at once (``saved_tensors``), so when that fails for
    staleness while an input is stale too, which one torch meant cannot be told.
    """
    try:
        raws = node._raw_saved_tensors
    except RuntimeError as e:  # freed: torch no longer says how many there were
        return [_refused("tensors", None, str(e))]
    own = [_saved_tensor(f"tensors[{k}]", raw, raw.unpack) for k, raw in enumerate(raws)]
    together = [_saved_tensor(s.name, raw, lambda k=k: node.saved_tensors[k])
                for k, (s, raw) in enumerate(zip(own, raws))]  # fmt: skip
    inputs_stale = any(s.state == "stale" for s in own)
    result = []
    for alone, joint in zip(own, together):
        if alone.state != "unreadable":
            result.append(alone)
        elif joint.state == "stale" and inputs_stale:
            result.append(Saved(alone.name, "unreadable", error=_UNKNOWN))
        else:
            result.append(joint)
    return result


def _named(node, saved: list[Saved], label: dict) -> list[Saved]:
    """Which saved tensors are tensors the caller named (the very objects, not copies).

    ``SavedTensor.data`` skips the checks, so a stale tensor is named too; a freed one
    has no data, and a saved output is a copy torch makes: neither gets a name.
    """
    named = []
    for item in saved:
        raw = getattr(node, f"_raw_saved_{item.name}", None) if item.state != "freed" else None
        data = getattr(raw, "data", None)
        named.append(replace(item, of=label.get(id(data))) if data is not None else item)
    return named


def _attr_text(value) -> str:
    if isinstance(value, torch.Tensor):  # a wrapped number, e.g. MulBackward0's 2
        return values_text(value)
    text = repr(value)
    return text if len(text) <= 24 else text[:23] + "…"


def _walk(root_fn) -> tuple[list, list[tuple[int, int]], list[int]]:
    """Nodes breadth first from ``root_fn`` (each once), edges, and untracked input counts."""
    order, index, edges, untracked = [root_fn], {root_fn: 0}, [], [0]
    for k, node in enumerate(order):  # order grows while it is walked
        for child, _ in node.next_functions:
            if child is None:
                untracked[k] += 1
                continue
            if child not in index:
                index[child] = len(order)
                order.append(child)
                untracked.append(0)
            edges.append((k, index[child]))
    return order, sorted(set(edges)), untracked


def _layers(count: int, edges, is_leaf) -> list[int]:
    """Longest path from the root, so every edge points down; leaves then go to the bottom.

    Parents before children (Kahn's order): each node's layer is final when it is reached.
    """
    children, waiting = [[] for _ in range(count)], [0] * count
    for parent, child in edges:
        children[parent].append(child)
        waiting[child] += 1
    layer, ready = [0] * count, [k for k in range(count) if not waiting[k]]
    while ready:
        node = ready.pop()
        for child in children[node]:
            layer[child] = max(layer[child], layer[node] + 1)
            waiting[child] -= 1
            if not waiting[child]:
                ready.append(child)
    bottom = max((layer[k] for k in range(count) if not is_leaf[k]), default=-1) + 1
    return [bottom if is_leaf[k] else layer[k] for k in range(count)]


def _made_by(node, made) -> Leaf | None:
    return next((leaf for fn, leaf in made if fn is node), None)


def graph_of(tensor: torch.Tensor, names: dict | None = None) -> Graph:
    """Read the graph behind ``tensor`` now; ``names`` (name -> tensor) labels its leaves."""
    named = (names or {}).items()
    label = {id(t): n for n, t in named}
    # Held here, node objects stay the ones next_functions returns (torch caches a node's
    # Python object only while it lives): compared by identity, never by a reused id().
    made = [(t.grad_fn, _leaf(t, n)) for n, t in named if t.grad_fn is not None]
    root = f"{_shape_text(tuple(tensor.shape))} {_dtype_text(tensor.dtype)}"
    retained = _leaf(tensor, "root") if tensor.retains_grad else None
    if tensor.grad_fn is None:
        why = (translate("{root}: a leaf that requires grad, no backward graph", "autograd")
               if tensor.requires_grad else
               translate("{root}: needs no grad, no backward graph", "autograd"))
        return Graph(why.format(root=root), (), (), None)
    order, edges, untracked = _walk(tensor.grad_fn)
    variables = [getattr(n, "variable", None) for n in order]
    layer = _layers(len(order), edges, [v is not None for v in variables])
    nodes = []
    for k, (node, var) in enumerate(zip(order, variables)):
        saved, attrs = _saved_of(node)
        saved = _named(node, saved, label)
        leaf = _leaf(var, label.get(id(var))) if var is not None else None
        nodes.append(Node(k, type(node).__name__, tuple(saved), tuple(attrs), leaf,
                          _made_by(node, made), untracked[k], layer[k]))  # fmt: skip
    return Graph(f"{root}, grad_fn={type(tensor.grad_fn).__name__}", tuple(nodes),
                 tuple(edges), retained)  # fmt: skip
