"""How long a widget redraw takes, against the 50 ms budget (up to 4,096 drawn cells).

Run: ``.venv/bin/python benchmarks/widgets_bench.py`` (or ``make bench``). It prints,
per case, the drawn cells, the median and worst of repeated redraws through a
control (as a student's edit would trigger them: parse, bounds check, layout,
SVG, the HTML widget's value), and the worst as a fraction of the budget. It is
a measurement, not a test: it always exits 0 (timings depend on the machine).
"""

from __future__ import annotations

import gc
import statistics
import time
import xml.etree.ElementTree as ET

import torch

from anatomy_widgets import Broadcast, MemoryLayout

BUDGET_MS = 50.0
REPEATS = 21


def _memory_cases():
    yield "(3, 4) transpose", MemoryLayout(torch.arange(12).view(3, 4).t())
    yield "64 x 64 grid", MemoryLayout(torch.arange(4096).view(64, 64))
    cube = torch.arange(4096).view(16, 16, 16).permute(2, 0, 1)
    yield "16 x 16 x 16, permuted", MemoryLayout(cube)
    yield "8 x 8 x 8 x 8", MemoryLayout(torch.arange(4096).view(8, 8, 8, 8))
    yield "sliding windows 64 x 64", MemoryLayout(torch.arange(127).as_strided((64, 64), (1, 1)))
    yield "meta 10^9, 1-D", MemoryLayout(torch.empty(10**9, device="meta"))
    yield "meta (1000, 1000, 1000)", MemoryLayout(torch.empty((1000, 1000, 1000), device="meta"))
    yield "zeros(1).expand(10^9)", MemoryLayout(torch.zeros(1).expand(10**9))
    flat = torch.arange(4096)
    yield "base + view, 4096 cells", MemoryLayout(flat.view(64, 64).t(), base=flat)


def _drawn_cells(widget: MemoryLayout) -> int:
    svg = "{http://www.w3.org/2000/svg}"
    return sum(
        "elem" in g.get("class", "").split()
        for s in widget.svgs
        for g in ET.fromstring(s).iter(f"{svg}g")
    )


def _time_ms(action) -> list[float]:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _memory_edit(widget: MemoryLayout):
    """Two full redraws as a student triggers them: index 0 slider forward, then back."""
    slider = widget.sliders[0]

    def edit() -> None:
        start = slider.value
        slider.value = min(start + 1, slider.max)
        slider.value = start

    return edit


def _row(name: str, cells: int, times: list[float], per_call: int) -> str:
    times = sorted(t / per_call for t in times)
    median, p90, worst = statistics.median(times), times[int(0.9 * (len(times) - 1))], times[-1]
    return (
        f"{name:28} {cells:>6} {median:>8.2f} {p90:>8.2f} {worst:>8.2f} "
        f"{median / BUDGET_MS:>7.2f} {worst / BUDGET_MS:>7.2f}"
        f"  {'ok' if worst <= BUDGET_MS else 'OVER BUDGET'}"
    )


def main() -> None:
    print(f"torch {torch.__version__}; budget {BUDGET_MS:.0f} ms per redraw; {REPEATS} repeats")
    print(f"{'case':28} {'cells':>6} {'median':>8} {'p90':>8} {'worst':>8} {'med/50':>7} "
          f"{'max/50':>7}   (ms per redraw)")  # fmt: skip
    worst_ratio = 0.0
    for name, widget in _memory_cases():
        gc.collect()  # start each case clean; collections during a case still count
        times = _time_ms(_memory_edit(widget))  # two redraws per call
        print(_row(name, _drawn_cells(widget), times, per_call=2))
        worst_ratio = max(worst_ratio, max(times) / 2 / BUDGET_MS)
    broadcasts = {
        "broadcast (3,1) (4,)": ((3, 1), (4,)),
        "broadcast 3 shapes, 6 dims": ((2, 1, 3, 1, 5, 1), (4, 1, 1, 6), (1,)),
    }
    for name, shapes in broadcasts.items():
        widget = Broadcast(*shapes, values=True)
        times = _time_ms(lambda w=widget: (w.redraw(), w.redraw()))
        print(_row(name, 0, times, per_call=2))
        worst_ratio = max(worst_ratio, max(times) / 2 / BUDGET_MS)
    print(f"worst redraw / budget: {worst_ratio:.2f} (the machine's load shows up in 'worst')")


if __name__ == "__main__":
    main()
