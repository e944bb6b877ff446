"""Hidden checks for chapter 1, storage and strides.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons themselves live in ``grader.checks.storage_strides``
(shared with the public ``check``); here we only choose the inputs.

In ``@given`` tests the ``student`` fixture is keyword-only: hypothesis takes a
test's first positional parameter for ``self`` and looks up attributes on it
(a mock marker, ``execute_example``...), which must never reach the student.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks import storage_strides as ch
from grader.checks._finite_answers import torch_view_or_copy
from grader.checks._registry import registered
from grader.givens.storage_strides import OPERATIONS
from grader.hidden import strategies as gs
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden._variant_items import only_yours
from grader.hidden.oracles import truth_for
from grader.hidden.storage_strides import strategies as ss

# Each call of a student's function may be a round trip to another process:
# examples per test keep the whole file near 1,200 calls for a right answer.
FEW, SOME = 40, 75


def _two_dim(**flags):
    return gs.layouts(gs.shapes(min_dims=2, max_dims=2, min_size=1, max_size=5), **flags)


def _one_dim(max_size=12, **flags):
    return gs.layouts(gs.shapes(min_dims=1, max_dims=1, min_size=1, max_size=max_size), **flags)


@st.composite
def _with_reshape(draw, specs):
    """(shape, stride, new_shape) from (shape, stride, offset) specs; the offset is irrelevant."""
    shape, stride, _ = draw(specs)
    return shape, stride, draw(gs.reshapes(shape))


def _has_offset(t):
    return t.storage_offset() > 0


def _has_zero_stride(t):
    return 0 in t.stride()


def _is_stepped(t):
    return t.stride(0) > 1


def _is_not_contiguous(t):
    return not t.is_contiguous()


@st.composite
def _windows(draw, tensors, sizes=None, steps=None):
    """(x, size, step) with 1 <= size <= len(x) and step >= 1."""
    x = draw(tensors)
    n = len(x)
    size = draw(sizes(n) if sizes else st.integers(1, n))
    step = draw(steps(n) if steps else st.integers(1, n + 1))
    return x, size, step


# --- all but view_or_copy: the examples that check() tries ---------------------------



@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, student):
    """agrees with torch on every example that check() tries"""
    entry = registered()[name]
    fn = getattr(student, name)
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


# --- 1. contiguous_strides ------------------------------------------------------------


@pytest.mark.exercise("contiguous_strides")
@settings(max_examples=FEW)
@given(shape=gs.shapes(min_dims=1, min_size=2, max_size=5))
def test_contiguous_strides_plain(shape, *, student):
    """agrees with torch on shapes of 1 to 4 dimensions, all of size 2 or more"""
    ch.compare_contiguous_strides(student.contiguous_strides, shape)


@pytest.mark.exercise("contiguous_strides")
@settings(max_examples=FEW)
@given(shape=gs.shapes(min_size=1, max_size=3))
def test_contiguous_strides_size_one(shape, *, student):
    """agrees with torch on scalars (shape ()) and shapes with size-1 dimensions"""
    ch.compare_contiguous_strides(student.contiguous_strides, shape)


@pytest.mark.exercise("contiguous_strides")
@settings(max_examples=FEW)
@given(shape=gs.with_zero_size())
def test_contiguous_strides_zero_size(shape, *, student):
    """agrees with torch on shapes with zero-size dimensions"""
    ch.compare_contiguous_strides(student.contiguous_strides, shape)


# --- 2. storage_position --------------------------------------------------------------


@st.composite
def _positions(draw, tensors, negative=False):
    """(index, shape, stride, offset) for in-range indices into tensors' layouts."""
    shape, stride, offset = gs.layout_of(draw(tensors))
    return draw(gs.indices(shape, negative)), shape, stride, offset


_NONEMPTY = gs.shapes(min_size=1)
_STRIDED = gs.layouts(_NONEMPTY, permute=True, step=True, offset=True, expand=True)


@pytest.mark.exercise("storage_position")
@settings(max_examples=FEW)
@given(case=_positions(gs.layouts(_NONEMPTY)))
def test_storage_position_contiguous(case, *, student):
    """finds elements of contiguous tensors, scalars included"""
    ch.compare_storage_position(student.storage_position, *case)


@pytest.mark.exercise("storage_position")
@settings(max_examples=SOME)
@given(case=_positions(_STRIDED))
def test_storage_position_strided(case, *, student):
    """finds elements of permuted, step-sliced, offset and broadcast (stride 0) tensors"""
    ch.compare_storage_position(student.storage_position, *case)


@pytest.mark.exercise("storage_position")
@settings(max_examples=FEW)
@given(case=_positions(gs.layouts(gs.shapes(min_dims=1, min_size=1), step=True), negative=True))
def test_storage_position_negative(case, *, student):
    """counts negative indices from the end of their dimension, like torch"""
    ch.compare_storage_position(student.storage_position, *case)


@st.composite
def _out_of_range(draw):
    shape, stride, offset = draw(gs.strided_specs(gs.shapes(min_dims=1)))
    return draw(gs.out_of_range_indices(shape)), shape, stride, offset


@pytest.mark.exercise("storage_position")
@settings(max_examples=FEW)
@given(case=_out_of_range())
def test_storage_position_out_of_range(case, *, student):
    """raises IndexError for indices out of range (zero-size dimensions included), like torch"""
    ch.compare_storage_position(student.storage_position, *case)


# --- 3. view_or_copy: one test per answer -----------------------------------------------


@pytest.mark.exercise("view_or_copy")
@pytest.mark.parametrize("operation", OPERATIONS)
def test_view_or_copy(operation, *, student, variant):
    """says correctly whether this operation returns a view of x or a copy"""
    only_yours(variant, "view_or_copy", operation, OPERATIONS, student.view_or_copy)
    ch.compare_view_or_copy(student.view_or_copy, operation, torch_view_or_copy(operation))


# --- 4. diagonal_view -----------------------------------------------------------------


@pytest.mark.exercise("diagonal_view")
@settings(max_examples=FEW)
@given(x=_two_dim())
def test_diagonal_view_contiguous(x, *, student):
    """matches torch.diagonal, as a view, on contiguous matrices, square or not"""
    ch.compare_diagonal_view(student.diagonal_view, x)


@pytest.mark.exercise("diagonal_view")
@settings(max_examples=FEW)
@given(x=st.one_of(gs.transposed(_two_dim()), _two_dim(permute=True, step=True)))
def test_diagonal_view_transposed_stepped(x, *, student):
    """matches torch.diagonal, as a view, on transposed and step-sliced matrices"""
    ch.compare_diagonal_view(student.diagonal_view, x)


@pytest.mark.exercise("diagonal_view")
@settings(max_examples=FEW)
@given(x=_two_dim(step=True, offset=True).filter(_has_offset))
def test_diagonal_view_offset(x, *, student):
    """matches torch.diagonal, as a view, on matrices that start inside their storage"""
    ch.compare_diagonal_view(student.diagonal_view, x)


@pytest.mark.exercise("diagonal_view")
@settings(max_examples=FEW)
@given(x=_two_dim(permute=True, offset=True, expand=True).filter(_has_zero_stride))
def test_diagonal_view_broadcast(x, *, student):
    """matches torch.diagonal, as a view, on broadcast matrices (a stride of 0)"""
    ch.compare_diagonal_view(student.diagonal_view, x)


_EMPTY_2D = gs.with_zero_size(gs.shapes(min_dims=2, max_dims=2))


@pytest.mark.exercise("diagonal_view")
@settings(max_examples=FEW)
@given(x=gs.layouts(_EMPTY_2D, permute=True, step=True, offset=True, expand=True))
def test_diagonal_view_zero_size(x, *, student):
    """matches torch.diagonal, as a view, on matrices with no rows or no columns"""
    ch.compare_diagonal_view(student.diagonal_view, x)


# --- 5. sliding_windows ---------------------------------------------------------------


@pytest.mark.exercise("sliding_windows")
@settings(max_examples=FEW)
@given(case=_windows(_one_dim()))
def test_sliding_windows_contiguous(case, *, student):
    """matches x.unfold(0, size, step), as a view, on contiguous 1-D tensors"""
    ch.compare_sliding_windows(student.sliding_windows, *case)


@pytest.mark.exercise("sliding_windows")
@settings(max_examples=FEW)
@given(case=_windows(_one_dim(step=True, offset=True).filter(_is_stepped)))
def test_sliding_windows_strided(case, *, student):
    """matches x.unfold(0, size, step), as a view, on step-sliced 1-D tensors with an offset"""
    ch.compare_sliding_windows(student.sliding_windows, *case)


@pytest.mark.exercise("sliding_windows")
@settings(max_examples=FEW)
@given(case=_windows(_one_dim(offset=True, expand=True).filter(_has_zero_stride)))
def test_sliding_windows_broadcast(case, *, student):
    """matches x.unfold(0, size, step), as a view, on a broadcast 1-D tensor (stride 0)"""
    ch.compare_sliding_windows(student.sliding_windows, *case)


def _edge_sizes(n):
    return st.sampled_from(sorted({1, n}))


def _edge_steps(n):
    return st.sampled_from(sorted({1, n, n + 1, n + 5}))


@pytest.mark.exercise("sliding_windows")
@settings(max_examples=FEW)
@given(case=_windows(_one_dim(step=True, offset=True), _edge_sizes, _edge_steps))
def test_sliding_windows_edges(case, *, student):
    """matches x.unfold(0, size, step) when a window is one element or the whole tensor"""
    ch.compare_sliding_windows(student.sliding_windows, *case)


# --- 6. can_view ----------------------------------------------------------------------


def _layout_reshapes(shape=None, **flags):
    """(shape, stride, new_shape) for non-contiguous layouts (contiguous ones always view)."""
    tensors = gs.layouts(shape, **flags).filter(_is_not_contiguous)
    return _with_reshape(gs.layout_specs(tensors))


@pytest.mark.exercise("can_view")
@settings(max_examples=SOME)
@given(case=st.one_of(_layout_reshapes(permute=True), _layout_reshapes(permute=True, step=True)))
def test_can_view_permuted(case, *, student):
    """agrees with torch on permuted and transposed tensors"""
    ch.compare_can_view(student.can_view, *case)


@pytest.mark.exercise("can_view")
@settings(max_examples=SOME)
@given(case=_layout_reshapes(gs.shapes(min_dims=2, min_size=1), step=True, offset=True))
def test_can_view_sliced(case, *, student):
    """agrees with torch on tensors sliced with steps or starting inside their storage"""
    ch.compare_can_view(student.can_view, *case)


@pytest.mark.exercise("can_view")
@settings(max_examples=SOME)
@given(case=_layout_reshapes(gs.shapes(min_dims=2, min_size=1), permute=True, expand=True))
def test_can_view_broadcast(case, *, student):
    """agrees with torch on broadcast tensors (strides of 0)"""
    ch.compare_can_view(student.can_view, *case)


@st.composite
def _unit_dims_inserted(draw):
    """(shape, stride, new_shape): a real layout, then size-1 dims with arbitrary strides
    inserted; new_shape is a reshape of the layout before the insertion."""
    sizes = gs.shapes(min_dims=1, min_size=2)
    t = draw(st.one_of(gs.layouts(sizes), gs.layouts(sizes, permute=True, step=True)))
    shape, stride, _ = gs.layout_of(t)
    new_shape = draw(gs.reshapes(shape))
    for _ in range(draw(st.integers(1, 2))):
        d = draw(st.integers(0, len(shape)))
        shape = (*shape[:d], 1, *shape[d:])
        stride = (*stride[:d], draw(st.integers(0, 20)), *stride[d:])
    return shape, stride, new_shape


@pytest.mark.exercise("can_view")
@settings(max_examples=SOME)
@given(case=st.one_of(_unit_dims_inserted(), _with_reshape(gs.strided_specs())))
def test_can_view_size_one(case, *, student):
    """agrees with torch when size-1 dimensions, or all dimensions, have arbitrary strides"""
    ch.compare_can_view(student.can_view, *case)


@pytest.mark.exercise("can_view")
@settings(max_examples=FEW)
@given(case=_with_reshape(gs.strided_specs(gs.with_zero_size())))
def test_can_view_zero_size(case, *, student):
    """agrees with torch on tensors with zero-size dimensions"""
    ch.compare_can_view(student.can_view, *case)


# --- 7. strided_sum ------------------------------------------------------------------


def _sums(shape=ss.SMALL_SHAPES, **flags):
    return ss.strided_sums(gs.layouts(shape, **flags))


@pytest.mark.exercise("strided_sum")
@settings(max_examples=FEW)
@given(case=_sums())
def test_strided_sum_contiguous(case, *, student):
    """agrees with torch on contiguous tensors of 1 to 3 dimensions, over any dim"""
    ch.compare_strided_sum(student.strided_sum, *case)


@pytest.mark.exercise("strided_sum")
@settings(max_examples=FEW)
@given(case=ss.strided_sums(gs.layouts(ss.SMALL_SHAPES, permute=True, step=True)
                            .filter(_is_not_contiguous)))
def test_strided_sum_permuted(case, *, student):
    """agrees with torch on permuted (transposed) and step-sliced tensors"""
    ch.compare_strided_sum(student.strided_sum, *case)


@pytest.mark.exercise("strided_sum")
@settings(max_examples=FEW)
@given(case=_sums(step=True, offset=True).filter(lambda case: case[3] > 0))
def test_strided_sum_offset(case, *, student):
    """agrees with torch on tensors that start inside their storage (an offset)"""
    ch.compare_strided_sum(student.strided_sum, *case)


@pytest.mark.exercise("strided_sum")
@settings(max_examples=FEW)
@given(case=st.one_of(
    ss.strided_sums(gs.layouts(ss.SMALL_SHAPES, permute=True, offset=True, expand=True)
                    .filter(_has_zero_stride)),
    ss.strided_sums(specs=gs.strided_specs(ss.SMALL_SHAPES, max_stride=4))))
def test_strided_sum_broadcast_overlapping(case, *, student):
    """agrees with torch on broadcast tensors (stride 0) and layouts whose elements overlap"""
    ch.compare_strided_sum(student.strided_sum, *case)


@pytest.mark.exercise("strided_sum")
@settings(max_examples=FEW)
@given(case=_sums(shape=gs.with_zero_size(ss.SMALL_SHAPES), permute=True, step=True,
                  offset=True, expand=True))
def test_strided_sum_zero_size(case, *, student):
    """agrees with torch on tensors with a zero-size dimension (a sum of nothing is 0)"""
    ch.compare_strided_sum(student.strided_sum, *case)
