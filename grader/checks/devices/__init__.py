"""Chapter 4, devices: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` runs the student's ``fn`` (through a
harness where a clock or a CUDA tensor must stay on the student's side), asks
torch for the truth, and raises ``Mismatch`` with a small counterexample when
they disagree. The hidden checks (``grader/hidden/devices/test.py``) reuse
these functions on hypothesis-generated inputs. Structure is checked on the
``meta`` device, which holds no memory, so grading is the same with or without
a GPU; the ``*_on_cuda`` variants run only where CUDA works.

pack's truth is the exercise itself (the packing algorithm), and unpack's input
is what pack makes: their comparisons take it as ``truth=``, from
``grader.hidden.devices.oracles`` in the judge and stored with the public
examples at release in the student's kernel (``stored=True``).
"""

import torch

from ...givens.devices import ALIGN
from .._compare import (
    as_int,
    expect_float,
    expect_like,
    expect_tensor,
    first_difference,
    is_tensor,
    shares_storage,
)
from .._registry import Mismatch, public_check
from .._test_cell import fill, translate
from ._examples import (
    causal_mask_examples,
    pack_examples,
    pack_redrawn,
    time_device_work_examples,
    time_device_work_redrawn,
    to_device_examples,
    unpack_examples,
    unpack_redrawn,
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
        raise Mismatch(fill(translate("{call}: {error}", "checks"),
                            call=f"to_device({_describe_batch(batch)}, {device})",
                            error=err)) from None


def to_device_on_cuda(fn, batch):
    """``to_device(batch, cuda)`` on a machine with CUDA (may raise ``CudaUnavailable``)."""
    result = on_cuda(fn, [batch, torch.device("cuda")], [])
    try:
        expect_moved(result, batch, torch.device("cuda"))
    except Mismatch as err:
        raise Mismatch(fill(translate("{call}: {error}", "checks"),
                            call=f"to_device({_describe_batch(batch)}, cuda)",
                            error=err)) from None


# --- 2. causal_mask -------------------------------------------------------------------


def _expect_mask(call: str, mask, scores: torch.Tensor, device_type: str) -> None:
    truth = torch_causal_mask(scores).to(device_type)  # on meta: no values to compare
    mask = expect_like(call, mask, truth, device=True)
    if mask.requires_grad:
        raise Mismatch(fill(translate("{call} requires grad: a mask is a constant, so build it "
                                      "with a factory (device=, dtype=), not out of scores",
                                      "checks"), call=call))
    expect_tensor(call, mask, truth, device=True)


@public_check("causal_mask", causal_mask_examples)
def compare_causal_mask(fn, scores):
    call = _mask_call(scores.device.type, scores)
    _expect_mask(call, fn(scores), scores, scores.device.type)


def _mask_call(device_type: str, scores) -> str:
    return fill(translate("{call} for {device} scores of shape {shape}, {dtype}", "checks"),
                call="causal_mask(scores)", device=device_type, shape=tuple(scores.shape),
                dtype=scores.dtype)


def causal_mask_on_cuda(fn, scores):
    call = _mask_call("cuda", scores)
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


@public_check("time_device_work", time_device_work_examples, redraw=time_device_work_redrawn)
def compare_time_device_work(fn, device, repeats, tick, available):
    call = f"time_device_work(work, {device}, repeats={repeats})"
    report = fn.harness(timing_harness, device, repeats, tick, available)
    events = report.get("events") if isinstance(report, dict) else None
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise Mismatch(fill(translate("{call}: the timing run reported {kind}", "checks"),
                            call=call, kind=describe_kind(report)))
    did = fill(translate("\n  What it did: {events}", "checks"),
               events=_summary(events) or translate("nothing", "checks"))
    problem = timing_problem(events, device, repeats)
    if problem:
        raise Mismatch(fill(translate("{call} {problem}.{did}", "checks"), call=call,
                            problem=problem, did=did))
    # The harness's clock advanced ``tick`` seconds per work() call: exactly tick is right.
    per_call = fill(translate("the clock advanced {total!r} s over the {repeats} timed calls: "
                              "{tick!r} s per call, as a float{did}", "checks"),
                    total=tick * repeats, repeats=repeats, tick=tick, did=did)
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
    raise Mismatch(fill(translate("{call}: meta[{k}] is {entry!r:.80}; expected (dtype, shape, "
                                  "offset), the sizes and the offset as ints", "checks"),
                        call=call, k=k, entry=entry))


def _as_meta(call: str, meta, count: int) -> list[tuple]:
    """The student's meta as ``(dtype, shape, offset)`` tuples, or a Mismatch saying why not."""
    entries = meta if isinstance(meta, (list, tuple)) else None
    if entries is None or len(entries) != count:
        raise Mismatch(fill(translate("{call}: meta is {kind}; expected a list of {count} "
                                      "(dtype, shape, offset) entries", "checks"),
                            call=call, kind=describe_kind(meta), count=count))
    return [_meta_entry(call, k, entry) for k, entry in enumerate(entries)]


def _expect_packed(call: str, result, tensors: list, packed, reported: bool = False) -> None:
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Mismatch(fill(translate("{call} returned {kind}; expected (buffer, meta)",
                                      "checks"), call=call, kind=describe_kind(result)))
    buffer, meta = result
    truth, true_meta = packed
    the_buffer = translate("the buffer", "checks")
    if reported:
        buffer = fetched(fill(translate("{call}: {what}", "checks"), call=call, what=the_buffer),
                         buffer)
    buffer = expect_like(call, buffer, truth, device=True, what=the_buffer)
    if not buffer.is_contiguous():
        raise Mismatch(fill(translate("{call}: the buffer is not contiguous; one copy must move "
                                      "it whole", "checks"), call=call))
    meta = _as_meta(call, meta, len(tensors))
    for k, (mine, right) in enumerate(zip(meta, true_meta)):
        if mine != right:
            raise Mismatch(fill(translate("{call}: meta[{k}] is {mine}; expected {right} (slots "
                                          "follow one another, each padded to a multiple of "
                                          "{align})", "checks"),
                                call=call, k=k, mine=mine, right=right, align=ALIGN))
    differ = None if truth.device.type == "meta" else first_difference(buffer, truth)
    if differ is not None:
        slot = max(k for k, (_, _, offset) in enumerate(true_meta) if offset <= differ[0])
        raise Mismatch(fill(translate("{call}: wrong bytes in tensor {slot}'s slot (its elements "
                                      "in row-major order, then zeros); tensor {slot} is {kind}, "
                                      "stride {stride}", "checks"),
                            call=call, slot=slot, kind=describe_kind(tensors[slot]),
                            stride=tensors[slot].stride()))


def _describe_list(tensors: list) -> str:
    each = translate("<{device} {dtype} {shape} stride {stride}>", "checks")
    return "[" + ", ".join(fill(each, device=t.device.type, dtype=t.dtype, shape=tuple(t.shape),
                                stride=t.stride()) for t in tensors) + "]"


@public_check("pack", pack_examples, stored=True, redraw=pack_redrawn)
def compare_pack(fn, tensors, *, truth):
    """``truth``: torch's ``(buffer, meta)`` for ``tensors``."""
    _expect_packed(f"pack({_describe_list(tensors)})", fn(tensors), tensors, truth)


def pack_on_cuda(fn, tensors, *, truth):
    call = fill(translate("{call} on cuda", "checks"), call=f"pack({_describe_list(tensors)})")
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
        raise Mismatch(fill(translate("{call} returned {kind}; expected a list of {count} "
                                      "tensors", "checks"),
                            call=call, kind=describe_kind(result), count=len(tensors)))
    for k, (mine, original) in enumerate(zip(result, tensors)):
        where = fill(translate("{call}, tensor {k}", "checks"), call=call, k=k)
        view = mine[3] is True if reported and isinstance(mine, list) and len(mine) == 4 \
            else None
        mine = fetched(where, mine) if reported else mine
        mine = expect_tensor(where, mine, original, device=True)  # original: on buffer's device
        if original.device.type == "meta":
            continue
        if not (view if reported else shares_storage(mine, buffer)):
            raise Mismatch(fill(translate("{where} is a copy; return a view of the buffer (no "
                                          "copy: the buffer was moved once, its tensors should "
                                          "not move again)", "checks"), where=where))


@public_check("unpack", unpack_examples, stored=True, redraw=unpack_redrawn)
def compare_unpack(fn, tensors, lead, *, truth):
    """``truth``: torch's ``(buffer, meta)`` for ``tensors``, what unpack takes apart (placed
    ``lead`` bytes into its storage); its answer is ``tensors`` themselves."""
    buffer, meta = placed_buffer(truth, lead)
    call = fill(translate("{call} with meta = {meta}", "checks"), call="unpack(buffer, meta)",
                meta=meta)[:300]
    _expect_unpacked(call, fn(buffer, meta), tensors, buffer)


def unpack_on_cuda(fn, tensors, *, truth):
    buffer, meta = placed_buffer(truth, 0)
    call = fill(translate("{call} on cuda with meta = {meta}", "checks"),
                call="unpack(buffer, meta)", meta=meta)[:300]
    _expect_unpacked(call, on_cuda(fn, [buffer, meta], [0]), tensors, buffer, reported=True)


def time_device_work_on_cuda(fn, repeats: int, cycles: int):
    """Time a real CUDA kernel that runs ``cycles`` clock cycles after it is launched."""
    report = fn.harness(cuda_sleep_harness, repeats, cycles)
    if not isinstance(report, dict):
        raise Mismatch(fill(translate("the CUDA timing run reported {kind}", "checks"),
                            kind=describe_kind(report)))
    if "skip" in report:
        raise CudaUnavailable(str(report["skip"]))
    value, reference = report.get("value"), report.get("reference")
    if not isinstance(value, float) or not isinstance(reference, float):
        raise Mismatch(fill(translate("time_device_work on cuda returned {value!r:.60}; "
                                      "expected a float", "checks"), value=value))
    if not 0.5 * reference <= value <= 3 * reference + 0.005:
        raise Mismatch(fill(translate("time_device_work on cuda says {value:.6f} s per call of a "
                                      "kernel that runs {reference:.6f} s: it does not wait for "
                                      "the GPU", "checks"), value=value, reference=reference))
