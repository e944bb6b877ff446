"""Hidden checks for chapter 2, creating tensors.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons themselves live in ``grader.checks.creating_tensors``
(shared with the public ``check``); here we only choose the inputs.

In ``@given`` tests the ``student`` fixture is keyword-only: hypothesis takes a
test's first positional parameter for ``self`` and looks up attributes on it
(a mock marker, ``execute_example``...), which must never reach the student.

The truth of seeded_init is the exercise's own algorithm, never shipped: here it
comes from ``grader.hidden.creating_tensors.oracles`` (``truth=``), on every
input drawn.
"""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks import creating_tensors as ch
from grader.checks._finite_answers import torch_factory_result
from grader.checks._registry import registered
from grader.givens.creating_tensors import EXPRESSIONS
from grader.hidden import strategies as gs
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden._variant_items import only_yours
from grader.hidden.creating_tensors import oracles as oracle
from grader.hidden.creating_tensors import strategies as cs
from grader.hidden.oracles import truth_for

# Each call of a student's function may be a round trip to another process:
# examples per test keep the whole file near 800 calls for a right answer.
FEW, SOME = 30, 40


# --- all but factory_results: the examples that check() tries --------------------------



# factory_results' examples are its per-expression tests below.
@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, student):
    """agrees with torch on every example that check() tries"""
    entry = registered()[name]
    fn = getattr(student, name)
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


# --- 1. infer_dtype -------------------------------------------------------------------


@pytest.mark.exercise("infer_dtype")
@settings(max_examples=SOME)
@given(data=st.one_of(cs.nested_data(one_kind=True),
                      cs.nested_data(gs.shapes(max_dims=0), one_kind=True)))
def test_infer_dtype_one_kind(data, *, student):
    """agrees with torch on single numbers and on data whose numbers are all of one kind"""
    ch.compare_infer_dtype(student.infer_dtype, data)


@pytest.mark.exercise("infer_dtype")
@settings(max_examples=SOME)
@given(data=st.one_of(cs.nested_data(kinds=("bool", "int")),
                      cs.nested_data(kinds=("bool", "float")),
                      cs.nested_data(kinds=("int", "float")),
                      cs.nested_data()))
def test_infer_dtype_mixed(data, *, student):
    """agrees with torch on nested lists and tuples mixing bools, ints and floats"""
    ch.compare_infer_dtype(student.infer_dtype, data)


@pytest.mark.exercise("infer_dtype")
@settings(max_examples=FEW)
@given(data=cs.nested_data(gs.with_zero_size(gs.shapes(min_dims=1, max_dims=3, max_size=3))))
def test_infer_dtype_empty(data, *, student):
    """agrees with torch on empty lists, nested or not (no numbers at all)"""
    ch.compare_infer_dtype(student.infer_dtype, data)


@pytest.mark.exercise("infer_dtype")
@settings(max_examples=FEW)
@given(data=cs.ragged_lengths())
def test_infer_dtype_ragged_lengths(data, *, student):
    """raises what torch raises when lists at the same depth differ in length"""
    ch.compare_infer_dtype(student.infer_dtype, data)


@pytest.mark.exercise("infer_dtype")
@settings(max_examples=FEW)
@given(data=cs.ragged_depths())
def test_infer_dtype_ragged_depths(data, *, student):
    """raises what torch raises when a number stands where a list should, or the reverse"""
    ch.compare_infer_dtype(student.infer_dtype, data)


# --- 2. factory_results: one test per expression ----------------------------------------


@pytest.mark.exercise("factory_results")
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_factory_results(expression, *, student, variant):
    """gives the right dtype and shape for this expression"""
    only_yours(variant, "factory_results", expression, EXPRESSIONS, student.factory_results)
    ch.compare_factory_results(student.factory_results, expression,
                               torch_factory_result(expression))


# --- 3. share_or_copy -----------------------------------------------------------------


@pytest.mark.exercise("share_or_copy")
@settings(max_examples=SOME)
@given(case=cs.numpy_views(cs.positive_steps))
def test_share_or_copy_shares(case, *, student):
    """shares memory with arrays that are transposed, stepped or broadcast (all strides >= 0)"""
    ch.compare_share_or_copy(student.share_or_copy, *case)


@pytest.mark.exercise("share_or_copy")
@settings(max_examples=FEW)
@given(case=cs.numpy_views(cs.reversing_steps, cs.has_reversible_dim))
def test_share_or_copy_reversed(case, *, student):
    """copies, with the right values, arrays with a reversed dimension (a negative stride)"""
    ch.compare_share_or_copy(student.share_or_copy, *case)


@pytest.mark.exercise("share_or_copy")
@settings(max_examples=FEW)
@given(case=cs.numpy_views(cs.size_one_flips, cs.has_single_dim))
def test_share_or_copy_reversed_size_one(case, *, student):
    """copies arrays whose only reversed dimensions have size 1, as torch refuses them too"""
    ch.compare_share_or_copy(student.share_or_copy, *case)


@pytest.mark.exercise("share_or_copy")
@settings(max_examples=FEW)
@given(case=cs.numpy_views(cs.positive_steps, readonly=True))
def test_share_or_copy_readonly(case, *, student):
    """copies read-only arrays instead of sharing them"""
    ch.compare_share_or_copy(student.share_or_copy, *case)


@pytest.mark.exercise("share_or_copy")
@settings(max_examples=SOME)
@given(case=cs.numpy_views(cs.any_steps, readonly=st.booleans(), dtypes=cs.NUMPY_DTYPES))
def test_share_or_copy_any(case, *, student):
    """agrees with torch.from_numpy on every dtype, any steps, broadcast dimensions included"""
    ch.compare_share_or_copy(student.share_or_copy, *case)


# --- 4. seeded_init -------------------------------------------------------------------

_FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)


@pytest.mark.exercise("seeded_init")
@settings(max_examples=FEW)
@given(shapes=cs.parameter_shapes(max_count=1), seed=st.integers(0, 2**31 - 1))
def test_seeded_init_one(shapes, seed, *, student):
    """draws torch's values for one float32 parameter (scalars and empty shapes included)"""
    ch.compare_seeded_init(student.seeded_init, shapes, seed, torch.float32,
                           truth=oracle.torch_seeded_init(shapes, seed, torch.float32))


@pytest.mark.exercise("seeded_init")
@settings(max_examples=FEW)
@given(shapes=cs.parameter_shapes(min_count=2), seed=st.integers(0, 2**31 - 1))
def test_seeded_init_several(shapes, seed, *, student):
    """draws several float32 parameters one after another from one generator"""
    ch.compare_seeded_init(student.seeded_init, shapes, seed, torch.float32,
                           truth=oracle.torch_seeded_init(shapes, seed, torch.float32))


@pytest.mark.exercise("seeded_init")
@settings(max_examples=FEW)
@given(shapes=cs.parameter_shapes(), seed=st.integers(0, 2**31 - 1),
       dtype=st.sampled_from(_FLOATS[1:]))
def test_seeded_init_dtypes(shapes, seed, dtype, *, student):
    """draws directly in float64, float16 and bfloat16 (not in float32, then cast)"""
    ch.compare_seeded_init(student.seeded_init, shapes, seed, dtype,
                           truth=oracle.torch_seeded_init(shapes, seed, dtype))


# --- 5. coo_to_dense ------------------------------------------------------------------


@pytest.mark.exercise("coo_to_dense")
@settings(max_examples=FEW)
@given(case=cs.coo_entries())
def test_coo_to_dense_distinct(case, *, student):
    """matches torch when every index appears once"""
    ch.compare_coo_to_dense(student.coo_to_dense, *case)


@pytest.mark.exercise("coo_to_dense")
@settings(max_examples=FEW)
@given(case=cs.coo_entries(repeats=True))
def test_coo_to_dense_repeated(case, *, student):
    """adds up the values of a repeated index, like torch"""
    ch.compare_coo_to_dense(student.coo_to_dense, *case)


@pytest.mark.exercise("coo_to_dense")
@settings(max_examples=FEW)
@given(case=cs.empty_coo())
def test_coo_to_dense_empty(case, *, student):
    """gives all zeros when there are no entries, zero-size shapes included"""
    ch.compare_coo_to_dense(student.coo_to_dense, *case)
