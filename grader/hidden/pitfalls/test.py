"""Hidden checks for chapter 6, pitfalls and debugging.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons themselves live in ``grader.checks.pitfalls``
(shared with the public ``check``); here we only choose the inputs: random
shapes and memory layouts, other dtypes, meta tensors, edge values.

In ``@given`` tests the ``student`` fixture is keyword-only: hypothesis takes a
test's first positional parameter for ``self`` and looks up attributes on it
(a mock marker, ``execute_example``...), which must never reach the student.

The truth of flatten_scores, masked_mean, linear_on_pixels and swish_grads is
the exercise's own algorithm, never shipped: here it comes from
``grader.hidden.pitfalls.oracles`` (``truth=``), on every input drawn.
"""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks import pitfalls as ch
from grader.checks._finite_answers import verdict
from grader.checks._registry import registered
from grader.givens.pitfalls import CLAIMS, GROUPS
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden._variant_items import yours_among
from grader.hidden.oracles import truth_for
from grader.hidden.pitfalls import oracles as oracle
from grader.hidden.pitfalls import strategies as ps

# Each call of a student's function may be a round trip to another process:
# examples per test keep the whole file near 550 calls for a right answer.
FEW, SOME = 25, 40

@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, student):
    """agrees with torch on every example that check() tries"""
    entry = registered()[name]
    fn = getattr(student, name)
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


# --- 1. flatten_scores ----------------------------------------------------------------


@pytest.mark.exercise("flatten_scores")
@settings(max_examples=FEW)
@given(case=ps.image_batches(batch=st.integers(2, 4), contiguous=True))
def test_flatten_scores_contiguous(case, *, student):
    """scores contiguous batches of several images"""
    ch.compare_flatten_scores(student.flatten_scores, *case,
                              truth=oracle.torch_flatten_scores(*case))


@pytest.mark.exercise("flatten_scores")
@settings(max_examples=SOME)
@given(case=ps.image_batches(batch=st.integers(2, 4)))
def test_flatten_scores_layouts(case, *, student):
    """scores batches in any memory layout: permuted (channels last), stepped, offset, expanded"""
    ch.compare_flatten_scores(student.flatten_scores, *case,
                              truth=oracle.torch_flatten_scores(*case))


@pytest.mark.exercise("flatten_scores")
@settings(max_examples=FEW)
@given(case=ps.image_batches(batch=st.just(1)))
def test_flatten_scores_batch_of_one(case, *, student):
    """keeps the batch dimension for a batch of one image, in any layout"""
    ch.compare_flatten_scores(student.flatten_scores, *case,
                              truth=oracle.torch_flatten_scores(*case))


# --- 2. masked_mean -------------------------------------------------------------------


@pytest.mark.exercise("masked_mean")
@settings(max_examples=FEW)
@given(case=ps.masked_batches())
def test_masked_mean_cpu_float32(case, *, student):
    """averages the first lengths[b] steps of float32 CPU batches in any layout"""
    ch.compare_masked_mean(student.masked_mean, *case, truth=oracle.torch_masked_mean(*case))


@pytest.mark.exercise("masked_mean")
@settings(max_examples=FEW)
@given(case=ps.masked_batches(ps.FLOATS, meta=True))
def test_masked_mean_meta(case, *, student):
    """works on meta tensors (a device that is not the CPU): result on that device"""
    ch.compare_masked_mean(student.masked_mean, *case, truth=oracle.torch_masked_mean(*case))


@pytest.mark.exercise("masked_mean")
@settings(max_examples=FEW)
@given(case=ps.masked_batches(ps.FLOATS[1:]))
def test_masked_mean_dtypes(case, *, student):
    """keeps the input's dtype: float64, float16 and bfloat16 batches"""
    ch.compare_masked_mean(student.masked_mean, *case, truth=oracle.torch_masked_mean(*case))


# --- 3. linear_on_pixels --------------------------------------------------------------


@pytest.mark.exercise("linear_on_pixels")
@settings(max_examples=FEW)
@given(case=ps.pixel_batches(pixel_dtypes=(torch.uint8,), weight_dtypes=(torch.float32,)))
def test_linear_on_pixels_uint8(case, *, student):
    """handles uint8 pixels (every value from 0 to 255) with a float32 layer"""
    ch.compare_linear_on_pixels(student.linear_on_pixels, *case,
                                truth=oracle.torch_linear_on_pixels(*case))


@pytest.mark.exercise("linear_on_pixels")
@settings(max_examples=SOME)
@given(case=ps.pixel_batches())
def test_linear_on_pixels_any_dtype(case, *, student):
    """handles pixels of any integer or float dtype with float32 and float64 layers"""
    ch.compare_linear_on_pixels(student.linear_on_pixels, *case,
                                truth=oracle.torch_linear_on_pixels(*case))


@pytest.mark.exercise("linear_on_pixels")
@settings(max_examples=FEW)
@given(case=ps.pixel_batches(pixel_dtypes=ps.FLOATS[:3], weight_dtypes=(torch.float32,)))
def test_linear_on_pixels_float_pixels(case, *, student):
    """answers in the layer's dtype when the pixels are floats of another precision"""
    ch.compare_linear_on_pixels(student.linear_on_pixels, *case,
                                truth=oracle.torch_linear_on_pixels(*case))


# --- 4. swish_grads -------------------------------------------------------------------


@pytest.mark.exercise("swish_grads")
@settings(max_examples=FEW)
@given(case=ps.swish_inputs(dtypes=(torch.float32,), layouts=False))
def test_swish_grads_contiguous(case, *, student):
    """gives the loss and both gradients for contiguous float32 inputs"""
    ch.compare_swish_grads(student.swish_grads, *case, truth=oracle.torch_swish_grads(*case))


@pytest.mark.exercise("swish_grads")
@settings(max_examples=SOME)
@given(case=ps.swish_inputs())
def test_swish_grads_layouts(case, *, student):
    """gives the loss and both gradients for inputs in any layout, float32 and float64"""
    ch.compare_swish_grads(student.swish_grads, *case, truth=oracle.torch_swish_grads(*case))


@pytest.mark.exercise("swish_grads")
@settings(max_examples=FEW)
@given(case=ps.swish_inputs(dtypes=(torch.float64,), rows=(0, 2)))
def test_swish_grads_small(case, *, student):
    """handles empty and single-row batches and empty outputs, in float64"""
    ch.compare_swish_grads(student.swish_grads, *case, truth=oracle.torch_swish_grads(*case))


# --- 5. train_epoch -------------------------------------------------------------------


@pytest.mark.exercise("train_epoch")
@settings(max_examples=FEW)
@given(case=ps.epochs(steps=(1, 1)))
def test_train_epoch_one_batch(case, *, student):
    """takes one step, and returns weights and a mean loss with no graph behind them"""
    ch.compare_train_epoch(student.train_epoch, *case)


@pytest.mark.exercise("train_epoch")
@settings(max_examples=FEW)
@given(case=ps.epochs(steps=(2, 3)))
def test_train_epoch_several_batches(case, *, student):
    """trains through several batches, one step each, with no graph left behind"""
    ch.compare_train_epoch(student.train_epoch, *case)


@pytest.mark.exercise("train_epoch")
@settings(max_examples=FEW)
@given(case=ps.epochs(steps=(4, 6)))
def test_train_epoch_long(case, *, student):
    """stays correct over longer epochs, with no graph left behind"""
    ch.compare_train_epoch(student.train_epoch, *case)


# --- 6. bce_loss ----------------------------------------------------------------------


@pytest.mark.exercise("bce_loss")
@settings(max_examples=FEW)
@given(case=ps.bce_inputs())
def test_bce_loss_inside(case, *, student):
    """matches torch for probabilities strictly between 0 and 1, any layout"""
    ch.compare_bce_loss(student.bce_loss, *case)


@pytest.mark.exercise("bce_loss")
@settings(max_examples=FEW)
@given(case=ps.bce_inputs(ps.PROBS_EDGES))
def test_bce_loss_edges(case, *, student):
    """stays finite and matches torch when probabilities are exactly 0 or 1"""
    ch.compare_bce_loss(student.bce_loss, *case)


@pytest.mark.exercise("bce_loss")
@settings(max_examples=FEW)
@given(case=ps.bce_inputs(ps.PROBS_TINY))
def test_bce_loss_tiny(case, *, student):
    """matches torch for probabilities within a hair of 0 or 1"""
    ch.compare_bce_loss(student.bce_loss, *case)


# --- 7. predict_verdicts: one test per group of claims ----------------------------------


@pytest.mark.exercise("predict_verdicts")
@pytest.mark.parametrize("group", list(GROUPS))
def test_predict_verdicts(group, *, student, variant):
    """gives the verdict torch gives on each claim of yours in this group"""
    # Only the claims of the student's variant (two of each group where one was drawn).
    claims = yours_among(variant, "predict_verdicts", GROUPS[group], CLAIMS,
                         student.predict_verdicts)
    truths = {claim: verdict(claim) for claim in claims}
    ch.compare_predict_verdicts(student.predict_verdicts, claims, truths)
