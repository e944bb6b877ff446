"""Hypothesis strategies shared by every chapter's hidden checks (and the grader's tests).

Four families, from plain data to real tensors:

* ``shapes``: tuples of 0-4 sizes, sizes 0 and 1 included, few elements.
* ``layouts``: tensors made by real torch ops (reshape, permute, slicing with
  steps, narrowing, expand) over an ``arange`` base, so their strides and
  storage offsets are the ones torch really produces. The storage holds
  ``0, 1, 2, ...``: every value names its own storage position, so comparing
  values also compares where elements live.
* ``strided_specs`` / ``layout_specs``: raw ``(shape, stride, offset)`` triples.
* ``indices`` / ``out_of_range_indices``: index tuples into a shape.

Everything is small (at most ``MAX_NUMEL`` elements, storages of at most
``MAX_STORAGE``), because each example may cross to the student's process.

A chapter's own strategies are ``grader/hidden/<chapter>/strategies.py``, beside its
hidden checks. All of them live under ``grader/hidden`` and not in ``grader.checks``,
because ``grader.checks`` is what ``check(fn)`` imports in the student's own kernel:
nothing there imports hypothesis or anything under ``grader/hidden``. Only a judge
process runs these (and the grader's own tests); a student's graded process cannot
read ``grader/hidden``, and the student edition leaves the folder out. A helper the
public checks need too lives on the public side and is imported from there, never
the other way round (``storage_extent``: ``grader.checks.storage_strides._oracle``).
"""

import math

import torch
from hypothesis import strategies as st

from ._reused import reused

__all__ = [
    "MAX_NUMEL",
    "MAX_STORAGE",
    "shapes",
    "with_zero_size",
    "reshapes",
    "layouts",
    "transposed",
    "strided_specs",
    "layout_specs",
    "layout_of",
    "indices",
    "out_of_range_indices",
    "reused",
    "fixed",
    "sampled",
]

MAX_NUMEL = 64
MAX_STORAGE = 512


_permutations = reused(st.permutations)  # of range(n), each n once: layouts draws it often
fixed = reused(st.just)  # st.just(value), one strategy per value: layouts(fixed(shape))
sampled = reused(st.sampled_from)  # from a tuple (a list is no key): tensors' dtypes


@reused
@st.composite
def shapes(draw, min_dims=0, max_dims=4, min_size=0, max_size=4, max_numel=MAX_NUMEL):
    """A shape; sizes are capped as they are drawn so the nonzero ones multiply to ≤ max_numel."""
    ndim = draw(st.integers(min_dims, max_dims))
    shape, product = [], 1
    for _ in range(ndim):
        cap = max(min_size, min(max_size, max_numel // product))
        size = draw(st.integers(min_size, cap))
        shape.append(size)
        product *= max(size, 1)
    return tuple(shape)


@reused
@st.composite
def with_zero_size(draw, shape_strategy=None):
    """A shape from ``shape_strategy`` with one dimension set to 0 (so at least one dim)."""
    shape = list(draw(shapes(min_dims=1) if shape_strategy is None else shape_strategy))
    if not shape:
        shape = [0]
    shape[draw(st.integers(0, len(shape) - 1))] = 0
    return tuple(shape)


# --- new shapes with the same number of elements --------------------------------------


def _prime_factors(n: int) -> list[int]:
    factors, p = [], 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return factors


@reused
@st.composite
def _regrouped(draw, numel: int, max_dims: int):
    """A shuffled factorisation of ``numel``, with a few 1s sprinkled in."""
    primes = draw(st.permutations(_prime_factors(numel)))
    inner = range(1, len(primes))  # cut points between primes
    cuts = draw(st.sets(st.sampled_from(inner), max_size=max_dims - 1)) if inner else set()
    bounds = [0, *sorted(cuts), len(primes)]
    dims = [math.prod(primes[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]
    for _ in range(draw(st.integers(0, 2))):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    return tuple(dims)


_EDITS = st.sampled_from(["merge", "merge", "split", "add_one", "drop_one"])  # made once


@reused
@st.composite
def _nearby(draw, shape: tuple[int, ...]):
    """``shape`` with one or two local edits: merge neighbours, split a dim, add/drop a 1."""
    dims = list(shape)
    for _ in range(draw(st.integers(1, 2))):
        # Merges come first and twice: merging dims is where views become impossible.
        edit = draw(_EDITS)
        if edit == "merge" and len(dims) >= 2:
            i = draw(st.integers(0, len(dims) - 2))
            dims[i : i + 2] = [dims[i] * dims[i + 1]]
        elif edit == "split" and dims:
            i = draw(st.integers(0, len(dims) - 1))
            divisors = [d for d in range(1, dims[i] + 1) if dims[i] % d == 0] or [0]
            d = draw(st.sampled_from(divisors))
            dims[i : i + 1] = [d, dims[i] // d] if d else [0, draw(st.integers(0, 3))]
        elif edit == "add_one":
            dims.insert(draw(st.integers(0, len(dims))), 1)
        elif edit == "drop_one" and 1 in dims:
            dims.remove(1)
    return tuple(dims)


@reused
def reshapes(shape: tuple[int, ...], max_dims: int = 5):
    """Shapes with the same number of elements as ``shape`` (no -1), near and far from it."""
    numel = math.prod(shape)
    if numel == 0:
        far = with_zero_size(shapes(min_dims=1, max_dims=max_dims - 1))
    else:
        far = _regrouped(numel, max_dims)
    return st.one_of(_nearby(shape), far)


# --- tensors with realistic layouts ---------------------------------------------------


def _inverse(perm: list[int]) -> list[int]:
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return inverse


@reused
@st.composite
def _dim_plans(draw, shape, step, expand):
    """Per dim: (expanded?, start, step, spare elements after the slice)."""
    plans = []
    for size in shape:
        expanded = expand and draw(st.booleans())
        start = draw(st.integers(0, 2)) if step and not expanded else 0
        stride = draw(st.integers(1, 3)) if step and not expanded and size > 1 else 1
        spare = draw(st.integers(0, 1)) if step and not expanded else 0
        plans.append((expanded, start, stride, spare))
    return plans


def _base_size(size, plan):
    expanded, start, step, spare = plan
    if expanded:
        return 1
    return start + max(size - 1, 0) * step + (size > 0) + spare


def _shrink_to_budget(shape, plans, budget):
    """Drop steps and starts, outermost dims first, until the base fits the budget."""
    plans = list(plans)
    for d in range(len(plans)):
        if math.prod(_base_size(n, p) for n, p in zip(shape, plans)) <= budget:
            break
        plans[d] = (plans[d][0], 0, 1, 0)
    return plans


def _slice(size, plan):
    expanded, start, step, _ = plan
    if expanded:
        return slice(0, 1)
    return slice(start, start + max(size - 1, 0) * step + (size > 0), step)


@reused
@st.composite
def layouts(
    draw,
    shape=None,
    *,
    permute=False,
    step=False,
    offset=False,
    expand=False,
    dtype=torch.int64,
):
    """A tensor of a shape from ``shape`` (default ``shapes()``) laid out by real torch ops.

    Each flag allows (does not force) one ingredient: ``permute`` lays the base
    out in a shuffled dim order, ``step`` slices with starts and steps,
    ``offset`` narrows the flat storage (nonzero storage offset), ``expand``
    broadcasts some dims from size 1 (stride 0). With no flag: contiguous.
    """
    shape = tuple(draw(shape if shape is not None else shapes()))
    ndim = len(shape)
    order = list(draw(_permutations(range(ndim)))) if permute else list(range(ndim))
    plans = _shrink_to_budget(shape, draw(_dim_plans(shape, step, expand)), MAX_STORAGE - 8)
    base_shape = [_base_size(n, p) for n, p in zip(shape, plans)]
    skip = draw(st.integers(0, 5)) if offset else 0

    numel = math.prod(base_shape)
    # At least one element of storage, so sharing can be told apart from an empty copy.
    storage = torch.arange(max(skip + numel, 1), dtype=dtype)
    flat = storage.narrow(0, skip, numel)
    base = flat.reshape([base_shape[d] for d in order]).permute(_inverse(order))
    sliced = base[tuple(_slice(n, p) for n, p in zip(shape, plans))]
    return sliced.expand(shape)


@st.composite
def transposed(draw, tensors):
    """A tensor from ``tensors`` with two of its dims swapped (needs at least 2 dims)."""
    t = draw(tensors)
    i, j = draw(st.permutations(range(t.dim())))[:2]
    return t.transpose(i, j)


# --- raw (shape, stride, offset) triples ----------------------------------------------


@st.composite
def strided_specs(draw, shape=None, max_stride=8, max_offset=6):
    """A ``(shape, stride, offset)`` triple with arbitrary nonnegative strides (overlaps too).

    In bounds of a storage of ``storage_extent(shape, stride, offset)`` elements
    (``grader.checks.storage_strides._oracle``).
    """
    shape = tuple(draw(shape if shape is not None else shapes()))
    stride = tuple(draw(st.integers(0, max_stride)) for _ in shape)
    return shape, stride, draw(st.integers(0, max_offset))


def layout_of(t: torch.Tensor) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The ``(shape, stride, offset)`` triple of ``t``."""
    return tuple(t.shape), t.stride(), t.storage_offset()


def layout_specs(tensors):
    """The ``(shape, stride, offset)`` triples of tensors drawn from ``tensors``."""
    return tensors.map(layout_of)


# --- indices --------------------------------------------------------------------------


@st.composite
def indices(draw, shape, negative=False):
    """An in-range index tuple for ``shape`` (no zero-size dims).

    With ``negative``, at least one entry counts from the end (needs at least one dim).
    """
    index = [draw(st.integers(0, n - 1)) for n in shape]
    flips = draw(st.sets(st.sampled_from(range(len(shape))), min_size=1)) if negative else ()
    return tuple(i - n if d in flips else i for d, (i, n) in enumerate(zip(index, shape)))


@st.composite
def out_of_range_indices(draw, shape):
    """An index tuple for ``shape`` (at least one dim) that is out of range in some dim."""
    bad = draw(st.integers(0, len(shape) - 1))
    index = []
    for d, n in enumerate(shape):
        if d == bad:
            index.append(draw(st.one_of(st.integers(n, n + 3), st.integers(-n - 3, -n - 1))))
        else:
            index.append(draw(st.integers(-n, n - 1)) if n else draw(st.integers(-2, 2)))
    return tuple(index)
