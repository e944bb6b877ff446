"""Hypothesis strategies for chapter 6's hidden checks (pitfalls).

Every tensor is laid out by real torch ops (``shared.layouts``:
permuted, stepped, offset, expanded), then given values that suit its
exercise by ``with_values``, which rewrites the storage and keeps the layout.

* ``image_batches``: ``(images, weight)`` for ``flatten_scores``;
* ``masked_batches``: ``(x, lengths)`` for ``masked_mean``, on the CPU or meta;
* ``pixel_batches``: ``(pixels, weight, bias)`` for ``linear_on_pixels``;
* ``swish_inputs``: ``(x, w)`` for ``swish_grads``, both requiring grad;
* ``epochs``: ``(w, batches, lr)`` for ``train_epoch``;
* ``bce_inputs``: ``(probs, targets)`` for ``bce_loss``.
"""

import math

import torch
from hypothesis import strategies as st

from .. import strategies as gs  # what every chapter draws

__all__ = [
    "FLOATS",
    "PIXEL_DTYPES",
    "with_values",
    "smooth",
    "image_batches",
    "masked_batches",
    "to_meta",
    "pixel_batches",
    "swish_inputs",
    "epochs",
    "PROBS_INSIDE",
    "PROBS_EDGES",
    "PROBS_TINY",
    "bce_inputs",
]

FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)
PIXEL_DTYPES = (torch.uint8, torch.int16, torch.int32, torch.int64, torch.float16,
                torch.float32, torch.float64)


def with_values(t: torch.Tensor, values, dtype: torch.dtype) -> torch.Tensor:
    """``t``'s layout over a new storage of ``dtype``: element k holds ``values(k)``.

    ``values`` maps an int64 tensor of storage positions to their values.
    """
    n = max(t.untyped_storage().nbytes() // t.element_size(), 1)
    storage = values(torch.arange(n)).to(dtype)
    return storage.as_strided(t.shape, t.stride(), t.storage_offset())


def smooth(shift: float = 0.0, scale: float = 1.0):
    """Values in (-scale, scale) that vary irregularly and are (almost) never 0."""
    return lambda k: torch.sin(k.double() * 1.37 + 0.5 + shift) * scale


def _any_layout(shape, **flags):
    flags = {"permute": True, "step": True, "offset": True, **flags}
    return gs.layouts(gs.fixed(tuple(shape)), **flags)


# --- flatten_scores -------------------------------------------------------------------


@st.composite
def image_batches(draw, batch=None, contiguous=False):
    """``(images, weight)``: images (B, C, H, W) float32 holding their storage positions,
    weight (C*H*W, 1) holding small integers (so every score is exact). B from ``batch``
    (default 1 to 4)."""
    batch = st.integers(1, 4) if batch is None else batch
    shape = (draw(batch), *(draw(st.integers(1, 3)) for _ in range(3)))
    flags = {"permute": False, "step": False, "offset": False} if contiguous else {"expand": True}
    images = with_values(draw(_any_layout(shape, **flags)), lambda k: k, torch.float32)
    features = math.prod(shape[1:])
    weight = with_values(draw(_any_layout((features, 1))), lambda k: k % 5 - 2, torch.float32)
    return images, weight


# --- masked_mean ----------------------------------------------------------------------


def to_meta(t: torch.Tensor) -> torch.Tensor:
    """A meta tensor of ``t``'s shape, stride and dtype: no memory, no values."""
    return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")


@st.composite
def masked_batches(draw, dtypes=(torch.float32,), meta=False):
    """``(x, lengths)``: x (B, T, F) of a dtype from ``dtypes``, lengths (B,) int64 in [1, T]."""
    shape = (draw(st.integers(0, 3)), draw(st.integers(1, 4)), draw(st.integers(0, 3)))
    dtype = draw(st.sampled_from(dtypes))
    x = with_values(draw(_any_layout(shape, expand=True)), lambda k: k % 64, dtype)
    lengths = torch.tensor([draw(st.integers(1, shape[1])) for _ in range(shape[0])],
                           dtype=torch.int64)
    return (to_meta(x), to_meta(lengths)) if meta else (x, lengths)


# --- linear_on_pixels -----------------------------------------------------------------


@st.composite
def pixel_batches(draw, pixel_dtypes=PIXEL_DTYPES, weight_dtypes=(torch.float32, torch.float64)):
    """``(pixels, weight, bias)``: pixels (N, D) in 0..255, weight (K, D) and bias (K,) in
    multiples of 1/8 (so every output is exact in float32)."""
    n, d, k = draw(st.integers(0, 4)), draw(st.integers(1, 6)), draw(st.integers(1, 4))
    pixels = with_values(draw(_any_layout((n, d))), lambda i: i * 37 % 256,
                         draw(st.sampled_from(pixel_dtypes)))
    dtype = draw(st.sampled_from(weight_dtypes))
    weight = with_values(draw(_any_layout((k, d))), lambda i: (i % 17 - 8) / 8, dtype)
    bias = with_values(draw(_any_layout((k,))), lambda i: (i % 9 - 4) / 4, dtype)
    return pixels, weight, bias


# --- swish_grads ----------------------------------------------------------------------


@st.composite
def swish_inputs(draw, dtypes=(torch.float32, torch.float64), layouts=True, rows=(1, 4)):
    """``(x, w)``: x (N, D) and w (D, K), smooth values, both leaves requiring grad."""
    n, d, k = draw(st.integers(*rows)), draw(st.integers(1, 4)), draw(st.integers(0, 3))
    dtype = draw(st.sampled_from(dtypes))
    flags = {} if layouts else {"permute": False, "step": False, "offset": False}
    x = with_values(draw(_any_layout((n, d), **flags)), smooth(), dtype)
    w = with_values(draw(_any_layout((d, k), **flags)), smooth(1.0, 0.8), dtype)
    return x.requires_grad_(True), w.requires_grad_(True)


# --- train_epoch ----------------------------------------------------------------------


@st.composite
def epochs(draw, steps=(1, 3)):
    """``(w, batches, lr)``: w (D, K) float32 requiring grad; 1-3 batches of x (N, D), y (N, K)."""
    d, k = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    w = with_values(draw(_any_layout((d, k))), smooth(0.0, 0.5), torch.float32)
    batches = []
    for step in range(draw(st.integers(*steps))):
        n = draw(st.integers(1, 4))
        x = with_values(draw(_any_layout((n, d))), smooth(step + 1.0), torch.float32)
        y = with_values(draw(_any_layout((n, k))), smooth(step + 2.0), torch.float32)
        batches.append((x, y))
    lr = draw(st.sampled_from([0.01, 0.05, 0.1, 0.2]))
    return w.requires_grad_(True), batches, lr


# --- bce_loss -------------------------------------------------------------------------

PROBS_INSIDE = (0.5, 0.25, 0.75, 0.1, 0.9, 0.01, 0.99, 1e-3, 0.999)
PROBS_EDGES = (0.0, 1.0, *PROBS_INSIDE[:4])
PROBS_TINY = (1e-44, 1e-50, 1e-30, 1e-12, 1.0 - 1e-12, 0.0, 1.0, 0.5)
_TARGETS = (0.0, 1.0, 0.5, 0.25, 0.75)


@st.composite
def bce_inputs(draw, probs=PROBS_INSIDE, dtypes=(torch.float32, torch.float64)):
    """``(probs, targets)``: same shape and dtype, values picked from ``probs`` and soft
    or hard targets, each tensor with its own layout."""
    shape = draw(gs.shapes(max_dims=3))
    dtype = draw(st.sampled_from(dtypes))
    pool = torch.tensor(draw(st.permutations(probs)), dtype=torch.float64)
    goals = torch.tensor(draw(st.permutations(_TARGETS)), dtype=torch.float64)
    step = draw(st.integers(1, 3))
    p = with_values(draw(_any_layout(shape)), lambda k: pool[k * step % len(pool)], dtype)
    y = with_values(draw(_any_layout(shape)), lambda k: goals[k % len(goals)], dtype)
    return p, y
