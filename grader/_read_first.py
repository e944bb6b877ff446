"""Which lesson sections an exercise needs, named once by cell id and written out by release.

A task cell of a source notebook names the lesson cells it builds on in its metadata,
``{"tensor_anatomy": {"read_first": ["core", "md-34"]}}``; ``restated`` writes the
line ``**Read first:** [<heading>](../../course/<lesson>.ipynb#cell-id=<id>) · ...``
at the end of the cell, each title taken from that lesson cell's heading. So a
renamed section renames its links, a deleted one fails the release, and the author
types no title twice. JupyterLab opens ``#cell-id=<id>`` at that cell.
"""

import copy
import json
import re
from pathlib import Path

from grader import _notebook

__all__ = ["KEY", "lesson_of", "line", "restated", "sections", "without_line"]

KEY = "tensor_anatomy"
_LINE = re.compile(r"\n*^\*\*Read first:\*\*.*\Z", re.M | re.S)
_HEADING = re.compile(r"^#+ +(.+)$", re.M)


def lesson_of(source_notebook: Path) -> Path:
    """``solutions/<name>/<name>.ipynb`` → ``course/<name>.ipynb``."""
    return source_notebook.parents[2] / "course" / f"{source_notebook.parent.name}.ipynb"


def sections(lesson: dict) -> dict[str, str]:
    """cell id → the first heading of that markdown cell, for every cell that has one."""
    found = {}
    for cell in lesson["cells"]:
        markdown = cell["cell_type"] == "markdown"
        heading = _HEADING.search(_notebook.source(cell)) if markdown else None
        if heading:
            found[cell["id"]] = heading[1].strip()
    return found


def line(lesson_link: str, cell_ids: list[str], titles: dict[str, str],
         label: str = "**Read first:**") -> str:
    """The Read-first line: ``label``, then a link to each of ``cell_ids`` in the lesson at
    ``lesson_link`` (relative to the exercise), titled from ``titles`` (``sections``)."""
    unknown = [i for i in cell_ids if i not in titles]
    if unknown:
        raise ValueError(f"{lesson_link} has no section heading in cell(s) {unknown}")
    link = f"{lesson_link}#cell-id="
    return f"{label} " + " · ".join(f"[{titles[i]}]({link}{i})" for i in cell_ids)


def without_line(text: str) -> str:
    """A task cell's text less its Read-first line (the author's words alone)."""
    return _LINE.sub("", text.rstrip("\n"))


def _with_line(text: str, line: str) -> str:
    return without_line(text) + "\n\n" + line


def restated(nb: dict, lesson_path: Path) -> dict:
    """``nb`` with each task cell's Read-first line written from its metadata."""
    nb, titles = copy.deepcopy(nb), sections(json.loads(lesson_path.read_text("utf-8")))
    for cell in nb["cells"]:
        wanted = cell.get("metadata", {}).get(KEY, {}).get("read_first")
        if wanted:
            link = f"../../course/{lesson_path.name}"
            text = _with_line(_notebook.source(cell), line(link, wanted, titles))
            cell["source"] = text.splitlines(keepends=True)
    return nb
