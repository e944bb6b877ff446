"""Harnesses for chapter 4 (devices): facts gathered beside the student's function.

A timing function's calls to the clock and to ``synchronize`` cannot cross the
wire, and neither can a CUDA tensor, so these functions run where the
student's function lives (see ``grader._harness``). Only their source travels:
each imports what it needs in its body and uses no globals. They report facts
(events, device types, values copied back to the CPU); every verdict is the
judge's.
"""

__all__ = [
    "timing_harness",
    "cuda_sleep_harness",
    "cuda_call_harness",
]


def timing_harness(student_fn, device, repeats, tick, available):
    """Call ``student_fn(work, device, repeats)`` with a recording clock, syncs and ``work``.

    During the call ``time.perf_counter`` reads a fake clock that advances ``tick``
    seconds per ``work()`` call; the synchronize functions of ``torch.cuda``,
    ``torch.mps`` and ``torch.accelerator`` only record themselves and their argument
    (``sync:cuda:1``); other clocks are recorded as such; ``is_available`` of CUDA and
    MPS says what ``available`` lists, whatever this machine has. Names the student
    imported (``from time import perf_counter``) are swapped in its globals too.
    Returns ``{"events": [...], "value": the result as a float, or what it was}``.
    """
    import threading
    import time
    import timeit

    import torch

    events, works, caller = [], [0], threading.get_ident()

    def now():
        return 1000.0 + tick * works[0]

    def recorder(label, original, reading=now):
        def record(*args, **kwargs):
            if threading.get_ident() != caller:  # a kernel's own threads read clocks too
                return original(*args, **kwargs)
            if label.startswith("sync"):
                target = args[0] if args else kwargs.get("device")
                events.append(f"{label}:{'current' if target is None else target}")
                return None
            events.append(label)
            return reading()
        return record

    def work():
        works[0] += 1
        events.append("work")

    clocks = [("perf_counter", "clock", now),
              ("perf_counter_ns", "clock", lambda: round(now() * 1e9))]
    clocks += [(name, f"clock:time.{name}", now)
               for name in ("time", "monotonic", "process_time", "time_ns", "monotonic_ns")]
    patches = [(time, name, recorder(label, getattr(time, name), reading))
               for name, label, reading in clocks]
    patches += [(timeit, "default_timer", recorder("clock", timeit.default_timer))]
    patches += [(module, "synchronize", recorder(f"sync:{label}", module.synchronize))
                for module, label in [(torch.cuda, "cuda"), (torch.mps, "mps"),
                                      (torch.accelerator, "accelerator")]]
    patches += [(torch.cuda, "is_available", lambda: "cuda" in available),
                (torch.backends.mps, "is_available", lambda: "mps" in available)]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    swaps = {id(getattr(owner, name)): new for owner, name, new in patches}
    names = getattr(student_fn, "__globals__", {})
    imported = {key: value for key, value in names.items() if id(value) in swaps}
    try:
        for owner, name, new in patches:
            setattr(owner, name, new)
        names.update({key: swaps[id(value)] for key, value in imported.items()})
        result = student_fn(work, device, repeats)
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
        names.update(imported)
    number = isinstance(result, (int, float)) and not isinstance(result, bool)
    return {"events": events, "value": float(result) if number else type(result).__name__}


def cuda_sleep_harness(student_fn, repeats, cycles):
    """Time a real asynchronous CUDA kernel (``torch.cuda._sleep``) with ``student_fn``.

    Returns ``{"value": seconds per call it reported, "reference": one kernel's
    duration by CUDA events}``, or ``{"skip": why}`` where CUDA does not work here.
    """
    import torch

    try:
        torch.cuda.synchronize()
        start, stop = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        torch.cuda._sleep(cycles)  # warm
        start.record()
        torch.cuda._sleep(cycles)
        stop.record()
        torch.cuda.synchronize()
        reference = start.elapsed_time(stop) / 1000
    except Exception as exc:  # noqa: BLE001 - no CUDA in this process: the check is skipped
        return {"skip": f"CUDA does not work in the student's process "
                        f"({type(exc).__name__}: {str(exc)[:200]})"}
    value = student_fn(lambda: torch.cuda._sleep(cycles), torch.device("cuda"), repeats)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"value": float(value), "reference": reference}
    return {"value": f"a {type(value).__name__}, not a number", "reference": reference}


def cuda_call_harness(student_fn, args, to_cuda):
    """Call ``student_fn(*args)`` with the tensors of each argument index in ``to_cuda``
    moved to CUDA.

    Returns ``{"result": ...}`` where every tensor of the result is replaced by
    ``["tensor", device type, the tensor on the CPU, shares storage with a CUDA
    argument]``, or ``{"skip": why}`` where CUDA does not work here.
    """
    import torch

    try:
        torch.zeros(1, device="cuda")
    except Exception as exc:  # noqa: BLE001 - no CUDA in this process: the check is skipped
        return {"skip": f"CUDA does not work in the student's process "
                        f"({type(exc).__name__}: {str(exc)[:200]})"}

    def move(value):
        if isinstance(value, torch.Tensor):
            return value.to("cuda")
        if isinstance(value, tuple) and hasattr(type(value), "_fields"):
            return type(value)(*(move(v) for v in value))
        if isinstance(value, (list, tuple)):
            return type(value)(move(v) for v in value)
        if isinstance(value, dict):
            return {k: move(v) for k, v in value.items()}
        return value

    def tensors_in(value):
        if isinstance(value, torch.Tensor):
            return [value]
        items = value.values() if isinstance(value, dict) else \
            value if isinstance(value, (list, tuple)) else []
        return [t for item in items for t in tensors_in(item)]

    moved = [move(a) if i in to_cuda else a for i, a in enumerate(args)]
    storages = {t.untyped_storage().data_ptr() for a in moved for t in tensors_in(a)}

    def report(value):
        if isinstance(value, torch.Tensor):
            shared = value.device.type == "cuda" and value.untyped_storage().data_ptr() in storages
            return ["tensor", value.device.type, value.detach().cpu(), shared]
        if isinstance(value, tuple) and hasattr(type(value), "_fields"):
            return type(value)(*(report(v) for v in value))
        if isinstance(value, (list, tuple)):
            return type(value)(report(v) for v in value)
        if isinstance(value, dict):
            return {k: report(v) for k, v in value.items()}
        return value

    return {"result": report(student_fn(*moved))}
