"""Hypothesis strategies for chapter 3's hidden checks (on top of ``shared``).

* ``broadcastable_to`` / ``compatible_shapes`` / ``clashing_shapes``: shapes
  that broadcast together (or do not), built from a common target shape.
* ``refilled``: a tensor from ``shared.layouts`` (a real layout:
  permuted, sliced, offset, expanded) whose storage is then overwritten with
  seeded random values, so values are no longer storage positions but the
  layout is unchanged.
* ``matmul_pairs``, ``sequences``: the inputs of ``batched_matmul`` and
  ``last_tokens``.
"""

import torch
from hypothesis import strategies as st

from .. import strategies as gs  # what every chapter draws

__all__ = [
    "broadcastable_to",
    "compatible_shapes",
    "clashing_shapes",
    "refilled",
    "normal_values",
    "integer_values",
    "matmul_pairs",
    "sequences",
    "dims_of",
]


@gs.reused
@st.composite
def broadcastable_to(draw, target, min_dims=0):
    """A shape that broadcasts to ``target``: leading dims dropped, some sizes set to 1."""
    target = tuple(target)
    drop = draw(st.integers(0, max(len(target) - min_dims, 0)))
    return tuple(1 if draw(st.booleans()) else n for n in target[drop:])


@st.composite
def compatible_shapes(draw, min_count=2, max_count=3, targets=None):
    """Shapes that broadcast together: each one broadcastable to a common target."""
    target = draw(targets if targets is not None else gs.shapes(min_size=1))
    count = draw(st.integers(min_count, max_count))
    return [draw(broadcastable_to(target)) for _ in range(count)]


def _refused(shapes) -> bool:
    try:
        torch.broadcast_shapes(*shapes)
    except RuntimeError:
        return True
    return False


@st.composite
def clashing_shapes(draw):
    """Two or three shapes that do not broadcast: compatible ones with one size changed."""
    shapes = [list(s) for s in draw(compatible_shapes(targets=gs.shapes(min_dims=1)))]
    candidates = [(i, d) for i, s in enumerate(shapes) for d in range(len(s))]
    if not candidates:
        shapes[0] = [draw(st.integers(2, 4))]
        candidates = [(0, 0)]
    i, d = draw(st.sampled_from(candidates))
    # Another operand's size in the same (right-aligned) dim, or a fresh one: then clash.
    offset = len(shapes[i]) - d
    others = [s[-offset] for j, s in enumerate(shapes) if j != i and len(s) >= offset]
    taken = {n for n in others if n != 1}
    if not taken:
        j = draw(st.sampled_from([j for j in range(len(shapes)) if j != i]))
        while len(shapes[j]) < offset:
            shapes[j].insert(0, 1)
        shapes[j][-offset] = draw(st.sampled_from([0, 2, 3]))
        taken = {shapes[j][-offset]}
    shapes[i][d] = draw(st.sampled_from([n for n in (0, 2, 3, 4, 5) if n not in taken]))
    result = [tuple(s) for s in shapes]
    assert _refused(result), result
    return result


def normal_values(scale=1.0, shift=0.0):
    """A values maker for ``refilled``: normal noise times ``scale`` plus ``shift``."""
    def make(n, generator, dtype):
        return torch.randn(n, generator=generator, dtype=torch.float64) * scale + shift
    return make


def integer_values(low, high):
    """A values maker for ``refilled``: integers in ``[low, high)``."""
    def make(n, generator, dtype):
        return torch.randint(low, high, (n,), generator=generator, dtype=torch.int64)
    return make


@st.composite
def refilled(draw, tensors, values):
    """A tensor from ``tensors`` whose whole storage now holds ``values(n, generator, dtype)``."""
    t = draw(tensors)
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    n = t.untyped_storage().nbytes() // t.element_size()
    t.as_strided((n,), (1,), 0).copy_(values(n, generator, t.dtype))
    return t


def dims_of(t: torch.Tensor):
    """A valid ``dim`` argument for ``t``, negative ones included (0 or -1 for a scalar)."""
    n = max(t.dim(), 1)
    return st.integers(-n, n - 1)


_FLAGS = ("permute", "step", "offset", "expand")
_ONE_TO_FOUR = st.integers(1, 4)


@st.composite
def matmul_pairs(draw, batch=None, sizes=None, k_sizes=None, strided=False,
                 dtypes=(torch.int64, torch.float64)):
    """``(a, b)`` with shapes ``(*batch_a, n, k)`` and ``(*batch_b, k, m)``; batches broadcast.

    ``sizes`` (n and m) and ``k_sizes`` default to 1..4; ``batch`` to no batch dims.
    """
    batch_a, batch_b = draw(batch if batch is not None else st.just([(), ()]))
    sizes = sizes if sizes is not None else _ONE_TO_FOUR
    n, m = draw(sizes), draw(sizes)
    k = draw(k_sizes if k_sizes is not None else sizes)
    dtype = draw(gs.sampled(tuple(dtypes)))
    flags = {f: strided for f in _FLAGS}
    a = draw(gs.layouts(gs.fixed((*batch_a, n, k)), dtype=dtype, **flags))
    b = draw(gs.layouts(gs.fixed((*batch_b, k, m)), dtype=dtype, **flags))
    return a, b


@st.composite
def sequences(draw, batch=None, features=None, strided=False, lengths=None):
    """``(x, lengths)``: x of shape ``(B, T, D)``, lengths of shape ``(B,)`` in ``[1, T]``.

    ``batch`` (B) and ``features`` (D) default to 1..4; T is always 1..4.
    """
    b = draw(batch if batch is not None else _ONE_TO_FOUR)
    t = draw(_ONE_TO_FOUR)
    d = draw(features if features is not None else _ONE_TO_FOUR)
    flags = {f: strided for f in _FLAGS}
    dtype = draw(st.sampled_from([torch.float64, torch.int64]))
    x = draw(gs.layouts(gs.fixed((b, t, d)), dtype=dtype, **flags))
    # lengths(t): a strategy of values makers; by default any length from 1 to T.
    choose = draw(lengths(t)) if lengths is not None else integer_values(1, t + 1)
    lens = draw(refilled(gs.layouts(gs.fixed((b,)), **flags), choose))
    return x, lens
