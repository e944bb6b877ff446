"""Each lesson opens with a short core, predict-then-run, and marks the rest as deep dives.

A lesson's core starts at the markdown cell with id ``core`` and ends before the cell
with id ``deep-dives``: 10 to 15 cells, each code cell revealing (printing) what the
markdown cell just before it asked the reader to predict. Every section heading after
``deep-dives`` is a deep dive, up to the summary. ``lesson_path_problems`` says what a
lesson lacks; the tests hold every lesson to it and check that it catches each lack.
"""

import json
import re

import pytest
from support import ROOT

LESSONS = sorted((ROOT / "course").glob("0[1-9]_*.ipynb"))
CORE_CELLS = range(10, 16)
PREDICT = "**Predict"
SECTION = re.compile(r"^## (?!#)(.*)$", re.MULTILINE)
NOT_A_DEEP_DIVE = re.compile(r"Summary|Your turn|Setup")


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def _index(cells: list[dict], cell_id: str) -> int | None:
    return next((i for i, c in enumerate(cells) if c.get("id") == cell_id), None)


def _core_problems(core: list[dict]) -> list[str]:
    problems = [] if len(core) in CORE_CELLS else [f"the core has {len(core)} cells, not 10-15"]
    for before, cell in zip([None, *core], core):
        if cell["cell_type"] != "code":
            continue
        if before is None or before["cell_type"] != "markdown" or PREDICT not in _text(before):
            problems.append(f"core cell {cell.get('id')} reveals without a {PREDICT}** prompt")
        if not cell.get("outputs"):
            problems.append(f"core cell {cell.get('id')} has no stored output to reveal")
    return problems


def _deep_dive_problems(rest: list[dict]) -> list[str]:
    headings = [h for c in rest if c["cell_type"] == "markdown" for h in SECTION.findall(_text(c))]
    return [f"section not marked as a deep dive: {h}" for h in headings
            if not h.startswith("Deep dive") and not NOT_A_DEEP_DIVE.search(h)]


def lesson_path_problems(nb: dict) -> list[str]:
    """What keeps this lesson from having a core path and marked deep dives."""
    cells = nb["cells"]
    start, end = _index(cells, "core"), _index(cells, "deep-dives")
    if start is None or end is None or end <= start:
        return ["no core (cell id 'core') followed by deep dives (cell id 'deep-dives')"]
    return _core_problems(cells[start + 1:end]) + _deep_dive_problems(cells[end + 1:])


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_opens_with_a_core_and_marks_its_deep_dives(lesson):
    assert lesson_path_problems(json.loads(lesson.read_text(encoding="utf-8"))) == []


def _markdown(cell_id, text):
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": [text]}


def _code(cell_id, outputs=("x",)):
    return {"cell_type": "code", "id": cell_id, "metadata": {}, "source": ["1"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": o} for o in outputs]}


def _lesson(core_pairs=5, prompt="**Predict:** what prints?", outputs=("x",), heading="Deep dive"):
    core = [c for i in range(core_pairs)
            for c in (_markdown(f"p{i}", prompt), _code(f"c{i}", outputs))]
    return {"cells": [_markdown("core", "## The core"), *core,
                      _markdown("deep-dives", "## Deep dives"),
                      _markdown("s2", f"## {heading} 2 · Views"), _markdown("s9", "## 9. Summary")]}


def test_a_lesson_without_a_core_or_with_an_unmarked_section_is_caught():
    assert lesson_path_problems(_lesson()) == []
    assert lesson_path_problems({"cells": []})[0].startswith("no core")
    assert lesson_path_problems(_lesson(core_pairs=9)) == ["the core has 18 cells, not 10-15"]
    assert len(lesson_path_problems(_lesson(prompt="Run this."))) == 5
    assert len(lesson_path_problems(_lesson(outputs=()))) == 5
    assert lesson_path_problems(_lesson(heading="2.")) == [
        "section not marked as a deep dive: 2. 2 · Views"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_stores_no_execution_timestamps(lesson):
    """A re-run changes only what it measured: timestamps would make every run a diff."""
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    assert [c.get("id") for c in cells if "execution" in c.get("metadata", {})] == []
