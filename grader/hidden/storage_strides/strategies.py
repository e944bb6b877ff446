"""Hypothesis strategies for chapter 1's hidden checks (storage and strides) of their own.

* ``strided_sums``: ``(storage, shape, stride, offset, dim)`` for ``strided_sum``:
  the layout of a tensor drawn from ``tensors`` (``shared.layouts``: real torch
  views) or a raw ``(shape, stride, offset)`` triple (``shared.strided_specs``:
  overlaps too), over a plain list of small ints (not ``0, 1, 2, ...``, so that
  no two storage positions are told apart by their values alone), and a dim,
  negative (counted from the end) or not.
"""

from hypothesis import strategies as st

from grader.checks.storage_strides._oracle import storage_extent

from .. import strategies as gs  # what every chapter draws

__all__ = ["SMALL_SHAPES", "strided_sums"]

# At most 3 dims and 24 elements: each example's storage is shown whole in a failure.
SMALL_SHAPES = gs.shapes(min_dims=1, max_dims=3, max_size=4, max_numel=24)


def _storage(extent: int, seed: int) -> list[int]:
    """``extent`` ints in -9..9, scrambled by ``seed``."""
    return [(position * 37 + seed * 11 + 5) % 19 - 9 for position in range(extent)]


@st.composite
def strided_sums(draw, tensors=None, specs=None):
    """``(storage, shape, stride, offset, dim)``: the layout of a tensor from ``tensors``,
    or a triple from ``specs``, over a storage list just long enough for it."""
    if specs is not None:
        shape, stride, offset = draw(specs)
        extent = storage_extent(shape, stride, offset)
    else:
        t = draw(tensors)
        shape, stride, offset = gs.layout_of(t)
        extent = t.untyped_storage().nbytes() // t.element_size()
    assert shape, "strided_sum needs at least one dim"
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    return _storage(extent, draw(st.integers(0, 18))), shape, stride, offset, dim
