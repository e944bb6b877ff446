"""Hypothesis strategies for chapter 2's hidden checks (creating tensors).

* ``nested_data``: rectangular nested lists/tuples of bools, ints and floats,
  the kind of data ``torch.tensor`` takes;
* ``ragged_lengths`` / ``ragged_depths``: such data with exactly one problem,
  so that the error torch raises is determined by the kind of problem;
* ``numpy_views``: ``(x, steps, readonly)`` for exercise ``share_or_copy``;
* ``parameter_shapes``: lists of shapes for ``seeded_init``;
* ``coo_entries``: ``(indices, values, size)`` for ``coo_to_dense``.
"""

import math

import torch
from hypothesis import strategies as st

from .. import strategies as gs  # what every chapter draws

__all__ = [
    "LEAVES",
    "nested_data",
    "ragged_lengths",
    "ragged_depths",
    "numpy_views",
    "view_shapes",
    "positive_steps",
    "reversing_steps",
    "size_one_flips",
    "any_steps",
    "has_reversible_dim",
    "has_single_dim",
    "NUMPY_DTYPES",
    "parameter_shapes",
    "coo_entries",
    "empty_coo",
]

LEAVES = {
    "bool": st.booleans(),
    "int": st.integers(-(2**63), 2**63 - 1),
    "float": st.floats(allow_nan=False, allow_infinity=False),
}


def _leaves(kinds):
    return st.one_of(*(LEAVES[kind] for kind in kinds))


@st.composite
def _build(draw, shape, leaves):
    """Nested lists and tuples (chosen per container) of ``shape``, leaves from ``leaves``."""
    if not shape:
        return draw(leaves)
    items = [draw(_build(shape[1:], leaves)) for _ in range(shape[0])]
    return tuple(items) if draw(st.booleans()) else items


@st.composite
def nested_data(draw, shape=None, kinds=("bool", "int", "float"), one_kind=False):
    """Rectangular data of a shape from ``shape`` (default: up to 3 dims of up to 3).

    With ``one_kind``, every leaf is of one kind drawn from ``kinds``; otherwise
    each leaf's kind is drawn from ``kinds``.
    """
    shape = draw(shape if shape is not None else gs.shapes(max_dims=3, max_size=3))
    if one_kind:
        kinds = (draw(st.sampled_from(kinds)),)
    return draw(_build(shape, _leaves(kinds)))


def _paths(shape, depth):
    """Index paths to every container (or, at depth len(shape), leaf) at ``depth``."""
    paths = [()]
    for size in shape[:depth]:
        paths = [(*p, i) for p in paths for i in range(size)]
    return paths


def _get(data, path):
    for i in path:
        data = data[i]
    return data


def _replace(data, path, new):
    """``data`` with the item at ``path`` replaced by ``new`` (containers keep their type)."""
    if not path:
        return new
    items = list(data)
    items[path[0]] = _replace(items[path[0]], path[1:], new)
    return tuple(items) if isinstance(data, tuple) else items


def _with_type_of(container, items):
    return tuple(items) if isinstance(container, tuple) else list(items)


_RAGGED_SHAPES = gs.shapes(min_dims=2, max_dims=3, min_size=1, max_size=3).filter(
    lambda s: s[0] >= 2 or (len(s) == 3 and s[1] >= 2))


@st.composite
def ragged_lengths(draw, kinds=("bool", "int", "float")):
    """Data where one list (not the first at its depth) is one item longer or shorter.

    torch.tensor raises ValueError ("expected sequence of length ...").
    """
    shape = draw(_RAGGED_SHAPES)
    data = draw(_build(shape, _leaves(kinds)))
    # Depths with at least two containers: the first one sets the expected length.
    depth = draw(st.sampled_from([d for d in range(1, len(shape)) if math.prod(shape[:d]) > 1]))
    path = draw(st.sampled_from(_paths(shape, depth)[1:]))
    container = _get(data, path)
    if draw(st.booleans()):
        items = [*container, container[-1]]  # one more item of the right kind
    else:
        items = list(container)[:-1]  # one item fewer (possibly none left)
    return _replace(data, path, _with_type_of(container, items))


@st.composite
def ragged_depths(draw, kinds=("bool", "int", "float")):
    """Data where one item (not the first at its depth) is nested one level off.

    Either a number is wrapped in a list (a list where a number should be) or
    a list is replaced by a number; torch.tensor raises TypeError.
    """
    shape = draw(gs.shapes(min_dims=1, max_dims=3, min_size=1, max_size=3).filter(
        lambda s: math.prod(s) > 1))
    leaves = _leaves(kinds)
    data = draw(_build(shape, leaves))
    # Containers below the top, or leaves, with at least one sibling before them.
    depths = [d for d in range(1, len(shape) + 1) if math.prod(shape[:d]) > 1]
    depth = draw(st.sampled_from(depths))
    path = draw(st.sampled_from(_paths(shape, depth)[1:]))
    if depth == len(shape):  # a leaf: wrap it
        wrapped = [_get(data, path)]
        new = tuple(wrapped) if draw(st.booleans()) else wrapped
    else:  # a container: a number instead
        new = draw(leaves)
    return _replace(data, path, new)


# --- share_or_copy --------------------------------------------------------------------

NUMPY_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                torch.float16, torch.float32, torch.float64, torch.complex64)


def _retyped(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """``t``'s layout over a fresh storage of ``dtype`` holding 0, 1, 2, ... (bools alternate)."""
    n = t.untyped_storage().nbytes() // t.element_size()
    storage = torch.arange(n)
    storage = storage % 2 if dtype == torch.bool else storage
    return storage.to(dtype).as_strided(t.shape, t.stride(), t.storage_offset())


def view_shapes():
    """Shapes for ``numpy_views``: 1 to 3 dims of 1 to 4, no zero-size dims."""
    return gs.shapes(min_dims=1, max_dims=3, min_size=1, max_size=4)


@st.composite
def numpy_views(draw, steps, where=None, readonly=False, dtypes=(torch.int64,)):
    """``(x, steps, readonly)``: x contiguous, permuted or broadcast, never empty, offset 0.

    ``where(x)`` filters the tensors; ``steps(x)`` draws one nonzero step per
    dimension; ``readonly`` is a bool or a strategy; the dtype is drawn from
    ``dtypes``. Offset 0 matters: a tensor from ``torch.from_numpy`` starts its
    own storage at the array's first element, so only then can sharing be seen
    across processes.
    """
    tensors = gs.layouts(view_shapes(), permute=True, expand=True)
    x = draw(tensors.filter(where) if where is not None else tensors)
    x = _retyped(x, draw(st.sampled_from(dtypes)))
    readonly = readonly if isinstance(readonly, bool) else draw(readonly)
    return x, tuple(draw(steps(x))), readonly


def _reversible(x):
    """Dims whose reversal really flips memory: more than one element, nonzero stride."""
    return [d for d in range(x.dim()) if x.shape[d] > 1 and x.stride(d) != 0]


def _single(x):
    """Dims of size 1 with a nonzero stride: reversing them gives a negative stride."""
    return [d for d in range(x.dim()) if x.shape[d] == 1 and x.stride(d) != 0]


def has_reversible_dim(x):
    return bool(_reversible(x))


def has_single_dim(x):
    return bool(_single(x))


def positive_steps(x):
    return st.tuples(*(st.integers(1, 3) for _ in range(x.dim())))


@st.composite
def reversing_steps(draw, x):
    """Steps reversing at least one dimension that really flips (see ``_reversible``)."""
    steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in range(x.dim())]
    steps[draw(st.sampled_from(_reversible(x)))] = draw(st.sampled_from([-1, -2, -3]))
    return steps


@st.composite
def size_one_flips(draw, x):
    """Steps reversing only dims of size 1 (see ``_single``): the values do not change."""
    steps = [draw(st.integers(1, 2)) for _ in range(x.dim())]
    for d in draw(st.sets(st.sampled_from(_single(x)), min_size=1)):
        steps[d] = -1
    return steps


def any_steps(x):
    return st.tuples(*(st.sampled_from([1, 2, 3, -1, -2]) for _ in range(x.dim())))


# --- seeded_init ----------------------------------------------------------------------


def parameter_shapes(min_count=1, max_count=4, shape=None):
    """A list of parameter shapes (scalars, zero-size and up to 64-element shapes included)."""
    shape = shape if shape is not None else gs.shapes(max_dims=3, max_size=8)
    return st.lists(shape, min_size=min_count, max_size=max_count)


# --- coo_to_dense ---------------------------------------------------------------------


def _values(count):
    # Halves: exact in float32, so sums do not depend on the order they are added in.
    return st.lists(st.integers(-16, 16).map(lambda v: v / 2), min_size=count, max_size=count)


@st.composite
def coo_entries(draw, repeats=False, max_nnz=8):
    """``(indices, values, size)``: nnz index tuples inside ``size``; with ``repeats``,
    at least one index appears more than once."""
    size = draw(gs.shapes(min_dims=1, max_dims=3, min_size=1, max_size=5))
    index = st.tuples(*(st.integers(0, n - 1) for n in size))
    distinct = draw(st.lists(index, min_size=1, max_size=max_nnz, unique=True))
    indices = list(distinct)
    if repeats:
        extra = draw(st.lists(st.sampled_from(distinct), min_size=1, max_size=4))
        indices += extra
        indices = draw(st.permutations(indices))
    return list(indices), draw(_values(len(indices))), size


@st.composite
def empty_coo(draw):
    """No entries, in a size that may have a zero-size dimension."""
    size = draw(st.one_of(gs.shapes(min_dims=1, max_dims=3, max_size=5),
                          gs.with_zero_size(gs.shapes(min_dims=1, max_dims=3))))
    return [], [], size
