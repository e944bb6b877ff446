"""The autograd graph widget: its reading of torch's graph, checked against torch itself.

torch is the oracle: the nodes are the ones ``next_functions`` reaches; a saved
tensor called stale makes ``backward()`` raise torch's in-place error with the very
versions shown; one called freed makes a second ``backward()`` raise; grads shown
are the ones ``backward()`` left. Reading a graph must change nothing in it.
"""

import xml.etree.ElementTree as ET

import pytest
import torch

from anatomy_widgets import AutogradGraph
from anatomy_widgets._autograd import graph_of, values_text
from anatomy_widgets._autograd_svg import BANDS, graph_svg
from anatomy_widgets._contrast import AA, BACKGROUND, contrast_ratio

SVG = "{http://www.w3.org/2000/svg}"


def _torch_nodes(t):
    """The distinct nodes torch reaches from t.grad_fn, by class name (a multiset)."""
    seen, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        todo += [child for child, _ in node.next_functions]
    return sorted(type(n).__name__ for n in seen)


def _node(graph, name):
    (node,) = [n for n in graph.nodes if n.name == name]
    return node


def _saved(graph, node_name, saved_name):
    (saved,) = [s for s in _node(graph, node_name).saved if s.name == saved_name]
    return saved


def _pair():
    return (torch.tensor([1.0, 2.0], requires_grad=True),
            torch.tensor([3.0, 4.0], requires_grad=True))  # fmt: skip


def _scenarios():
    a, b = _pair()
    m = torch.ones(2, 3, requires_grad=True)
    w = torch.tensor([0.5, 1.5], requires_grad=True)
    return {
        "mul": (a * b).sum(),
        "exp": (a.exp() * 2).sum(),
        "matmul": (m @ torch.ones(3, 4)).sum(),
        "leaf used twice": (w * 2 + w.exp()).sum(),
        "detached": (a.detach() * b).sum(),
    }


@pytest.mark.parametrize("name", list(_scenarios()))
def test_nodes_and_edges_are_the_ones_torch_reaches(name):
    root = _scenarios()[name]
    graph = graph_of(root)
    assert sorted(n.name for n in graph.nodes) == _torch_nodes(root)
    assert graph.nodes[0].name == type(root.grad_fn).__name__ and graph.nodes[0].layer == 0
    for parent, child in graph.edges:  # every edge points down; leaves are on the bottom row
        assert graph.nodes[child].layer > graph.nodes[parent].layer
    bottom = graph.layers - 1
    assert all((n.layer == bottom) == (n.name == "AccumulateGrad") for n in graph.nodes)


def test_saved_tensors_are_the_ones_torch_unpacks():
    a, b = _pair()
    y = (a * b).exp().sum()
    graph = graph_of(y, {"a": a, "b": b})
    mul = y.grad_fn.next_functions[0][0].next_functions[0][0]
    for name, live in (("self", a), ("other", b)):
        saved = _saved(graph, "MulBackward0", name)
        assert getattr(mul, f"_saved_{name}") is live  # torch saved the leaf itself
        assert (saved.state, saved.shape, saved.dtype) == ("ok", (2,), "float32")
        assert saved.version == saved.saved_version == live._version == 0
    assert [_saved(graph, "MulBackward0", n).of for n in ("self", "other")] == ["a", "b"]
    assert _saved(graph, "ExpBackward0", "result").shape == (2,)
    assert _saved(graph, "ExpBackward0", "result").of is None  # torch saves a copy of outputs
    assert dict(_node(graph, "SumBackward0").attrs) == {"self_sym_sizes": "(2,)"}
    assert {n.leaf.name for n in graph.nodes if n.leaf} == {"a", "b"}


def test_a_slot_torch_left_empty_is_not_saved():
    m = torch.ones(2, 3, requires_grad=True)
    y = m @ torch.ones(3, 4)  # mat2 needs no grad, so self (m) is not needed: not saved
    assert y.grad_fn._saved_self is None
    assert _saved(graph_of(y), "MmBackward0", "self").state == "none"
    assert _saved(graph_of(y), "MmBackward0", "mat2").state == "ok"


def test_a_leaf_used_twice_is_one_node_with_two_parents():
    w = torch.tensor([0.5, 1.5], requires_grad=True)
    graph = graph_of((w * 2 + w.exp()).sum(), {"w": w})
    (leaf,) = [n for n in graph.nodes if n.leaf]
    assert leaf.leaf.name == "w"
    assert sorted(graph.nodes[p].name for p, c in graph.edges if c == leaf.id) == [
        "ExpBackward0", "MulBackward0"]  # fmt: skip


def test_a_detached_input_is_counted_not_drawn():
    a, b = _pair()
    graph = graph_of((a.detach() * b).sum(), {"a": a, "b": b})
    assert _node(graph, "MulBackward0").untracked == 1
    assert [n.leaf.name for n in graph.nodes if n.leaf] == ["b"]


def test_grads_shown_are_the_ones_backward_left():
    a, b = _pair()
    h = a * b
    h.retain_grad()
    loss = (h**2).sum()
    loss.retain_grad()
    before = graph_of(loss, {"a": a, "b": b, "h": h})
    assert [n.leaf.grad for n in before.nodes if n.leaf] == [None, None]
    loss.backward()
    after = graph_of(loss, {"a": a, "b": b, "h": h})
    grads = {n.leaf.name: n.leaf.grad for n in after.nodes if n.leaf}
    assert grads == {"a": values_text(a.grad), "b": values_text(b.grad)}
    assert grads["a"] == "[18, 64]"  # 2·a·b², a = [1, 2], b = [3, 4]
    made = _node(after, "MulBackward0").output
    assert (made.name, made.grad) == ("h", values_text(h.grad)) and h.grad is not None
    assert after.retained.grad == "1"


def test_backward_frees_what_torch_then_refuses_to_reuse():
    a, b = _pair()
    y = (a * b).exp().sum()
    y.backward()
    graph = graph_of(y)
    freed = graph.saved("freed")
    assert {s.name for _, s in freed} == {"self", "other", "result"} and not graph.saved("ok")
    with pytest.raises(RuntimeError) as second:
        y.backward()
    assert all(s.error == str(second.value) for _, s in freed)


def test_retain_graph_keeps_every_saved_tensor():
    a, b = _pair()
    y = (a * b).exp().sum()
    y.backward(retain_graph=True)
    assert not graph_of(y).saved("freed")
    y.backward()  # torch agrees: a second backward works


@pytest.mark.parametrize("changes", [1, 3])
def test_an_inplace_change_makes_the_saved_tensor_stale_as_torch_says(changes):
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = torch.sigmoid(x)  # SigmoidBackward0 saves its result, y
    saved_at = y._version
    with torch.no_grad():
        for _ in range(changes):
            y.mul_(2)
    graph = graph_of(y.sum())
    stale = _saved(graph, "SigmoidBackward0", "result")
    assert (stale.state, stale.saved_version, stale.version) == ("stale", saved_at, y._version)
    assert stale.mark() == f"(2,) float32, v{changes}, saved at v0 → stale"
    with pytest.raises(RuntimeError) as torch_error:
        y.sum().backward()
    assert f"is at version {changes}; expected version 0" in str(torch_error.value)
    assert stale.error == str(torch_error.value)


def test_a_changed_leaf_is_stale_too_and_reading_changes_nothing():
    a, b = _pair()
    y = (a * b).sum()
    with torch.no_grad():
        a.add_(1)  # a parameter update before backward
    graph = graph_of(y, {"a": a, "b": b})
    assert _saved(graph, "MulBackward0", "self").state == "stale"  # a, kept for b's grad
    assert _saved(graph, "MulBackward0", "other").state == "ok"
    assert "saved self (a): (2,) float32, v1, saved at v0 → stale" in graph_svg(graph)
    assert graph_of(y) == graph_of(y)  # reading again reads the same, and frees nothing
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        y.backward()


def test_a_list_of_saved_tensors_is_read_item_by_item():
    x = torch.arange(4.0, requires_grad=True)
    index = torch.tensor([0, 2])
    y = x[index]
    index.add_(1)
    stale = _saved(graph_of(y.sum()), "IndexBackward0", "indices[0]")
    assert (stale.state, stale.dtype, stale.version, stale.saved_version) == ("stale", "int64",
                                                                              1, 0)  # fmt: skip
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        y.sum().backward()


def test_a_tensor_without_a_graph_has_no_nodes():
    assert graph_of(torch.ones(2)).nodes == ()
    assert "leaf that requires grad" in graph_of(torch.ones(2, requires_grad=True)).root


def _texts_on_their_backgrounds(svg):
    root = ET.fromstring(svg)
    pairs = []
    for g in root.iter(f"{SVG}g"):
        band = g.findall(f"{SVG}rect")[1].get("fill")
        texts = g.findall(f"{SVG}text")
        pairs += [(texts[0].get("fill"), band)] + [(t.get("fill"), BACKGROUND) for t in texts[1:]]
    return pairs + [(t.get("fill"), BACKGROUND) for t in root.findall(f"{SVG}text")]


def test_the_picture_is_named_and_every_text_keeps_4_5_to_1():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = torch.sigmoid(x) * x
    with torch.no_grad():
        x.add_(1)
    svg = graph_svg(graph_of(y.sum(), {"x": x}))
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.find(f"{SVG}title").text == root.get("aria-label")
    assert "1 stale" in root.get("aria-label")
    assert "saved at v0 → stale" in svg
    pairs = _texts_on_their_backgrounds(svg)
    assert len(pairs) > 8 and all(contrast_ratio(fg, bg) >= AA for fg, bg in pairs)
    assert set(BANDS.values()) <= {bg for _, bg in pairs}


def test_widget_backward_then_again_shows_torchs_error_instead_of_the_drawing():
    a, b = _pair()
    widget = AutogradGraph((a * b).exp().sum(), names={"a": a, "b": b})
    assert 'data-state="ok"' in widget.svg and widget.error is None
    widget.backward_button.click()
    assert widget.error is None and 'data-state="freed"' in widget.svg
    assert "freed by backward()" in widget.svg and f"grad: {values_text(a.grad)}" in widget.svg
    widget.backward_button.click()
    assert "backward through the graph a second time" in widget.error
    assert widget.svg == "" and "<svg" not in widget.drawing.value
    assert "backward() raised RuntimeError" in widget.drawing.value
    assert "ta-error" in widget.drawing.value
    widget.refresh_button.click()
    assert widget.error is None and 'data-state="freed"' in widget.svg


def test_widget_retain_graph_lets_backward_run_twice():
    a, b = _pair()
    widget = AutogradGraph((a * b).sum())
    widget.retain_box.value = True
    widget.backward_button.click()
    widget.backward_button.click()
    assert widget.error is None and torch.equal(a.grad, 2 * b.detach())
    assert 'data-state="freed"' not in widget.svg


def test_widget_static_fallback_is_deterministic_and_names_its_controls():
    def build():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        return AutogradGraph(torch.sigmoid(x).sum(), names={"x": x})

    first, second = build(), build()
    bundle = first._repr_mimebundle_()
    assert bundle["text/plain"] == repr(second) and first.static_html() == second.static_html()
    assert "0x" not in bundle["text/plain"] + bundle["text/html"]
    assert repr(first).startswith("AutogradGraph(autograd graph of () float32")
    names = [c.description for c in (first.refresh_button, first.backward_button,
                                     first.retain_box)]  # fmt: skip
    assert names == ["Refresh", "backward()", "retain_graph"]


def test_an_edge_skipping_a_row_runs_beside_its_boxes_not_behind_them():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    w = torch.tensor([2.0, -1.0], requires_grad=True)
    root = ET.fromstring(graph_svg(graph_of((torch.sigmoid(x * w) * x.exp()).sum())))
    boxes = [[int(r.get(k)) for k in ("x", "y", "width", "height")]
             for g in root.iter(f"{SVG}g") for r in g.findall(f"{SVG}rect")[:1]]  # fmt: skip
    bent = [p for p in root.iter(f"{SVG}polyline") if p.get("points").count(" ") > 1]
    assert bent  # ExpBackward0 (row 2) -> x (row 4) passes row 3
    for line in bent:
        inner = [tuple(map(int, p.split(","))) for p in line.get("points").split()[1:-1]]
        assert not [(px, py) for px, py in inner for x0, y0, bw, bh in boxes
                    if x0 <= px <= x0 + bw and y0 < py < y0 + bh]  # fmt: skip


class _Scale(torch.autograd.Function):
    """A custom Function saving an input and its own output."""

    @staticmethod
    def forward(ctx, x, w):
        out = x * w
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return grad * out / x, grad * x


def test_a_custom_functions_saved_tensors_are_read_one_by_one():
    h = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    y = _Scale.apply(h, torch.tensor([3.0, 4.0], requires_grad=True))
    node = _node(graph_of(y.sum()), "_ScaleBackward")
    assert [(s.name, s.state) for s in node.saved] == [("tensors[0]", "ok"), ("tensors[1]", "ok")]
    with torch.no_grad():
        y.add_(1)  # only the output: torch checks it with the input, which is as saved
    stale = _node(graph_of(y.sum()), "_ScaleBackward").saved
    assert [s.state for s in stale] == ["ok", "stale"] and stale[1].saved_version == 0
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        y.sum().backward()


def test_a_custom_functions_output_checked_with_a_stale_input_is_not_guessed():
    h = torch.tensor([1.0, 2.0], requires_grad=True) * 1
    y = _Scale.apply(h, torch.tensor([3.0, 4.0], requires_grad=True))
    with torch.no_grad():
        h.add_(1)  # the input is stale; the output is not, but torch checks both at once
    saved = _node(graph_of(y.sum()), "_ScaleBackward").saved
    assert [s.state for s in saved] == ["stale", "unreadable"]
    assert "state unknown" in saved[1].mark()


def test_a_custom_function_and_a_list_after_backward_are_freed():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = _Scale.apply(x * 1, x)[torch.tensor([0, 2])]
    y.sum().backward()
    graph = graph_of(y.sum())
    assert {(n.name, s.name) for n, s in graph.saved("freed")} == {
        ("_ScaleBackward", "tensors"),
        ("IndexBackward0", "indices"),
        ("MulBackward0", "other"),
    }
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


def test_a_long_chain_is_laid_out_in_linear_time():
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0001
    graph = graph_of(y)
    assert graph.layers == 3001 and graph.nodes[-1].layer == 3000


def test_widget_shows_why_a_non_scalar_root_cannot_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    widget = AutogradGraph(x * 2)
    widget.backward()
    with pytest.raises(RuntimeError) as torch_error:
        (x * 2).backward()
    assert widget.error == f"RuntimeError: {torch_error.value}"
    assert "grad can be implicitly created only for scalar outputs" in widget.error
    assert x.grad is None and repr(widget).endswith(widget.error)
