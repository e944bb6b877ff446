"""Chapter 4, devices: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` runs the student's ``fn`` (through a
harness where a clock or a CUDA tensor must stay on the student's side), asks
torch for the truth, and raises ``Mismatch`` with a small counterexample when
they disagree. The hidden checks (``grader/hidden/test_04_devices.py``) reuse
these functions on hypothesis-generated inputs. Structure is checked on the
``meta`` device, which holds no memory, so grading is the same with or without
a GPU; the ``*_on_cuda`` variants run only where CUDA works.

pack's truth is the exercise itself (the packing algorithm), and unpack's input
is what pack makes: their comparisons take it as ``truth=``, from
``grader.hidden.oracles.devices`` in the judge and stored with the public
examples at release in the student's kernel (``stored=True``).
"""

import torch

from ..._compare import (
    as_int,
    expect_float,
    expect_like,
    expect_tensor,
    first_difference,
    is_tensor,
    shares_storage,
)
from ...givens.devices import ALIGN
from .._registry import Mismatch, public_check
from ._examples import (
    causal_mask_examples,
    pack_examples,
    time_device_work_examples,
    to_device_examples,
    unpack_examples,
)
from ._harnesses import cuda_sleep_harness, timing_harness
from ._oracle import (
    CudaUnavailable,
    describe_kind,
    expect_moved,
    fetched,
    on_cuda,
    timing_problem,
    torch_causal_mask,
)

__all__ = [
    "ALIGN",
    "compare_to_device",
    "compare_causal_mask",
    "compare_time_device_work",
    "compare_pack",
    "compare_unpack",
    "placed_buffer",
    "to_device_on_cuda",
    "causal_mask_on_cuda",
    "pack_on_cuda",
    "unpack_on_cuda",
    "time_device_work_on_cuda",
    "CudaUnavailable",
]


def _describe_batch(value, limit: int = 160) -> str:
    def walk(v):
        if is_tensor(v):
            return f"<{v.device.type} {v.dtype} {tuple(v.shape)}>"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k!r}: {walk(i)}" for k, i in v.items()) + "}"
        if isinstance(v, (list, tuple)):
            name = type(v).__name__ if hasattr(type(v), "_fields") else ""
            inner = ", ".join(walk(i) for i in v)
            return f"{name}({inner})" if name or type(v) is tuple else f"[{inner}]"
        return repr(v)

    text = walk(value)
    return text if len(text) <= limit else text[:limit] + "..."


# --- 1. to_device ---------------------------------------------------------------------


@public_check("to_device", to_device_examples)
def compare_to_device(fn, batch, device):
    try:
        expect_moved(fn(batch, device), batch, device)
    except Mismatch as err:
        raise Mismatch(f"to_device({_describe_batch(batch)}, {device}): {err}") from None


def to_device_on_cuda(fn, batch):
    """``to_device(batch, cuda)`` on a machine with CUDA (may raise ``CudaUnavailable``)."""
    result = on_cuda(fn, [batch, torch.device("cuda")], [])
    try:
        expect_moved(result, batch, torch.device("cuda"))
    except Mismatch as err:
        raise Mismatch(f"to_device({_describe_batch(batch)}, cuda): {err}") from None


# --- 2. causal_mask -------------------------------------------------------------------


def _expect_mask(call: str, mask, scores: torch.Tensor, device_type: str) -> None:
    truth = torch_causal_mask(scores).to(device_type)  # on meta: no values to compare
    mask = expect_like(call, mask, truth, device=True)
    if mask.requires_grad:
        raise Mismatch(f"{call} requires grad: a mask is a constant, so build it with a "
                       f"factory (device=, dtype=), not out of scores")
    expect_tensor(call, mask, truth, device=True)


@public_check("causal_mask", causal_mask_examples)
def compare_causal_mask(fn, scores):
    call = f"causal_mask(scores) for {scores.device.type} scores of shape " \
           f"{tuple(scores.shape)}, {scores.dtype}"
    _expect_mask(call, fn(scores), scores, scores.device.type)


def causal_mask_on_cuda(fn, scores):
    call = f"causal_mask(scores) for cuda scores of shape {tuple(scores.shape)}, {scores.dtype}"
    mask = fetched(call, on_cuda(fn, [scores], [0]))
    _expect_mask(call, mask, scores, "cpu")


# --- 3. time_device_work --------------------------------------------------------------


def _summary(events: list[str]) -> str:
    runs = []
    for event in events:
        if runs and runs[-1][0] == event:
            runs[-1][1] += 1
        else:
            runs.append([event, 1])
    return ", ".join(e if n == 1 else f"{e} x{n}" for e, n in runs)[:300]


@public_check("time_device_work", time_device_work_examples)
def compare_time_device_work(fn, device, repeats, tick, available):
    call = f"time_device_work(work, {device}, repeats={repeats})"
    report = fn.harness(timing_harness, device, repeats, tick, available)
    events = report.get("events") if isinstance(report, dict) else None
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise Mismatch(f"{call}: the timing run reported {describe_kind(report)}")
    did = f"\n  What it did: {_summary(events) or 'nothing'}"
    problem = timing_problem(events, device, repeats)
    if problem:
        raise Mismatch(f"{call} {problem}.{did}")
    # The harness's clock advanced ``tick`` seconds per work() call: exactly tick is right.
    per_call = (f"the clock advanced {tick * repeats!r} s over the {repeats} timed calls: "
                f"{tick!r} s per call, as a float{did}")
    expect_float(call, report.get("value"), tick, rtol=1e-9, atol=1e-9, why=per_call)


# --- 4. pack --------------------------------------------------------------------------


def _meta_entry(call: str, k: int, entry) -> tuple:
    """One ``(dtype, shape, offset)`` of the student's meta, sizes and offset as ints."""
    if isinstance(entry, (list, tuple)) and len(entry) == 3 and \
            isinstance(entry[0], torch.dtype) and isinstance(entry[1], (list, tuple)):
        # Ints only: a bool offset or a float size would compare equal to torch's int.
        shape, offset = tuple(map(as_int, entry[1])), as_int(entry[2])
        if None not in shape and offset is not None:
            return entry[0], shape, offset
    raise Mismatch(f"{call}: meta[{k}] is {entry!r:.80}; expected (dtype, shape, offset), "
                   f"the sizes and the offset as ints")


def _as_meta(call: str, meta, count: int) -> list[tuple]:
    """The student's meta as ``(dtype, shape, offset)`` tuples, or a Mismatch saying why not."""
    entries = meta if isinstance(meta, (list, tuple)) else None
    if entries is None or len(entries) != count:
        raise Mismatch(f"{call}: meta is {describe_kind(meta)}; expected a list of {count} "
                       f"(dtype, shape, offset) entries")
    return [_meta_entry(call, k, entry) for k, entry in enumerate(entries)]


def _expect_packed(call: str, result, tensors: list, packed, reported: bool = False) -> None:
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Mismatch(f"{call} returned {describe_kind(result)}; expected (buffer, meta)")
    buffer, meta = result
    truth, true_meta = packed
    buffer = fetched(f"{call}: the buffer", buffer) if reported else buffer
    buffer = expect_like(call, buffer, truth, device=True, what="the buffer")
    if not buffer.is_contiguous():
        raise Mismatch(f"{call}: the buffer is not contiguous; one copy must move it whole")
    meta = _as_meta(call, meta, len(tensors))
    for k, (mine, right) in enumerate(zip(meta, true_meta)):
        if mine != right:
            raise Mismatch(f"{call}: meta[{k}] is {mine}; expected {right} "
                           f"(slots follow one another, each padded to a multiple of {ALIGN})")
    differ = None if truth.device.type == "meta" else first_difference(buffer, truth)
    if differ is not None:
        slot = max(k for k, (_, _, offset) in enumerate(true_meta) if offset <= differ[0])
        raise Mismatch(f"{call}: wrong bytes in tensor {slot}'s slot (its elements in "
                       f"row-major order, then zeros); tensor {slot} is "
                       f"{describe_kind(tensors[slot])}, stride {tensors[slot].stride()}")


def _describe_list(tensors: list) -> str:
    return "[" + ", ".join(f"<{t.device.type} {t.dtype} {tuple(t.shape)} stride {t.stride()}>"
                           for t in tensors) + "]"


@public_check("pack", pack_examples, stored=True)
def compare_pack(fn, tensors, *, truth):
    """``truth``: torch's ``(buffer, meta)`` for ``tensors``."""
    _expect_packed(f"pack({_describe_list(tensors)})", fn(tensors), tensors, truth)


def pack_on_cuda(fn, tensors, *, truth):
    call = f"pack({_describe_list(tensors)}) on cuda"
    _expect_packed(call, on_cuda(fn, [tensors], [0]), tensors, truth, reported=True)


# --- 5. unpack ------------------------------------------------------------------------


def placed_buffer(packed: tuple, lead: int) -> tuple[torch.Tensor, list]:
    """``packed``, a ``(buffer, meta)``, the buffer moved to start ``lead`` bytes into a
    larger storage."""
    buffer, meta = packed
    room = torch.zeros(lead + buffer.numel() + ALIGN, dtype=torch.uint8, device=buffer.device)
    room[lead:lead + buffer.numel()] = buffer
    return room[lead:lead + buffer.numel()], meta


def _expect_unpacked(call: str, result, tensors: list, buffer, reported: bool = False) -> None:
    if not isinstance(result, (list, tuple)) or len(result) != len(tensors):
        raise Mismatch(f"{call} returned {describe_kind(result)}; expected a list of "
                       f"{len(tensors)} tensors")
    for k, (mine, original) in enumerate(zip(result, tensors)):
        where = f"{call}, tensor {k}"
        view = mine[3] is True if reported and isinstance(mine, list) and len(mine) == 4 \
            else None
        mine = fetched(where, mine) if reported else mine
        mine = expect_tensor(where, mine, original, device=True)  # original: on buffer's device
        if original.device.type == "meta":
            continue
        if not (view if reported else shares_storage(mine, buffer)):
            raise Mismatch(f"{where} is a copy; return a view of the buffer (no copy: the "
                           f"buffer was moved once, its tensors should not move again)")


@public_check("unpack", unpack_examples, stored=True)
def compare_unpack(fn, tensors, lead, *, truth):
    """``truth``: torch's ``(buffer, meta)`` for ``tensors``, what unpack takes apart (placed
    ``lead`` bytes into its storage); its answer is ``tensors`` themselves."""
    buffer, meta = placed_buffer(truth, lead)
    call = f"unpack(buffer, meta) with meta = {meta}"[:300]
    _expect_unpacked(call, fn(buffer, meta), tensors, buffer)


def unpack_on_cuda(fn, tensors, *, truth):
    buffer, meta = placed_buffer(truth, 0)
    call = f"unpack(buffer, meta) on cuda with meta = {meta}"[:300]
    _expect_unpacked(call, on_cuda(fn, [buffer, meta], [0]), tensors, buffer, reported=True)


def time_device_work_on_cuda(fn, repeats: int, cycles: int):
    """Time a real CUDA kernel that runs ``cycles`` clock cycles after it is launched."""
    report = fn.harness(cuda_sleep_harness, repeats, cycles)
    if not isinstance(report, dict):
        raise Mismatch(f"the CUDA timing run reported {describe_kind(report)}")
    if "skip" in report:
        raise CudaUnavailable(str(report["skip"]))
    value, reference = report.get("value"), report.get("reference")
    if not isinstance(value, float) or not isinstance(reference, float):
        raise Mismatch(f"time_device_work on cuda returned {value!r:.60}; expected a float")
    if not 0.5 * reference <= value <= 3 * reference + 0.005:
        raise Mismatch(f"time_device_work on cuda says {value:.6f} s per call of a kernel "
                       f"that runs {reference:.6f} s: it does not wait for the GPU")
