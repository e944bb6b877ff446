"""The lanes of a torch.profiler Chrome trace: what ran on the host, what on the device.

``torch.profiler.profile(...).export_chrome_trace(path)`` writes a dict whose
``traceEvents`` hold complete events (phase ``"X"``: a start ``ts`` and a ``dur``,
both in microseconds) with a category ``cat`` that kineto names after its activity
type: ``cpu_op`` (an aten op on the host), ``user_annotation`` (a
``record_function`` range), ``cuda_runtime`` / ``cuda_driver`` (the host's calls into
CUDA: launches, copies, synchronisation), ``kernel``, ``gpu_memcpy``, ``gpu_memset``
(work on the device) and ``gpu_user_annotation`` (a ``record_function`` range as the
device saw it). ``python_function`` events (``with_stack=True``) are left out: they
nest every Python call and would bury the ops. Everything here is plain data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LANES", "LANE_OF", "Event", "Scene", "Timeline", "load_trace", "timeline_of",
           "trimmed"]  # fmt: skip

LANES = ("host", "runtime", "device", "copy")  # drawn top to bottom
LANE_OF = {"cpu_op": "host", "cuda_runtime": "runtime", "cuda_driver": "runtime",
           "kernel": "device", "gpu_memcpy": "copy", "gpu_memset": "copy"}  # fmt: skip
SCENE_CATEGORIES = ("user_annotation", "gpu_user_annotation")
# What the lanes read from an event's args: the rest of a trace is noise for the figure.
KEPT_ARGS = ("correlation", "External id", "device", "stream", "bytes")
KEPT_KEYS = ("schemaVersion", "deviceProperties", "displayTimeUnit", "tensor_anatomy")


@dataclass(frozen=True)
class Event:
    """One complete event in a lane; times in µs after the trace's first event."""

    lane: str
    name: str
    start: float
    duration: float
    scene: str | None  # its record_function scene; for device work, the scene that launched it
    depth: int = 0  # how many events of its lane and thread enclose it (aten::mm in matmul: 1)

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True)
class Scene:
    """A ``record_function`` range on the host; times as in ``Event``."""

    name: str
    start: float
    duration: float

    @property
    def end(self) -> float:
        return self.start + self.duration

    def holds(self, start: float, end: float) -> bool:
        return self.start <= start and end <= self.end


@dataclass(frozen=True)
class Timeline:
    """A trace's lanes and scenes, and where it was recorded (from its metadata)."""

    events: tuple[Event, ...]
    scenes: tuple[Scene, ...]
    recorded_on: str  # a device name, or what the trace lacked to say one
    torch_version: str | None
    date: str | None
    stale_read: bool | None  # whether record_trace.py's early read saw the old value

    def lane(self, name: str) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.lane == name)

    @property
    def lanes_found(self) -> tuple[str, ...]:
        return tuple(lane for lane in LANES if self.lane(lane))

    @property
    def on_device(self) -> bool:
        """Whether the trace holds any work the device itself ran (kernels or copies)."""
        return any(e.lane in ("device", "copy") for e in self.events)

    @property
    def span(self) -> float:
        return max((e.end for e in (*self.events, *self.scenes)), default=0.0)


def load_trace(trace) -> dict:
    """A trace as a dict: ``trace`` is one already, or the path of a Chrome trace file."""
    if isinstance(trace, dict):
        return trace
    return json.loads(Path(trace).read_text(encoding="utf-8"))


def _complete(trace: dict) -> list[dict]:
    """The complete events the lanes and scenes are made of, each once, by start time."""
    wanted = set(LANE_OF) | set(SCENE_CATEGORIES)
    seen, events = set(), []
    for e in trace.get("traceEvents", []):
        # kineto writes each user_annotation twice (same name, ts, dur): keep one
        key = (e.get("cat"), e.get("name"), e.get("ts"), e.get("dur"), e.get("tid"))
        if e.get("ph") == "X" and e.get("cat") in wanted and key not in seen:
            seen.add(key)
            events.append(e)
    return sorted(events, key=lambda e: (float(e["ts"]), -float(e.get("dur", 0))))


def trimmed(trace: dict) -> dict:
    """What the figure needs of a trace, and nothing else (no host name, no flow arrows)."""
    events = [{**{k: e[k] for k in ("ph", "cat", "name", "pid", "tid", "ts", "dur") if k in e},
               "args": {k: v for k, v in e.get("args", {}).items() if k in KEPT_ARGS}}
              for e in _complete(trace)]  # fmt: skip
    return {**{k: trace[k] for k in KEPT_KEYS if k in trace}, "traceEvents": events}


def _depths(events: list[dict]) -> list[int]:
    """Nesting depth of each event within its lane and thread (events sorted by start)."""
    open_ends: dict[tuple, list[float]] = {}
    depths = []
    for e in events:
        stack = open_ends.setdefault((LANE_OF[e["cat"]], e.get("pid"), e.get("tid")), [])
        end = float(e["ts"]) + float(e.get("dur", 0))
        while stack and stack[-1] <= float(e["ts"]):  # closed before this one starts
            stack.pop()
        depths.append(len(stack))
        stack.append(end)
    return depths


def _scene_of(start: float, end: float, scenes: list[Scene]) -> str | None:
    """The innermost scene holding [start, end], if any."""
    holding = [s for s in scenes if s.holds(start, end)]
    return min(holding, key=lambda s: s.duration).name if holding else None


def _launcher_scenes(events: list[dict], origin: float, scenes: list[Scene]) -> dict:
    """correlation id -> the scene of the runtime call that launched it (kineto pairs a
    kernel or copy with its launch by ``args.correlation``)."""
    found = {}
    for e in events:
        correlation = e.get("args", {}).get("correlation")
        if LANE_OF.get(e["cat"]) == "runtime" and correlation is not None:
            start = float(e["ts"]) - origin
            found[correlation] = _scene_of(start, start + float(e.get("dur", 0)), scenes)
    return found


def _device_scene(e: dict, start: float, launched: dict, device_scenes: list[Scene]):
    """A device event's scene: its launcher's, else the device-side range around it."""
    correlation = e.get("args", {}).get("correlation")
    if launched.get(correlation) is not None:
        return launched[correlation]
    return _scene_of(start, start + float(e.get("dur", 0)), device_scenes)


def _scenes(events: list[dict], origin: float, category: str) -> list[Scene]:
    return [Scene(e["name"], float(e["ts"]) - origin, float(e.get("dur", 0)))
            for e in events if e["cat"] == category]  # fmt: skip


def _where(trace: dict) -> tuple[str, str | None, str | None, bool | None]:
    """(device name, torch version, date, stale read) from the metadata the trace carries."""
    ours = trace.get("tensor_anatomy", {})
    devices = [d.get("name") for d in trace.get("deviceProperties", []) if d.get("name")]
    name = ours.get("device") or (devices[0] if devices else "an unnamed device "
                                  "(the trace carries no device name)")  # fmt: skip
    return name, ours.get("torch"), ours.get("date"), ours.get("stale_read_observed")


def timeline_of(trace) -> Timeline:
    """The lanes of ``trace`` (a dict, or a path to a Chrome trace file)."""
    trace = load_trace(trace)
    events = _complete(trace)
    origin = min((float(e["ts"]) for e in events), default=0.0)
    host_scenes = _scenes(events, origin, "user_annotation")
    device_scenes = _scenes(events, origin, "gpu_user_annotation")
    launched = _launcher_scenes(events, origin, host_scenes)
    in_lanes = [e for e in events if e["cat"] in LANE_OF]
    lanes = []
    for e, depth in zip(in_lanes, _depths(in_lanes)):
        lane, start, duration = LANE_OF[e["cat"]], float(e["ts"]) - origin, float(e.get("dur", 0))
        scene = (_device_scene(e, start, launched, device_scenes) if lane in ("device", "copy")
                 else _scene_of(start, start + duration, host_scenes))  # fmt: skip
        lanes.append(Event(lane, e["name"], start, duration, scene, depth))
    return Timeline(tuple(lanes), tuple(host_scenes), *_where(trace))
