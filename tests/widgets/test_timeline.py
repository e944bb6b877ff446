"""The profiler timeline: its lanes checked against a trace torch.profiler records here.

torch is the oracle: a tiny trace is recorded in the test (on the CPU, as on this
machine) and every lane event must be one torch wrote, inside the scene its
``record_function`` opened. A trace shaped like a CUDA one (kineto's categories and
correlation ids, written by hand: no GPU here) must fill the device and copy lanes,
and the figure must call a trace without device work a CPU trace, and only such one.
"""

import collections
import importlib.util
import json

import pytest
import torch
from support import ROOT
from torch.profiler import profile, record_function

from anatomy_widgets import profiler_timeline
from anatomy_widgets._timeline import KEPT_KEYS, LANE_OF, LANES, timeline_of, trimmed
from anatomy_widgets._timeline_figure import headings

TRACES = ROOT / "course" / "traces"
SCENE_A, SCENE_B = "scene A: matmuls", "scene B: a copy"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A real CPU trace (as the dict torch wrote) of two scenes and one op outside both."""
    a, source, there = torch.randn(64, 64), torch.randn(1000), torch.empty(1000)
    with profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        with record_function(SCENE_A):
            for _ in range(3):
                a @ a
        with record_function(SCENE_B):
            there.copy_(source)
        torch.ones(3)
    path = tmp_path_factory.mktemp("trace") / "trace.json"
    prof.export_chrome_trace(str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def _raw(trace, category):
    return [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") == category]


def _texts(fig) -> str:
    """Every text the figure draws, joined: titles, labels, tick labels, legend."""
    return "\n".join(t.get_text() for t in fig.findobj(lambda o: hasattr(o, "get_text")))


def test_host_lane_holds_every_op_torch_recorded(recorded):
    timeline = timeline_of(recorded)
    names = collections.Counter(e.name for e in timeline.lane("host"))
    assert names == collections.Counter(e["name"] for e in _raw(recorded, "cpu_op"))
    assert names["aten::matmul"] == 3 and names["aten::copy_"] == 1
    assert timeline.lanes_found == ("host",) and not timeline.on_device


def test_every_op_lies_inside_the_scene_it_is_given(recorded):
    timeline = timeline_of(recorded)
    assert [s.name for s in timeline.scenes] == [SCENE_A, SCENE_B]  # kineto's duplicate dropped
    scenes = {s.name: s for s in timeline.scenes}
    for event in timeline.events:
        if event.scene is not None:
            assert scenes[event.scene].holds(event.start, event.end), event
    by_scene = collections.defaultdict(set)
    for event in timeline.events:
        by_scene[event.scene].add(event.name)
    assert {"aten::matmul", "aten::mm"} <= by_scene[SCENE_A]
    assert by_scene[SCENE_B] == {"aten::copy_"}
    assert "aten::ones" in by_scene[None]  # after both scenes closed


def test_times_are_relative_to_the_first_event_and_never_negative(recorded):
    timeline = timeline_of(recorded)
    kept = _raw(recorded, "cpu_op") + _raw(recorded, "user_annotation")
    origin = min(float(e["ts"]) for e in kept)
    assert min(e.start for e in (*timeline.events, *timeline.scenes)) == 0.0
    assert all(e.start >= 0 and e.duration >= 0 for e in timeline.events)
    first_mm = min((e for e in _raw(recorded, "cpu_op") if e["name"] == "aten::mm"),
                   key=lambda e: float(e["ts"]))  # fmt: skip
    ours = min((e for e in timeline.lane("host") if e.name == "aten::mm"), key=lambda e: e.start)
    assert ours.start == pytest.approx(float(first_mm["ts"]) - origin)
    assert ours.duration == pytest.approx(float(first_mm["dur"]))
    assert ours.depth == 1  # inside its aten::matmul


def test_trimming_keeps_every_lane_and_scene(recorded):
    small = trimmed(recorded)
    assert timeline_of(small) == timeline_of(recorded)
    assert set(small) <= {*KEPT_KEYS, "traceEvents"}  # no host name, no trace id
    assert len(json.dumps(small)) < len(json.dumps(recorded))


def _record_trace_module():
    spec = importlib.util.spec_from_file_location("record_trace", TRACES / "record_trace.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_cpu_trace_parses_and_says_cpu():
    path = TRACES / "cpu_trace.json"
    assert path.stat().st_size < 300_000
    trace = json.loads(path.read_text(encoding="utf-8"))
    assert trace["tensor_anatomy"]["device"] == "cpu"
    assert not any(e.get("cat") == "python_function" for e in trace["traceEvents"])
    timeline = timeline_of(path)
    assert timeline.recorded_on == "cpu" and timeline.torch_version.startswith("2.13.0")
    assert [s.name for s in timeline.scenes] == list(_record_trace_module().SCENES)
    assert timeline.lanes_found == ("host",) and timeline.stale_read is False
    assert all(e.scene is not None for e in timeline.events)  # the inputs were made before


def _gpu_shaped() -> dict:
    """A trace shaped like a CUDA one: host pid 1, device pid 0 stream 7, µs timestamps."""
    events = []

    def x(cat, name, ts, dur, pid=1, tid=1, **args):
        events.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
                       "ts": ts, "dur": dur, "args": args})  # fmt: skip

    x("user_annotation", "queue", 1000, 50)  # launches only: the kernels run after it
    for k in range(2):
        x("cpu_op", "aten::mm", 1005 + 20 * k, 10)
        x("cuda_runtime", "cudaLaunchKernel", 1008 + 20 * k, 5, correlation=k + 1)
        x("kernel", "sgemm", 1015 + 300 * k, 300, pid=0, tid=7, correlation=k + 1)
    x("user_annotation", "copy", 1700, 100)
    x("cpu_op", "aten::copy_", 1710, 80)
    x("cuda_runtime", "cudaMemcpyAsync", 1712, 70, correlation=3)
    x("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 1715, 60, pid=0, tid=7, correlation=3)
    x("gpu_user_annotation", "copy", 1700, 120, pid=0, tid=7)
    x("gpu_memset", "Memset (Device)", 1790, 5, pid=0, tid=7)  # its launch is not in the trace
    x("python_function", "<module>", 990, 900)  # left out: not a lane
    return {"deviceProperties": [{"id": 0, "name": "Synthetic GPU"}], "traceEvents": events}


def test_a_gpu_shaped_trace_fills_the_device_and_copy_lanes():
    timeline = timeline_of(_gpu_shaped())
    assert timeline.lanes_found == LANES and timeline.on_device
    assert [e.name for e in timeline.lane("device")] == ["sgemm", "sgemm"]
    late = timeline.lane("device")[1]
    queue = timeline.scenes[0]
    assert late.start > queue.end and late.scene == "queue"  # the scene that launched it
    assert {e.name: e.scene for e in timeline.lane("copy")} == {
        "Memcpy HtoD (Pageable -> Device)": "copy", "Memset (Device)": "copy"}
    assert timeline.recorded_on == "Synthetic GPU" and timeline.torch_version is None
    assert "<module>" not in {e.name for e in timeline.events}
    assert set(LANE_OF.values()) == set(LANES)


def test_the_figure_shows_as_a_picture_in_jupyter_without_pyplot():
    fig = profiler_timeline(TRACES / "cpu_trace.json")
    assert fig._repr_png_().startswith(b"\x89PNG\r\n\x1a\n")  # what IPython displays


def test_the_cpu_figure_says_cpu_trace_and_the_gpu_one_does_not():
    cpu = _texts(profiler_timeline(TRACES / "cpu_trace.json"))
    assert "CPU trace: no device lane" in cpu and "recorded on cpu, torch 2.13.0" in cpu
    assert cpu.count("none in this trace") == 3
    assert "stale read before synchronize(): not seen" in cpu
    gpu = _texts(profiler_timeline(_gpu_shaped()))
    assert "CPU trace" not in gpu and "none in this trace" not in gpu
    assert "recorded on Synthetic GPU" in gpu and "1 · queue" in gpu


def test_runtime_calls_without_device_work_are_not_called_a_cpu_trace():
    trace = _gpu_shaped()
    trace["traceEvents"] = [e for e in trace["traceEvents"]
                            if LANE_OF.get(e["cat"]) not in ("device", "copy")]  # fmt: skip
    _, subtitle = headings(timeline_of(trace))
    assert subtitle.startswith("no device work recorded: no device lane")
