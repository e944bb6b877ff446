"""The course's start page and each lesson's last cell: the way through, derived from disk.

``course/00_start.ipynb`` lists the chapters in order, each with what it is about
(its title), a time estimate and links to the lesson and its exercises; every
lesson ends with a cell linking its exercises, the next lesson and the start
page. Nothing here is typed by hand: ``make release`` writes both from the
lessons and the released exercises, and ``tests/course/test_navigation.py`` fails on
drift.
"""

import json
import math
import re
from pathlib import Path

from grader import _notebook
from grader._course import Course

__all__ = ["START", "lessons", "refresh"]

START = "00_start.ipynb"
NAVIGATION_ID = "tensor-anatomy-navigation"
# A reading speed for technical prose, and a minute to run a cell and read its output.
WORDS_PER_MINUTE, MINUTES_PER_CODE_CELL = 150, 1.0


def lessons(course: Course) -> list[Path]:
    """The lessons, in chapter order."""
    return sorted(p for p in (course.root / "course").glob("[0-9][0-9]_*.ipynb")
                  if p.name != START)


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _title(nb: dict) -> str:
    return _notebook.source(nb["cells"][0]).splitlines()[0].lstrip("# ").strip()


def minutes(nb: dict) -> int:
    """Reading and running time, rounded up to 5 minutes."""
    words = sum(len(_notebook.source(c).split()) for c in nb["cells"]
                if c["cell_type"] == "markdown")
    cells = sum(c["cell_type"] == "code" for c in nb["cells"])
    return 5 * math.ceil((words / WORDS_PER_MINUTE + cells * MINUTES_PER_CODE_CELL) / 5)


def core(nb: dict) -> dict:
    """The lesson's core: the cells from the one with id ``core`` to ``deep-dives``."""
    ids = [c.get("id") for c in nb["cells"]]
    if "core" not in ids or "deep-dives" not in ids:
        return {**nb, "cells": []}
    return {**nb, "cells": nb["cells"][ids.index("core"):ids.index("deep-dives")]}


def _exercises(course: Course, lesson: Path) -> str:
    """The lesson's released assignment, as a link from course/."""
    notebook = course.release_notebook(lesson.stem)
    return f"../{notebook.relative_to(course.root).as_posix()}"


def _markdown(cell_id: str, text: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {},
            "source": text.splitlines(keepends=True)}


def _navigation(course: Course, lesson: Path, following: Path | None) -> dict:
    links = [f"[the graded exercises]({_exercises(course, lesson)})"]
    if following is not None:
        links.append(f"the next lesson, [{_title(_load(following))}]({following.name})")
    links.append(f"[all chapters]({START})")
    return _markdown(NAVIGATION_ID, "**Next:** " + " · ".join(links))


def start_page(course: Course) -> dict:
    rows = []
    for number, lesson in enumerate(lessons(course), start=1):
        nb = _load(lesson)
        chapter, _, about = _title(nb).partition(" · ")
        short = core(nb)
        first = f"[{minutes(short)} min]({lesson.name}#cell-id=core)" if short["cells"] else "-"
        rows.append(f"| {number} | [{about or chapter}]({lesson.name}) | {first} | "
                    f"{minutes(nb)} min | [exercises]({_exercises(course, lesson)}) |")
    text = ("# Tensor Anatomy: start here\n\n"
            f"{len(rows)} chapters on the PyTorch tensor, in order: each lesson proves\n"
            "every claim with a cell you can run, and ends with graded exercises. Each opens\n"
            "with a short core (predict each result, then run its cell) before its deep\n"
            "dives. Times are for reading and running, not the exercises.\n\n"
            "| chapter | lesson | core | whole lesson | exercises |\n|---|---|---|---|---|\n"
            + "\n".join(rows))
    kernel = _load(lessons(course)[0])["metadata"]
    return {"cells": [_markdown("start", text)], "metadata": kernel,
            "nbformat": 4, "nbformat_minor": 5}


def _with_navigation(nb: dict, cell: dict) -> dict:
    cells = [c for c in nb["cells"] if c.get("id") != NAVIGATION_ID]
    return {**nb, "cells": [*cells, cell]}


def _dump(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def expected(course: Course) -> dict[Path, str]:
    """path → the text it should have: the start page and every lesson."""
    found = lessons(course)
    texts = {course.root / "course" / START: _dump(start_page(course))}
    for lesson, following in zip(found, [*found[1:], None]):
        texts[lesson] = _dump(_with_navigation(_load(lesson),
                                               _navigation(course, lesson, following)))
    return texts


def refresh(course: Course) -> list[Path]:
    """Write what drifted; the paths written."""
    written = []
    for path, text in expected(course).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def links(text: str) -> list[str]:
    """The targets of the Markdown links in ``text``."""
    return re.findall(r"\]\(([^)]+)\)", text)
