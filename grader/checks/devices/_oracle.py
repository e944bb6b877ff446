"""Torch as the oracle for chapter 4 (devices), and readable reports.

Truths computed by torch: what ``.to`` makes of each tensor of a batch, the
causal mask; and the rules a timing function must follow, checked against the
events its harness recorded. The byte layout of a packed buffer is the pack
exercise itself: it lives on the judge's side only
(``grader.hidden.devices.oracles``).
"""

import torch

from .._compare import as_plain, expect_tensor, is_tensor, shares_storage
from .._registry import Mismatch
from .._test_cell import fill, translate
from ._harnesses import cuda_call_harness

__all__ = [
    "CudaUnavailable",
    "on_cuda",
    "fetched",
    "is_namedtuple",
    "describe_kind",
    "expect_moved",
    "torch_causal_mask",
    "timing_problem",
]


def is_namedtuple(value) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def describe_kind(value) -> str:
    """What a value is, in a few words: its container kind or type, and a tensor's device."""
    if is_tensor(value):
        t = as_plain(value)  # a subclass's own .device or .shape could say anything
        return fill(translate("a {device} tensor of shape {shape}, {dtype}", "checks"),
                    device=t.device.type, shape=tuple(t.shape), dtype=t.dtype)
    if is_namedtuple(value):
        return fill(translate("a namedtuple {name}{fields}", "checks"),
                    name=type(value).__name__, fields=tuple(type(value)._fields))
    if type(value) in (list, tuple, dict):
        return fill(translate("a {kind} of {count}", "checks"), kind=type(value).__name__,
                    count=len(value))
    return f"{type(value).__name__} {value!r:.40}"


# --- CUDA, through cuda_call_harness ---------------------------------------------------


class CudaUnavailable(Exception):
    """CUDA does not work in the student's process: a GPU check cannot run there."""


def on_cuda(fn, args: list, to_cuda: list[int]):
    """``fn(*args)`` run on CUDA by ``cuda_call_harness``; its result, tensors reported."""
    report = fn.harness(cuda_call_harness, args, to_cuda)
    if not isinstance(report, dict):
        raise Mismatch(fill(translate("the CUDA run reported {kind}", "checks"),
                            kind=describe_kind(report)))
    if "skip" in report:
        raise CudaUnavailable(str(report["skip"]))
    return report.get("result")


def fetched(where: str, value) -> torch.Tensor:
    """The CPU copy of a tensor ``cuda_call_harness`` reported; it must have been on CUDA."""
    if not (isinstance(value, list) and len(value) == 4 and value[0] == "tensor"
            and is_tensor(value[2])):
        raise Mismatch(fill(translate("{where} is {kind}; expected a tensor", "checks"),
                            where=where, kind=describe_kind(value)))
    if value[1] != "cuda":
        raise Mismatch(fill(translate("{where} is on {device}; expected cuda", "checks"),
                            where=where, device=value[1]))
    return value[2]


# --- to_device ------------------------------------------------------------------------


def _expect_tensor_moved(result, original: torch.Tensor, device: torch.device, path: str):
    reported = device.type == "cuda"  # by cuda_call_harness: copied back to the CPU
    result = fetched(path, result) if reported else result
    truth = original if reported else original.to(device)  # on meta: no values to compare
    moved = expect_tensor("", result, truth, device=True, what=path)
    if device.type == original.device.type == "cpu" and (
            not shares_storage(moved, original)
            or moved.storage_offset() != original.storage_offset()):
        raise Mismatch(fill(translate("{path} was already on cpu, yet you returned a copy: "
                                      ".to(device) returns the very same tensor then", "checks"),
                            path=path))


def expect_moved(result, original, device: torch.device, path: str = "batch") -> None:
    """``result`` must be ``original`` with every tensor moved to ``device``: same
    containers (types, namedtuple names and fields, dict keys in order), other values equal."""
    if isinstance(original, torch.Tensor):
        return _expect_tensor_moved(result, original, device, path)
    if is_namedtuple(original):
        same = is_namedtuple(result) and type(result).__name__ == type(original).__name__ \
            and result._fields == original._fields
        items, labels = list(original), [f".{f}" for f in original._fields]
    elif type(original) in (list, tuple):
        same = type(result) is type(original) and not is_namedtuple(result) \
            and len(result) == len(original)
        items, labels = list(original), [f"[{i}]" for i in range(len(original))]
    elif type(original) is dict:
        same = type(result) is dict and list(result) == list(original)
        items, labels = list(original.values()), [f"[{k!r}]" for k in original]
    else:
        if type(result) is not type(original) or result != original:
            raise Mismatch(fill(translate("{path} should stay {original}; you returned "
                                          "{result}", "checks"),
                                path=path, original=describe_kind(original),
                                result=describe_kind(result)))
        return None
    if not same:
        raise Mismatch(fill(translate("{path} is {original}: keep that container (same kind, "
                                      "same keys or fields); you returned {result}", "checks"),
                            path=path, original=describe_kind(original),
                            result=describe_kind(result)))
    results = result.values() if type(original) is dict else result
    for label, item, moved in zip(labels, items, results):
        expect_moved(moved, item, device, path + label)
    return None


# --- causal_mask ----------------------------------------------------------------------


def torch_causal_mask(scores: torch.Tensor) -> torch.Tensor:
    """On the CPU: 0 where key j <= query i, -inf above the diagonal, in ``scores.dtype``."""
    queries, keys = scores.shape[-2:]
    allowed = torch.ones(queries, keys, dtype=torch.bool).tril()
    return torch.zeros(queries, keys, dtype=scores.dtype).masked_fill(~allowed, float("-inf"))


# --- time_device_work -----------------------------------------------------------------


def _syncs_for(device: torch.device) -> set[str]:
    """The sync events (as the timing harness records them) that wait for ``device``;
    empty where there is nothing to wait for."""
    if device.type == "mps":
        return {"sync:mps:current", "sync:accelerator:current", "sync:accelerator:mps"}
    if device.type != "cuda":
        return set()
    named = {str(device), str(device.index)}
    if device.index in (None, 0):  # the current device, unless the program changed it
        named |= {"cuda", "cuda:0", "0", "current"}
    return {f"sync:{api}:{name}" for api in ("cuda", "accelerator") for name in named}


def _sync_problem(events: list[str], device: torch.device) -> str | None:
    syncs, right = [e for e in events if e.startswith("sync")], _syncs_for(device)
    if not right and syncs:
        return fill(translate("synchronises ({sync}) for {device} work: there is nothing to "
                              "wait for, and without CUDA torch.cuda.synchronize() raises",
                              "checks"), sync=syncs[0], device=device)
    wrong = [e for e in syncs if e not in right]
    if wrong:
        return fill(translate("waits with {sync} for {device} work; that does not wait for "
                              "{device} (torch.cuda.synchronize() waits for the current CUDA "
                              "device only)", "checks"), sync=wrong[0], device=device)
    return None


def _order_problem(events: list[str], device: torch.device, repeats: int) -> str | None:
    clocks = [i for i, e in enumerate(events) if e == "clock"]
    if len(clocks) != 2:
        return fill(translate("reads the clock {count} times; read it twice: to start and to "
                              "stop", "checks"), count=len(clocks))
    before, during = events[:clocks[0]], events[clocks[0] + 1:clocks[1]]
    if before.count("work") != 1:
        return fill(translate("calls work() {count} times before starting the clock; call it "
                              "exactly once first, untimed: the first call pays one-off costs",
                              "checks"), count=before.count("work"))
    if during.count("work") != repeats:
        return fill(translate("times {count} calls of work(); time exactly repeats={repeats}",
                              "checks"), count=during.count("work"), repeats=repeats)
    if events[clocks[1] + 1:]:
        return translate("does more after stopping the clock; stop it last", "checks")
    if not _syncs_for(device):
        return None
    if not before[-1].startswith("sync"):
        return fill(translate("starts the clock without synchronising: the warm-up may still be "
                              "running on the {device} device, and would be timed too",
                              "checks"), device=device.type)
    if not during[-1].startswith("sync"):
        return fill(translate("stops the clock without synchronising: {device} work is only "
                              "queued when work() returns, so that times the launches, not the "
                              "work", "checks"), device=device.type)
    if any(e.startswith("sync") for e in during[:-1]):
        return translate("synchronises inside the timed loop; once, just before stopping the "
                         "clock", "checks")
    return None


def timing_problem(events: list[str], device: torch.device, repeats: int) -> str | None:
    """What is wrong with the events a timing run recorded, or None (its value is checked
    against the harness's clock by the caller)."""
    other = [e for e in events if e.startswith("clock:")]
    if other:
        return fill(translate("reads {clock}(); use time.perf_counter(), the wall clock of "
                              "highest resolution, which also counts waiting for the device",
                              "checks"), clock=other[0].removeprefix("clock:"))
    return _sync_problem(events, device) or _order_problem(events, device, repeats)
