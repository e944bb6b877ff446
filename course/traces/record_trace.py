"""Record the trace chapter 4 draws: three scenes under torch.profiler, on the best device.

    python course/traces/record_trace.py OUT.json

The device is CUDA when it is available, else the CPU. Each scene runs inside
``torch.profiler.record_function(name)``:

1. ``queue: 20 matmuls, no sync``: 20 matrix products queued one after another, one
   ``synchronize()`` at the end (on the CPU each product runs inside its call).
2. ``copy: pageable then pinned``: 64 MiB copied host -> device with
   ``non_blocking=True``, first from ordinary (pageable) memory, then from pinned
   memory (on the CPU nothing can be pinned: both copies are the same memcpy).
3. ``stale read: non_blocking device->host without sync``: matrix products queued,
   then a copy device -> pinned host buffer with ``non_blocking=True`` behind them;
   the buffer is read at once and again after ``synchronize()``. Whether the first
   read saw the old value is recorded.

The Chrome trace is trimmed to what the figure reads (``anatomy_widgets._timeline.
trimmed``: no host name, no Python frames) and gets a ``tensor_anatomy`` dict: the
device's name, torch's version, the date, and whether the stale read was observed.
"""

from __future__ import annotations

import datetime
import json
import sys
import tempfile
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile, record_function

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the package is the repo's
from anatomy_widgets._timeline import trimmed  # noqa: E402

# ASCII only: torch 2.13's export_chrome_trace writes a name with any other character
# as "unknown" (measured: "device→host" came back so).
SCENES = ("queue: 20 matmuls, no sync", "copy: pageable then pinned",
          "stale read: non_blocking device->host without sync")  # fmt: skip
COPY_BYTES = 64 * 2**20
# Large enough on a GPU that the queue runs well behind the host (2048³ products take
# a fraction of a millisecond each on a recent GPU); small on the CPU, where each
# product runs inside its call and 20 of them at 2048 would take seconds.
SIZES = {"cuda": 2048, "cpu": 512}


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _inputs(device: torch.device) -> dict:
    """Everything the scenes use, made before the profiler starts: the trace shows the
    scenes only (making 64 MiB of random numbers takes longer than all three)."""
    size = SIZES[device.type]
    pageable = torch.randn(COPY_BYTES // 4)
    return {"a": torch.randn(size, size, device=device), "pageable": pageable,
            "pinned": pageable.pin_memory() if device.type == "cuda" else pageable,
            "there": torch.empty(pageable.shape, device=device),
            "source": torch.full((1024,), 7.0, device=device),
            "destination": torch.zeros(1024, pin_memory=device.type == "cuda")}


def _queue(device: torch.device, a: torch.Tensor) -> None:
    with record_function(SCENES[0]):
        for _ in range(20):
            a @ a
        _sync(device)  # once, at the end: the host waits here for the whole queue


def _copies(device: torch.device, there, pageable, pinned) -> None:
    with record_function(SCENES[1]):
        there.copy_(pageable, non_blocking=True)
        there.copy_(pinned, non_blocking=True)
        _sync(device)


def _stale_read(device: torch.device, a, source, destination) -> bool:
    """Whether a read right after a non_blocking copy to the host saw the old value."""
    with record_function(SCENES[2]):
        for _ in range(5):
            a @ a  # queued work the copy waits behind (on the CPU: already done)
        destination.copy_(source, non_blocking=True)
        early = destination[0].item()
        _sync(device)
        late = destination[0].item()
    return early != late


def _scenes(device: torch.device, x: dict) -> bool:
    """Run the three scenes once on inputs ``x``; whether the stale read was observed."""
    _queue(device, x["a"])
    _copies(device, x["there"], x["pageable"], x["pinned"])
    return _stale_read(device, x["a"], x["source"], x["destination"])


def _metadata(device: torch.device, stale: bool) -> dict:
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    return {"device": name, "torch": torch.__version__,
            "date": datetime.date.today().isoformat(), "stale_read_observed": stale,
            "matmul_size": SIZES[device.type], "copy_mib": COPY_BYTES // 2**20,
            "pinned": device.type == "cuda", "recorded_by": "course/traces/record_trace.py"}


def record(out: Path) -> dict:
    """Record the scenes on the best device into ``out``; the trace written, as a dict."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda"
                                           else [])  # fmt: skip
    _scenes(device, _inputs(device))  # warm-up: CUDA's context, cuBLAS, the allocator
    inputs = _inputs(device)  # fresh: the warm-up's destination already holds the copy
    with profile(activities=activities) as prof:
        stale = _scenes(device, inputs)
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "trace.json"
        prof.export_chrome_trace(str(raw))
        trace = trimmed(json.loads(raw.read_text(encoding="utf-8")))
    trace["tensor_anatomy"] = _metadata(device, stale)
    out.write_text(json.dumps(trace, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return trace


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    trace = record(out)
    meta = trace["tensor_anatomy"]
    print(f"{out}: {len(trace['traceEvents'])} events on {meta['device']}, "
          f"stale read observed: {meta['stale_read_observed']}, {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
