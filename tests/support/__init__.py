"""What tests in more than one file share: the course, its notebooks, and the helpers
one tier's tests borrow from another's (tests/README.md says which module holds what).

``tests/`` is on pytest's path (pyproject's ``pythonpath``), so every test folder
imports these as ``from support import ...``; ``conftest.py`` keeps only fixtures and
hooks. This module is the course itself; the topic modules beside it hold the rest.
"""

import contextlib
import hashlib
import io
import json
import re
from pathlib import Path

from grader._course import Course

ROOT = Path(__file__).resolve().parents[2]
COURSE = Course(ROOT)
ASSIGNMENTS = COURSE.assignments()


def load_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def solution_namespace(assignment: str) -> dict:
    """The names the solution notebook of ``assignment`` defines, its cells run quietly."""
    from grader import _notebook

    namespace = {"__name__": "solution"}
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for source in _notebook.code_cells(_notebook.load(COURSE.source_notebook(assignment))):
            exec(compile(source, assignment, "exec"), namespace)
    return namespace


def solution_bodies(assignment: str) -> list[str]:
    """The code between the solution markers of each answer cell, as authored."""
    bodies = []
    for cell in load_notebook(COURSE.source_notebook(assignment))["cells"]:
        source = "".join(cell["source"])
        found = re.search(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", source, re.S)
        if found and found.group(1).strip():
            bodies.append(found.group(1).strip())
    return bodies


def submission(assignment: str, share: float) -> dict:
    """The released notebook with ``share`` of its answer cells the instructor's solution."""
    from grader.batch._demo import synthetic_submission

    release = load_notebook(COURSE.release_notebook(assignment))
    return synthetic_submission(release, load_notebook(COURSE.source_notebook(assignment)), share)


def complete_notebook(assignment: str) -> dict:
    """The released notebook with every answer cell the instructor's solution."""
    return submission(assignment, 1.0)


def leads_somewhere(path: Path, target: str) -> bool:
    """A file, and where the link names a cell (``#cell-id=``), a cell of that notebook."""
    file, _, fragment = target.partition("#")
    found = (path.parent / file).resolve()
    if not found.is_file():
        return False
    cell_id = fragment.removeprefix("cell-id=")
    return not fragment or cell_id in {c.get("id") for c in json.loads(found.read_text())["cells"]}


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
