"""Whether an exercise can be added where asked, and the files it would touch."""

import ast
import json
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from grader._course import Course
from grader._notebook import nbgrader_metadata

__all__ = ["MARKER", "DEFAULT_POINTS", "Refused", "Written"]

MARKER = "TODO(new-exercise)"
DEFAULT_POINTS = 2
HIDDEN_STUBS = 3
WRONG_STUBS = 2
_WIDTH = 100  # the project's line length (ruff)
_RULER = re.compile(r"^# --- \d+\. .*-$", re.M)


class Refused(Exception):
    """The exercise cannot be added; the message is one line for the author."""


@dataclass(frozen=True)
class Written:
    path: Path
    text: str
    wrote: str
    fill_in: list[str]


# --- what the course looks like -------------------------------------------------------


def _chapter(assignment: str) -> str:
    return assignment.split("_", 1)[1]


def _places(course: Course, assignment: str) -> dict[str, Path]:
    chapter = _chapter(assignment)
    return {
        "notebook": course.source_notebook(assignment),
        "checks": course.root / "grader" / "checks" / chapter / "__init__.py",
        "hidden": course.root / "grader" / "hidden" / chapter / "test.py",
        "wrong": course.root / "grader" / "hidden" / chapter / "wrong_answers.py",
    }


def _rel(course: Course, path: Path) -> str:
    return str(path.relative_to(course.root))


def _top_level_names(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}


def _wrong_answers_dict(tree: ast.Module) -> ast.Dict | None:
    for node in tree.body:
        target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                  else getattr(node, "target", None))
        if isinstance(target, ast.Name) and target.id == "WRONG_ANSWERS" \
                and isinstance(node.value, ast.Dict):
            return node.value
    return None


def _where_it_exists(course: Course, assignment: str, name: str, texts: dict) -> list[str]:
    """Where ``name`` is already an exercise, or a stub's name is taken (empty: it is new)."""
    found = []
    for other in course.assignments():
        nb = json.loads(course.source_notebook(other).read_text(encoding="utf-8"))
        ids = {nbgrader_metadata(c).get("grade_id") for c in nb["cells"]}
        taken = {name} if other != assignment else {name, f"{name}_task", f"{name}_answer"}
        if ids & taken:
            found.append(f"{other} has a cell {sorted(ids & taken)[0]}")
    quoted = rf"""["']{re.escape(name)}["']"""
    for folder, pattern, what in (
            ("grader/checks", rf"@public_check\(\s*{quoted}", "a public check"),
            ("grader/hidden", rf"exercise\(\s*{quoted}\s*\)", "hidden checks")):
        for path in sorted((course.root / folder).rglob("*.py")):
            if re.search(pattern, path.read_text(encoding="utf-8")):
                found.append(f"{_rel(course, path)} has {what} for it")
    defined = {
        "checks": {f"_{name}_examples", f"compare_{name}"},
        "hidden": {f"test_{name}_{k}" for k in range(1, HIDDEN_STUBS + 1)},
    }
    places = _places(course, assignment)
    for key, names in defined.items():
        clash = _top_level_names(ast.parse(texts[key])) & names
        if clash:
            found.append(f"{_rel(course, places[key])} defines {sorted(clash)[0]}")
    table = _wrong_answers_dict(ast.parse(texts["wrong"]))
    keys = [k.value for k in (table.keys if table else []) if isinstance(k, ast.Constant)]
    if name in keys:
        found.append(f"{_rel(course, places['wrong'])} has wrong answers for it")
    return found


def _check_request(course: Course, assignment: str, name: str, points: int) -> dict[str, str]:
    """The four files' current texts, or ``Refused`` saying why not."""
    if not name.isidentifier() or keyword.iskeyword(name):
        raise Refused(f"{name!r} is not a Python identifier: an exercise's name is its "
                      "function's name")
    known = course.assignments()
    if assignment not in known:
        raise Refused(f"unknown assignment {assignment!r} (known: {', '.join(known)})")
    if points < 1:
        raise Refused(f"--points {points}: an exercise is worth 1 point or more")
    places = _places(course, assignment)
    for key, path in places.items():
        if not path.is_file():
            what = {"checks": "public checks", "hidden": "hidden checks",
                    "wrong": "wrong answers"}[key]
            raise Refused(f"{_rel(course, path)} does not exist: {assignment}'s exercises "
                          f"keep their {what} there")
    texts = {key: path.read_text(encoding="utf-8") for key, path in places.items()}
    if not re.search(r"^from \S+ import .*\bpublic_check\b|^\s+public_check,?\s*$",
                     texts["checks"], re.M):
        raise Refused(f"{_rel(course, places['checks'])} does not import public_check")
    if not re.search(r"^WRONG_ANSWERS\b", texts["wrong"], re.M):
        raise Refused(f"{_rel(course, places['wrong'])} has no WRONG_ANSWERS")
    found = _where_it_exists(course, assignment, name, texts)
    if found:
        more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
        raise Refused(f"exercise {name!r} exists already: {'; '.join(found[:3])}{more}")
    return texts

