"""Hypothesis strategies for chapter 4's hidden checks (devices).

* ``tensors``: tensors of any wire dtype with the layouts real torch ops make
  (``shared.layouts``), on the CPU or on the meta device;
* ``batches`` / ``flat_batches``: what a data loader yields, nested dicts,
  lists, tuples and namedtuples of tensors, strings, numbers, bools and None,
  built around a CPU tensor so that every example has one to move;
* ``scores``: attention scores ``(..., queries, keys)`` for ``causal_mask``;
* ``tensor_lists`` and ``leads`` for ``pack`` and ``unpack``;
* ``timings``: ``(device, repeats, tick, available)`` for ``time_device_work``.
"""

import torch
from hypothesis import strategies as st

from grader.checks.devices._examples import NAMEDTUPLES

from .. import strategies as gs  # what every chapter draws

__all__ = [
    "ALL_DTYPES",
    "FLOATS",
    "tensors",
    "leaves",
    "flat_batches",
    "batches",
    "scores",
    "tensor_lists",
    "leads",
    "timings",
]

ALL_DTYPES = (
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64,
    torch.complex64, torch.complex128,
)
FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_ANY_LAYOUT = {"permute": True, "step": True, "offset": True, "expand": True}


def _retyped(t: torch.Tensor, dtype: torch.dtype, device: str) -> torch.Tensor:
    """``t``'s layout over a storage of ``dtype`` holding 0, 1, 2, ... (bools alternate)."""
    if t.numel() == 0:
        # An empty tensor's strides are arbitrary; torch keeps a 1-D empty one's stride 0
        # through contiguous() and reshape(), which view(dtype) then refuses: not our topic.
        t = torch.empty(t.shape, dtype=t.dtype)
    size = max(t.untyped_storage().nbytes() // t.element_size(), 1)
    if device == "meta":
        storage = torch.empty(size, dtype=dtype, device="meta")
    else:
        storage = torch.arange(size)
        storage = (storage % 2 if dtype == torch.bool else storage).to(dtype)
    return storage.as_strided(t.shape, t.stride(), t.storage_offset())


@gs.reused
@st.composite
def tensors(draw, dtypes=ALL_DTYPES, devices=("cpu",), shape=None, max_dims=3):
    """A tensor of a dtype from ``dtypes`` on a device from ``devices``, any layout."""
    shape = shape if shape is not None else gs.shapes(max_dims=max_dims)
    base = draw(gs.layouts(shape, **_ANY_LAYOUT))
    return _retyped(base, draw(gs.sampled(dtypes)), draw(gs.sampled(devices)))


@gs.reused
def leaves(devices=("cpu",)):
    """Tensors, and the plain values a batch carries beside them."""
    return st.one_of(
        tensors(devices=devices, max_dims=2),
        st.text("abc", max_size=3),
        st.integers(-5, 100),
        st.floats(-10, 10, allow_nan=False),
        st.booleans(),
        st.none(),
    )


def _containers(children):
    keys = st.text("abcdef", min_size=1, max_size=4)
    named = st.sampled_from(NAMEDTUPLES).flatmap(
        lambda kind: st.tuples(*[children] * len(kind._fields)).map(lambda v: kind(*v)))
    return st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(keys, children, max_size=3),
        named,
    )


@gs.reused
def _others(devices, max_leaves):
    return st.recursive(leaves(devices), _containers, max_leaves=max_leaves)


_KINDS = st.sampled_from(["list", "tuple", "dict", *NAMEDTUPLES])  # made once


@st.composite
def _wrapped(draw, inner, others):
    """``inner`` at a random place in a new list, tuple, dict or namedtuple, among ``others``."""
    kind = draw(_KINDS)
    size = draw(st.integers(1, 3)) if isinstance(kind, str) else len(kind._fields)
    items = [draw(others) for _ in range(size - 1)]
    items.insert(draw(st.integers(0, size - 1)), inner)
    if kind == "dict":
        keys = st.text("abcdef", min_size=1, max_size=4)
        return dict(zip(draw(st.lists(keys, min_size=size, max_size=size, unique=True)), items))
    return items if kind == "list" else tuple(items) if kind == "tuple" else kind(*items)


@st.composite
def flat_batches(draw, devices=("cpu",)):
    """One container of leaves, a CPU tensor among them."""
    return draw(_wrapped(draw(tensors(max_dims=2)), leaves(devices)))


@st.composite
def batches(draw, devices=("cpu",)):
    """Containers nested two or three deep with a CPU tensor at the bottom, anything around."""
    batch = draw(tensors(max_dims=2))
    for _ in range(draw(st.integers(2, 3))):
        batch = draw(_wrapped(batch, _others(devices, max_leaves=3)))
    return batch


@st.composite
def scores(draw, dtypes=FLOATS, devices=("cpu",), max_dims=4):
    """Scores of shape ``(..., queries, keys)`` (sizes 0 to 6), any layout."""
    shape = gs.shapes(min_dims=2, max_dims=max_dims, max_size=6)
    return draw(tensors(dtypes, devices, shape=shape))


def tensor_lists(dtypes=ALL_DTYPES, devices=("cpu",), max_size=5):
    """One to ``max_size`` tensors, all on one device, dtypes and layouts mixed."""
    return st.sampled_from(devices).flatmap(
        lambda device: st.lists(tensors(dtypes, (device,)), min_size=1, max_size=max_size))


def leads(maximum=4):
    """Where a buffer starts in its storage: a multiple of 16 bytes."""
    return st.integers(0, maximum).map(lambda k: 16 * k)


@st.composite
def timings(draw, devices, available=None):
    """``(device, repeats, tick, available)`` for ``time_device_work``'s harness;
    ``available`` draws what ``is_available`` says (default: CUDA only)."""
    available = available if available is not None else st.just(["cuda"])
    device = torch.device(draw(st.sampled_from(devices)))
    tick = draw(st.sampled_from([0.0625, 0.125, 0.25, 0.5, 0.75, 1.5, 2.0, 3.25]))
    return device, draw(st.integers(1, 6)), tick, draw(available)
