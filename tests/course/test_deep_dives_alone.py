"""Each deep dive of each lesson runs after the Setup section alone.

A lesson's deep dives say they can be read in any order, so a reader who jumps from
Setup to one of them must not meet a ``NameError`` for something an earlier dive made.
Each dive's code cells run in-process, in one fresh namespace per dive that first runs
the Setup cells, as a kernel would; only errors count (nbval checks the outputs). Its
cost is the lessons' deep dives run once each, plus Setup once per dive.
"""

import contextlib
import io
import re
import sys
import types

import pytest
from support import ROOT, load_notebook

from grader import _notebook

LESSONS = sorted((ROOT / "course").glob("0[1-9]_*.ipynb"))
HEADING = re.compile(r"^## (?!#)(.*)$", re.MULTILINE)
DEEP_DIVE = re.compile(r"Deep dive \d")
SETUP_ENDS_AT = "core"


def _heading(cell: dict) -> str | None:
    found = HEADING.search("".join(cell["source"])) if cell["cell_type"] == "markdown" else None
    return found.group(1) if found else None


def _code(cells: list[dict]) -> list[str]:
    return _notebook.code_cells({"cells": cells})


def setup_code(nb: dict) -> list[str]:
    """The code cells of the Setup section: after its heading, before the core."""
    cells = nb["cells"]
    start = next(i for i, c in enumerate(cells) if "Setup" in (_heading(c) or ""))
    end = next(i for i, c in enumerate(cells) if c.get("id") == SETUP_ENDS_AT)
    return _code(cells[start:end])


def deep_dives(nb: dict) -> dict[str, list[str]]:
    """Each deep dive's heading cell id → its code cells, up to the next ``## `` heading."""
    dives, current = {}, None
    for cell in nb["cells"]:
        heading = _heading(cell)
        if heading is not None:
            current = cell["id"] if DEEP_DIVE.match(heading) else None
            dives.setdefault(current, [])
        elif current is not None and cell["cell_type"] == "code":
            dives[current].append(cell)
    dives.pop(None, None)
    return {dive: _code(cells) for dive, cells in dives.items()}


@contextlib.contextmanager
def as_main(module: types.ModuleType):
    """``module`` stands as ``__main__`` (a kernel's namespace is, and pickle looks there)."""
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = module
    try:
        yield
    finally:
        sys.modules["__main__"] = saved


def run_alone(lesson_name: str, setup: list[str], dive: list[str]) -> None:
    """Setup's cells, then ``dive``'s, in one fresh ``__main__``; output discarded."""
    module = types.ModuleType("__main__")
    quiet = io.StringIO()
    with as_main(module), contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        for number, source in enumerate([*setup, *dive]):
            exec(compile(source, f"{lesson_name}[{number}]", "exec"), module.__dict__)


def _cases():
    for lesson in LESSONS:
        nb = load_notebook(lesson)
        for dive, code in deep_dives(nb).items():
            yield pytest.param(lesson.stem, setup_code(nb), code, id=f"{lesson.stem}-{dive}")


@pytest.mark.parametrize(("lesson_name", "setup", "dive"), list(_cases()))
def test_each_deep_dive_runs_after_setup_alone(lesson_name, setup, dive, monkeypatch):
    monkeypatch.chdir(ROOT / "course")  # where the kernel of a lesson starts
    run_alone(lesson_name, setup, dive)


def test_a_deep_dive_that_needs_another_dive_is_caught():
    nb = {"cells": [
        {"cell_type": "markdown", "id": "s", "source": ["## 1. Setup"]},
        {"cell_type": "code", "id": "c0", "source": ["import math"]},
        {"cell_type": "markdown", "id": "core", "source": ["## The core"]},
        {"cell_type": "markdown", "id": "d2", "source": ["## Deep dive 2 · A"]},
        {"cell_type": "code", "id": "c2", "source": ["made_in_two = math.pi"]},
        {"cell_type": "markdown", "id": "d3", "source": ["## Deep dive 3 · B"]},
        {"cell_type": "code", "id": "c3", "source": ["print(made_in_two)"]},
        {"cell_type": "markdown", "id": "end", "source": ["## 4. Summary"]},
        {"cell_type": "code", "id": "c4", "source": ["raise SystemExit"]},
    ]}
    dives = deep_dives(nb)
    assert list(dives) == ["d2", "d3"] and setup_code(nb) == ["import math"]
    run_alone("made-up", setup_code(nb), dives["d2"])
    with pytest.raises(NameError, match="made_in_two"):
        run_alone("made-up", setup_code(nb), dives["d3"])
