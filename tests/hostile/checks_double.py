"""Hidden checks of the hostile suite's one-exercise assignment: ``double(x) == 2 * x``."""

import pytest
import torch
from hypothesis import given, settings

from grader.hidden.strategies import layouts


def _expect_double(student, x):
    got = student.double(x)
    assert type(got) is torch.Tensor, f"double returned a {type(got).__name__}, not a tensor"
    assert got.shape == x.shape and got.dtype == x.dtype, "shape or dtype differs from torch"
    assert torch.equal(got, x * 2), f"double({x.tolist()}) returned {got.tolist()}"


@pytest.mark.exercise("double")
def test_double_on_a_fixed_example(*, student):
    """doubles a small integer tensor"""
    _expect_double(student, torch.arange(6).reshape(2, 3))


@pytest.mark.exercise("double")
@settings(max_examples=15)
@given(x=layouts(permute=True, step=True, offset=True, expand=True))
def test_double_on_any_layout(x, *, student):
    """doubles tensors of any layout"""
    _expect_double(student, x)


@pytest.mark.exercise("double")
@pytest.mark.skip(reason="stands for a GPU-only check on a machine without one")
def test_double_on_a_gpu(*, student):
    """a check that cannot run on this machine: it must not count, passed or failed"""
    raise AssertionError("never runs")
