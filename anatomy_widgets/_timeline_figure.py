"""A profiler trace drawn as a timeline: one row per lane, bars coloured by scene.

Top to bottom: the ``record_function`` scenes, then the lanes of ``_timeline``: host
ops, CUDA runtime calls, device kernels, device copies. A lane the trace has no event
in is drawn empty and says so. Every colour is also said in text: scenes are numbered
on their bars and named in the legend, wide bars carry their op's name, and the title
says where the trace was recorded (from its metadata). The figure is built without
pyplot, so it draws on any backend (Agg in tests) and leaves pyplot's state alone.
"""

from __future__ import annotations

import io
from functools import partial

from ._contrast import BACKGROUND, ERROR_INK, INK, UNREAD_INK, ink_on
from ._labels import fit_font
from ._timeline import LANES, Timeline, timeline_of

__all__ = ["profiler_timeline", "headings", "LANE_TITLES", "SCENE_COLOURS", "OUTSIDE"]

LANE_TITLES = {"host": "host ops", "runtime": "CUDA runtime calls",
               "device": "device kernels", "copy": "device copies"}  # fmt: skip
# Okabe-Ito: told apart with the common colour-blindnesses too (and named in text anyway).
SCENE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
OUTSIDE = "#bbbbbb"  # work outside every scene
ROWS = ("scenes", *LANES)
SIZE = (11.0, 5.2)  # inches
AXIS_SHARE = (0.8, 0.62)  # about how much of the figure the axis takes, for label fitting
MONO = "DejaVu Sans Mono"  # the font _labels.fit_text measures


def headings(timeline: Timeline) -> tuple[str, str | None]:
    """The title (where the trace was recorded) and, when no device work is in it, why."""
    parts = [f"torch.profiler trace recorded on {timeline.recorded_on}"]
    parts += [f"torch {timeline.torch_version}"] if timeline.torch_version else []
    parts += [timeline.date] if timeline.date else []
    title = ", ".join(parts)
    if timeline.stale_read is not None:
        seen = "seen" if timeline.stale_read else "not seen"
        title += f"\nstale read before synchronize(): {seen}"
    if timeline.on_device:
        return title, None
    kind = "no device work recorded" if timeline.lane("runtime") else "CPU trace"
    found = ", ".join(LANE_TITLES[lane] for lane in timeline.lanes_found) or "none"
    return title, (f"{kind}: no device lane (no kernels, no device copies; lanes found: "
                   f"{found}), so the device's work appears on the host")


def _colours(timeline: Timeline) -> dict:
    names = [s.name for s in timeline.scenes]
    return {name: SCENE_COLOURS[k % len(SCENE_COLOURS)] for k, name in enumerate(names)}


def _unit(span_us: float) -> tuple[float, str]:
    return (1e-3, "ms") if span_us >= 2000 else (1.0, "µs")


def _font(text: str, width: float, room) -> int:
    """The font ``text`` fits a bar ``width`` axis units wide at, whole; 0 if none readable."""
    return fit_font(len(text), int(width * room[0]), int(room[1]), largest=10)


def _label(ax, x: float, width: float, y: float, text: str, fill: str, room) -> None:
    """``text`` centred on a bar at a font it fits at whole; nothing where it does not
    (a cut op name, "aten::c…", names nothing)."""
    font = _font(text, width, room)
    if font:
        ax.text(x + width / 2, y, text, ha="center", va="center", fontsize=font,
                family=MONO, color=ink_on(fill))  # fmt: skip


def _scene_row(ax, timeline: Timeline, colours: dict, scale: float, room) -> None:
    y = len(ROWS) - 1
    for number, scene in enumerate(timeline.scenes, 1):
        fill, left, width = colours[scene.name], scene.start * scale, scene.duration * scale
        ax.barh(y, width, left=left, height=0.7, color=fill, edgecolor=INK, linewidth=0.6)
        named = f"{number} · {scene.name}"  # the legend names it too, for narrow bars
        _label(ax, left, width, y, named if _font(named, width, room) else f"{number}", fill,
               room)  # fmt: skip


def _lane_row(ax, timeline: Timeline, lane: str, colours: dict, scale: float, room) -> None:
    y = len(ROWS) - 1 - ROWS.index(lane)
    # Top-level events only: a nested op (aten::mm inside aten::matmul) would hide under
    # its parent's bar of the same colour. Thin black edges keep neighbours apart and a
    # call of a few µs visible as a hairline.
    events = [e for e in timeline.lane(lane) if e.depth == 0]
    if not events:
        ax.text(0.5, y, "none in this trace", transform=ax.get_yaxis_transform(),
                ha="center", va="center", color=UNREAD_INK, fontsize=9)  # fmt: skip
        return
    fills = [colours.get(e.scene, OUTSIDE) for e in events]
    ax.barh([y] * len(events), [e.duration * scale for e in events],
            left=[e.start * scale for e in events], height=0.7, color=fills,
            edgecolor=INK, linewidth=0.3)  # fmt: skip
    for e, fill in zip(events, fills):
        _label(ax, e.start * scale, e.duration * scale, y, e.name, fill, room)


def _legend(fig, timeline: Timeline, colours: dict) -> None:
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=colours[s.name], edgecolor=INK, label=f"{k} · {s.name}")
               for k, s in enumerate(timeline.scenes, 1)]  # fmt: skip
    if any(e.scene is None for e in timeline.events):
        handles.append(Patch(facecolor=OUTSIDE, edgecolor=INK, label="outside every scene"))
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)


def _count(timeline: Timeline, lane: str) -> str:
    events = timeline.lane(lane)
    top = sum(e.depth == 0 for e in events)
    return f"{top} top-level of {len(events)}" if top < len(events) else f"{top} events"


def _axis(ax, timeline: Timeline, unit: str, span: float) -> None:
    labels = ["scenes"] + [f"{LANE_TITLES[lane]}\n{_count(timeline, lane)}" for lane in LANES]
    ax.set_yticks(range(len(ROWS)), labels[::-1])
    ax.set_ylim(-0.6, len(ROWS) - 0.4)
    ax.set_xlim(0, span * 1.01 if span else 1)
    ax.set_xlabel(f"time since the trace's first event ({unit})")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)


def _png(fig) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=100)
    return out.getvalue()


def profiler_timeline(trace):
    """The timeline of a torch.profiler Chrome trace (a path, or the dict it holds)."""
    # Imported here, not with the package: matplotlib.figure adds 0.3-0.7 s (measured on
    # 2 cores) to every `import anatomy_widgets`, and only this picture needs it.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    timeline = timeline_of(trace)
    fig = Figure(figsize=SIZE, layout="constrained", facecolor=BACKGROUND)
    FigureCanvasAgg(fig)  # savefig needs a canvas; Agg needs no display
    # IPython shows a figure pyplot did not make as "<Figure size ...>" text unless pyplot
    # was imported (measured: only text/plain came back); with this it shows the picture.
    fig._repr_png_ = partial(_png, fig)
    ax = fig.add_subplot()
    scale, unit = _unit(timeline.span)
    span = timeline.span * scale
    # a label's room: points per axis unit across, points of a bar (0.7 of its row) up
    room = (SIZE[0] * 72 * AXIS_SHARE[0] / (span or 1),
            SIZE[1] * 72 * AXIS_SHARE[1] / len(ROWS) * 0.7)
    colours = _colours(timeline)
    _scene_row(ax, timeline, colours, scale, room)
    for lane in LANES:
        _lane_row(ax, timeline, lane, colours, scale, room)
    _axis(ax, timeline, unit, span)
    title, subtitle = headings(timeline)
    fig.suptitle(title, fontsize=11)
    if subtitle:
        ax.set_title(subtitle, fontsize=9.5, color=ERROR_INK)
    _legend(fig, timeline, colours)
    return fig
