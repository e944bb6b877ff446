"""What a source notebook says about its own exercises, derived from its test cells.

An assignment's exercises, their order and their points live in one place: its
test cells' nbgrader metadata (``grade_id``, ``points``). The intro table
(``| 1 | `name` ... | 2 |``) and each task heading (``## 1. Title (2 points)``)
restate them for the student; ``restated`` rewrites those numbers and names
from the test cells, so ``make release`` keeps them true and a test finds any
drift. The words around them stay the author's.
"""

import copy
import json
import re
from pathlib import Path

from . import _notebook, _read_first

__all__ = ["restated", "refresh"]

_ROW = re.compile(r"^\| \d+ \| `(\w+)`(.*) \| \d+ \|$", re.M)
_HEADING = re.compile(r"^## \d+\. (.*) \(\d+ points?\)$", re.M)


def _exercises(nb: dict) -> list[tuple[str, int]]:
    """(name, points) of each test cell, in notebook order."""
    return [(name, int(cell["metadata"]["nbgrader"]["points"]))
            for name, cell in _notebook.exercise_cells(nb).items()]


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _table(text: str, exercises: list[tuple[str, int]]) -> str:
    listed = _ROW.findall(text)
    if [name for name, _ in listed] != [name for name, _ in exercises]:
        raise ValueError(f"the intro table lists {[n for n, _ in listed]}; the test cells "
                         f"are {[n for n, _ in exercises]}")
    rows = iter(enumerate(exercises, 1))

    def row(match: re.Match) -> str:
        number, (name, points) = next(rows)
        return f"| {number} | `{name}`{match[2]} | {points} |"

    return _ROW.sub(row, text)


def _set_source(cell: dict, text: str) -> None:
    cell["source"] = text.splitlines(keepends=True) if isinstance(cell["source"], list) else text


def restated(nb: dict) -> dict:
    """``nb`` with its intro table and task headings rewritten from its test cells."""
    nb, exercises = copy.deepcopy(nb), _exercises(nb)
    markdown = [c for c in nb["cells"] if c.get("cell_type") == "markdown"]
    intro = next(c for c in markdown if _ROW.search(_notebook.source(c)))
    _set_source(intro, _table(_notebook.source(intro), exercises))
    tasks = [c for c in markdown if _HEADING.search(_notebook.source(c))]
    if len(tasks) != len(exercises):
        raise ValueError(f"{len(tasks)} task headings for {len(exercises)} exercises")
    for number, (cell, (_, points)) in enumerate(zip(tasks, exercises, strict=True), 1):
        text = _HEADING.sub(lambda m, n=number, p=points: f"## {n}. {m[1]} ({_points(p)})",
                            _notebook.source(cell), count=1)
        _set_source(cell, text)
    return nb


def refresh(path: Path) -> bool:
    """Rewrite the source notebook at ``path`` if it restates its test cells or the lesson
    sections its tasks need (``_read_first``) wrongly."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    fresh = _read_first.restated(restated(nb), _read_first.lesson_of(Path(path)))
    if fresh != nb:  # written as nbformat writes it
        Path(path).write_text(json.dumps(fresh, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
    return fresh != nb
