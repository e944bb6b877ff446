"""The broadcasting widget: its pure logic against torch, and its state without a browser.

torch is the oracle: ``torch.broadcast_shapes`` for the result and its error,
``torch.broadcast_tensors`` for the message ``a + b`` gives, ``broadcast_to``
for the strides of the stretched views and for the example's values.
"""

import math
import xml.etree.ElementTree as ET

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from support.svg_text import labelled_boxes, text_pairs

from anatomy_widgets import Broadcast
from anatomy_widgets._broadcast import (
    BroadcastError,
    align,
    broadcast_shapes,
    broadcast_values,
    expand_strides,
)
from anatomy_widgets._broadcast_svg import ROLE_WORDS
from anatomy_widgets._broadcast_widget import example_lines
from anatomy_widgets._contrast import AA, contrast_ratio
from anatomy_widgets._labels import MIN_FONT, PAD, text_width
from grader.hidden.strategies import layouts, shapes

SVG = "{http://www.w3.org/2000/svg}"


@st.composite
def shape_sets(draw, count=None):
    """2-3 shapes cut from one result shape: dims dropped on the left, set to 1, or
    (sometimes) changed to a size that may clash; zero-size dims included."""
    result = draw(shapes(max_dims=4, max_numel=48))
    out = []
    for _ in range(count or draw(st.integers(2, 3))):
        shape = list(result[len(result) - draw(st.integers(0, len(result))) :])
        for d in range(len(shape)):
            if draw(st.integers(0, 2)) == 0:
                shape[d] = 1
        if shape and draw(st.integers(0, 3)) == 0:
            shape[draw(st.integers(0, len(shape) - 1))] = draw(st.integers(0, 4))
        out.append(tuple([1] * draw(st.integers(0, 1)) + shape))
    return out


def torch_outcome(shapes_):
    """torch's result shape, or its two error messages (broadcast_shapes, a + b)."""
    try:
        return tuple(torch.broadcast_shapes(*shapes_)), None, None
    except RuntimeError as e:
        shapes_error = str(e)
    with pytest.raises(RuntimeError) as operator_error:
        torch.broadcast_tensors(*[torch.empty(s) for s in shapes_])
    return None, shapes_error, str(operator_error.value)


def drawn_roles(svg: str) -> dict[tuple[str, int], str]:
    root = ET.fromstring(svg)
    return {
        (g.get("data-operand"), int(g.get("data-dim"))): g.get("data-role")
        for g in root.iter(f"{SVG}g")
        if g.get("data-role")
    }


# --- pure logic against torch ----------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(shape_sets())
def test_the_result_or_both_of_torchs_messages(shapes_):
    result, shapes_error, operator_error = torch_outcome(shapes_)
    if result is not None:
        assert broadcast_shapes(*shapes_) == result
    else:
        with pytest.raises(BroadcastError) as e:
            broadcast_shapes(*shapes_)
        assert str(e.value) == shapes_error
        assert e.value.operator_message == operator_error


def test_the_strategy_draws_both_outcomes():
    # Guard against a strategy that never clashes (or always does): then the test above
    # would only check half of the logic.
    outcomes = set()

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(shape_sets())
    def collect(shapes_):
        outcomes.add(torch_outcome(shapes_)[0] is None)

    collect()
    assert outcomes == {True, False}


@settings(max_examples=200, deadline=None)
@given(shape_sets())
def test_alignment_marks_stretched_dims_and_clashes_as_torch_sees_them(shapes_):
    alignment = align(*shapes_)
    result, _, _ = torch_outcome(shapes_)
    if result is not None:
        assert alignment.result == result and alignment.clash_dims == ()
        for shape, roles in zip(shapes_, alignment.roles):
            operand = torch.empty(shape)
            strides = torch.broadcast_to(operand, result).stride()
            own = (None,) * (len(result) - len(shape)) + operand.stride()
            for d, (role, size) in enumerate(zip(roles, result)):
                if size > 1:  # only there does stretching show up as a 0 stride
                    assert (role in ("stretched", "new")) == (strides[d] == 0)
                # "kept": the operand already has the result's size there, and its stride
                assert (role == "kept") == (own[d] is not None and shape[d - len(result)] == size)
                if role == "kept":
                    assert strides[d] == own[d]
    else:
        assert alignment.clash_dims
        ndim = len(alignment.result)
        # Setting every clashing dim to 1 must be all it takes for torch to agree.
        fixed = [
            tuple(1 if d - ndim in alignment.clash_dims else n
                  for d, n in enumerate((1,) * (ndim - len(s)) + tuple(s)))
            for s in shapes_
        ]  # fmt: skip
        torch.broadcast_shapes(*fixed)


@st.composite
def expansions(draw):
    """A tensor with a real torch layout and a shape it expands to."""
    t = draw(layouts(shapes(max_dims=3), permute=True, step=True, offset=True, expand=True))
    target = [draw(st.integers(0, 3)) if n == 1 else n for n in t.shape]
    leading = draw(st.lists(st.integers(0, 3), max_size=2))
    return t, tuple(leading + target)


@settings(max_examples=200, deadline=None)
@given(expansions())
def test_expand_strides_are_torchs_with_zero_where_a_dim_is_stretched(case):
    t, target = case
    expected = torch.broadcast_to(t, target).stride()
    assert expand_strides(tuple(t.shape), t.stride(), target) == expected


@settings(max_examples=150, deadline=None)
@given(expansions())
def test_broadcast_values_are_torchs(case):
    t, target = case
    values = list(range(100, 100 + t.numel()))
    operand = torch.tensor(values, dtype=torch.int64).view(t.shape)
    expected = torch.broadcast_to(operand, target).tolist()
    assert broadcast_values(values, tuple(t.shape), target) == expected


@settings(max_examples=60, deadline=None)
@given(shape_sets())
def test_the_worked_example_adds_up_as_torch_does(shapes_):
    lines = example_lines(shapes_)
    result, _, _ = torch_outcome(shapes_)
    if result is None:
        assert lines == []
    elif math.prod(result) <= 64:
        tensors = [torch.arange(math.prod(s)).view(s) * 10**k for k, s in enumerate(shapes_)]
        total = sum(torch.broadcast_tensors(*tensors))
        names = " + ".join("abc"[: len(shapes_)])
        assert lines[-1] == f"{names} = {total.tolist()}"


# --- the widget's state and callbacks ----------------------------------------------------


def test_default_widget_shows_a_column_and_a_row_becoming_a_grid():
    widget = Broadcast()
    assert repr(widget) == "Broadcast((3, 1), (4,)) -> (3, 4)"
    roles = drawn_roles(widget.svg)
    assert roles[("a", -1)] == "stretched" and roles[("a", -2)] == "kept"
    assert roles[("b", -2)] == "new" and roles[("b", -1)] == "kept"
    assert roles[("result", -2)] == roles[("result", -1)] == "result"
    assert "a.expand(3, 4): stride (1, 0)" in widget.static_html()


def test_typing_a_clashing_shape_shows_torchs_reason():
    widget = Broadcast((3,), (3,))
    widget.boxes[1].value = "4"
    _, shapes_error, operator_error = torch_outcome([(3,), (4,)])
    assert widget.result is None
    assert widget.error == operator_error
    assert repr(widget) == f"Broadcast((3,), (4,)): {operator_error}"
    html = widget.static_html()
    assert "does not broadcast: in dim -1, a has 3, b has 4" in html
    assert shapes_error.replace("'", "&#x27;") in html
    assert drawn_roles(widget.svg)[("result", -1)] == "unknown"
    widget.boxes[1].value = "1"
    assert widget.result == (3,) and widget.error is None


@settings(max_examples=40, deadline=None)
@given(shape_sets())
def test_the_drawing_follows_typed_shapes(shapes_):
    widget = Broadcast((1,), (1,))
    widget.set_shapes(*shapes_)
    assert widget.shapes == [tuple(s) for s in shapes_]
    result, _, operator_error = torch_outcome(shapes_)
    assert widget.result == result and widget.error == operator_error
    roles = drawn_roles(widget.svg)
    ndim = max(len(s) for s in shapes_)
    for name, shape in zip("abc", shapes_):
        assert {d for (n, d) in roles if n == name} == set(range(-ndim, 0))
        if result is not None:
            strides = torch.broadcast_to(torch.empty(shape), result).stride()
            for d, size in enumerate(result):
                if size > 1:
                    stretched = roles[(name, d - len(result))] in ("stretched", "new")
                    assert stretched == (strides[d] == 0)


def test_a_third_shape_can_be_added_and_removed():
    widget = Broadcast((3, 1), (4,))
    widget.boxes[2].value = "2, 1, 1"
    assert widget.result == (2, 3, 4)
    assert ("c", -3) in drawn_roles(widget.svg)
    widget.boxes[2].value = ""
    assert widget.result == (3, 4) and len(widget.shapes) == 2


def test_example_values_appear_when_asked_for():
    widget = Broadcast((3, 1), (4,))
    assert "a + b =" not in widget.static_html()
    widget.values_box.value = True
    expected = (torch.arange(3).view(3, 1) + torch.arange(4) * 10).tolist()
    assert f"a + b = {expected}" in widget.static_html()


def test_tensors_bring_their_own_strides_to_the_expand_link():
    a = torch.arange(12).view(3, 4).t()[:, :1]  # shape (4, 1), stride (1, 4)
    b = torch.arange(5)
    widget = Broadcast(a, b)
    expected = torch.broadcast_to(a, (4, 5)).stride()
    assert f"a.expand(4, 5): stride {expected}" in widget.static_html()


def test_unreadable_text_is_explained_not_raised():
    widget = Broadcast((3, 1), (4,))
    widget.boxes[0].value = "3, one"
    assert "a shape" in widget.error
    widget.boxes[0].value = "3, -1"
    assert "non-negative" in widget.error
    widget.boxes[0].value = "3, 1"
    assert widget.error is None


def test_outside_a_kernel_the_output_is_a_picture_and_a_line_of_text():
    bundle = Broadcast((3, 1), (4,))._repr_mimebundle_()
    assert bundle["text/plain"] == "Broadcast((3, 1), (4,)) -> (3, 4)"
    assert bundle["text/html"].startswith('<div class="ta-static"><img alt="Broadcast(')
    assert Broadcast((3, 1), (4,)).static_html() == bundle["text/html"]


# --- issue 20, item 7: what a tester found in a real browser ---------------------------------

BIG = st.lists(st.sampled_from([1, 2, 3, 7, 1000, 123456, 10**9]), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(BIG, min_size=2, max_size=3))
def test_every_box_label_fits_its_box_and_says_its_role(shapes_):
    svg = Broadcast(*shapes_).svg
    for g, rect, text in labelled_boxes(svg):
        font, width = int(text.get("font-size")), int(rect.get("width"))
        assert font >= MIN_FONT and text_width(text.text, font) <= width - 2 * PAD, text.text
        assert ROLE_WORDS[g.get("data-role")] in g.find(f"{SVG}title").text


def test_a_new_dim_stretched_to_1000_fits_at_full_size():
    svg = Broadcast((7,), (1000, 1)).svg
    (box,) = [b for b in labelled_boxes(svg) if b[0].get("data-operand") == "a"
              and b[0].get("data-dim") == "-2"]  # fmt: skip
    g, rect, text = box
    assert text.text == "(1)→1000" and text.get("font-size") == "12"
    assert text_width("(1)→1000", 12) <= int(rect.get("width")) - 2 * PAD


@settings(max_examples=40, deadline=None)
@given(st.lists(BIG, min_size=2, max_size=3))
def test_every_text_in_the_picture_keeps_aa_contrast(shapes_):
    for text, fg, bg in text_pairs(Broadcast(*shapes_).svg):
        assert contrast_ratio(fg, bg) >= AA, (text, fg, bg)


def test_unreadable_text_replaces_the_drawing_with_the_error():
    widget = Broadcast((3, 1), (4,))
    widget.boxes[1].value = "4, x"
    assert widget.svg == "" and "<svg" not in widget.drawing.value
    assert "ta-error" in widget.drawing.value and "<img" not in widget.static_html()
    widget.boxes[1].value = "4"
    assert widget.svg.startswith("<svg") and "ta-error" not in widget.drawing.value


def test_the_picture_and_the_controls_have_names():
    widget = Broadcast((3, 1), (4,))
    root = ET.fromstring(widget.svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == "broadcasting: a  (3, 1); b  (4,); result  (3, 4)"
    assert all(c.description and c.tooltip for c in (*widget.boxes, widget.values_box))
