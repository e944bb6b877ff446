"""``scalar_close``: NaN and infinity compared on purpose, against math's own rules."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader._compare import scalar_close

NUMBERS = st.floats(allow_nan=True, allow_infinity=True)


@given(NUMBERS)
def test_a_nan_answer_is_close_only_to_a_nan_truth(truth):
    assert scalar_close(float("nan"), truth, rtol=1e-3, atol=1e-3) is math.isnan(truth)


@pytest.mark.parametrize("value,truth,close", [
    (math.inf, math.inf, True), (-math.inf, math.inf, False), (1e308, math.inf, False),
    (math.inf, 1e308, False), (-0.0, 0.0, True), (1.0, 1.0 + 1e-6, True), (1.0, 1.1, False),
])
def test_infinities_signed_zeros_and_tolerances(value, truth, close):
    assert scalar_close(value, truth, rtol=1e-5, atol=0.0) is close


@given(st.floats(allow_nan=False, allow_infinity=False, width=32),
       st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_finite_numbers_agree_with_the_tolerance_formula(value, truth):
    expected = abs(value - truth) <= 1e-6 + 1e-4 * abs(truth)
    assert scalar_close(value, truth, rtol=1e-4, atol=1e-6) is expected
