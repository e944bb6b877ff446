"""The text of each stub: notebook cells, public check, hidden checks, wrong answers.

Each function takes a file's text and returns it with the new exercise's stub added.
"""

import ast
import hashlib
import json
import re

from grader import _authoring, _notebook, _read_first
from grader._course import Course
from grader.scaffold._request import (
    _RULER,
    _WIDTH,
    HIDDEN_STUBS,
    MARKER,
    WRONG_STUBS,
    Refused,
    _chapter,
    _wrong_answers_dict,
)

# --- text helpers ---------------------------------------------------------------------


def _raise(indent: str, message: str) -> str:
    """``raise NotImplementedError(message)``, split over lines if it is too long."""
    line = f"{indent}raise NotImplementedError({json.dumps(message)})"
    if len(line) <= _WIDTH:
        return line
    room, chunks, chunk = _WIDTH - len(indent) - 8, [], ""
    for word in message.split(" "):
        if chunk and len(chunk) + len(word) + 1 > room:
            chunks.append(chunk + " ")
            chunk = word
        else:
            chunk = f"{chunk} {word}" if chunk else word
    chunks.append(chunk)
    body = "\n".join(f"{indent}    {json.dumps(c)}" for c in chunks)
    return f"{indent}raise NotImplementedError(\n{body})"


def _ruler(text: str, number: int, name: str) -> str:
    """``# --- N. name -----``, as wide as the file's last ruler."""
    rulers = _RULER.findall(text)
    width = len(rulers[-1]) if rulers else 88
    head = f"# --- {number}. {name} "
    return head + "-" * max(3, width - len(head))


def _appended(text: str, addition: str) -> str:
    return text.rstrip("\n") + "\n\n\n" + addition.strip("\n") + "\n"


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


# --- 1. the source notebook -----------------------------------------------------------


def _title(name: str) -> str:
    words = name.strip("_").replace("_", " ") or name
    return words[0].upper() + words[1:]


def _cell_ids(nb: dict, assignment: str, name: str) -> dict[str, str] | None:
    """Ids for the task, answer and test cells in the style of the notebook's ids."""
    ids = [c["id"] for c in nb["cells"] if "id" in c]
    if not ids:
        return None  # nbformat < 4.5: no ids at all
    taken, fresh = set(ids), {}
    if all(re.fullmatch(r"[0-9a-f]{8}", i) for i in ids):  # nbformat's own: random hex
        for role in ("task", "answer", "test"):
            digest = hashlib.sha256(f"{assignment}/{name}/{role}".encode()).hexdigest()
            candidates = (digest[k:k + 8] for k in range(0, len(digest) - 7))
            fresh[role] = next(c for c in candidates if c not in taken)
            taken.add(fresh[role])
        return fresh
    base = name.strip("_").replace("_", "-") or "exercise"  # a slug, as in 03
    for role, suffix in (("task", "-task"), ("answer", "-answer"), ("test", "")):
        candidate, k = base + suffix, 1
        while candidate in taken:
            k += 1
            candidate = f"{base}{suffix}-{k}"
        fresh[role] = candidate
        taken.add(candidate)
    return fresh


def _nbgrader(grade_id: str, *, grade=False, solution=False, locked=True, points=None) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked}
    if points is not None:
        meta["points"] = points
    meta.update({"schema_version": 3, "solution": solution})
    return {"nbgrader": meta}


def _cell(kind: str, cell_id: str | None, metadata: dict, source: str) -> dict:
    cell = {"cell_type": kind}
    if kind == "code":
        cell["execution_count"] = None
    if cell_id is not None:
        cell["id"] = cell_id
    cell["metadata"] = metadata
    if kind == "code":
        cell["outputs"] = []
    cell["source"] = _lines(source)
    return cell


def _new_cells(nb: dict, assignment: str, name: str, points: int) -> list[dict]:
    ids = _cell_ids(nb, assignment, name) or {}
    task = (f"## 0. {_title(name)} (0 points)\n\n"
            f"{MARKER}: the task, as the student reads it: what `{name}` takes and returns, "
            "the cases that matter (zero-size, strided, broadcast...), and how to try an "
            "idea with torch.")
    answer = (f'def {name}():\n'
              f'    """{MARKER}: the spec: what {name} returns (give the def its arguments).\n'
              "\n    Args:\n        ...\n\n    Returns:\n        ...\n\n"
              f"    Example:\n        >>> {name}(...)\n"
              '    """\n'
              "    ### BEGIN SOLUTION\n"
              f"    # {MARKER}: the solution\n"
              "    raise NotImplementedError()\n"
              "    ### END SOLUTION")
    test = (f"with checking({name}):  # a stub says \"not attempted yet\" and Run All goes on\n"
            f"    # {MARKER}: a few visible asserts the student can read, e.g.\n"
            f"    # assert {name}(...) == ...\n"
            f"    check({name})\n\n"
            "### BEGIN HIDDEN TESTS\n"
            f"# Graded outside this notebook by grader/hidden/{_chapter(assignment)}/test.py\n"
            "### END HIDDEN TESTS")
    return [
        _cell("markdown", ids.get("task"), {**_nbgrader(f"{name}_task"),  # the lesson's core:
               _read_first.KEY: {"read_first": ["core"]}}, task),  # name more sections there
        _cell("code", ids.get("answer"), _nbgrader(f"{name}_answer", solution=True,
                                                    locked=False), answer),
        _cell("code", ids.get("test"), _nbgrader(name, grade=True, points=points), test),
    ]


def _with_row(nb: dict, name: str, points: int) -> None:
    """A row for ``name`` after the intro table's last row (``restated`` numbers it)."""
    source = _notebook.source
    intro = next((c for c in nb["cells"] if c.get("cell_type") == "markdown"
                  and _authoring._ROW.search(source(c))), None)
    if intro is None:
        raise Refused("the notebook has no intro table (| 1 | `name` — ... | 2 |) to extend")
    text = source(intro)
    last = list(_authoring._ROW.finditer(text))[-1]
    separator = last[2][:3] if last[2][:3] in (" — ", " | ") else " — "
    row = f"| 0 | `{name}`{separator}{MARKER}: a few words on what it does | {points} |"
    _authoring._set_source(intro, text[:last.end()] + "\n" + row + text[last.end():])


def _notebook_text(course: Course, assignment: str, name: str, points: int) -> tuple[str, int]:
    """The source notebook with the new exercise's cells; and the exercise's number."""
    nb = json.loads(course.source_notebook(assignment).read_text(encoding="utf-8"))
    tests = [i for i, c in enumerate(nb["cells"]) if _notebook.is_test_cell(c)
             and isinstance(_notebook.nbgrader_metadata(c).get("grade_id"), str)]
    at = tests[-1] + 1 if tests else len(nb["cells"])
    nb["cells"][at:at] = _new_cells(nb, assignment, name, points)
    _with_row(nb, name, points)
    try:
        nb = _read_first.restated(_authoring.restated(nb), _read_first.lesson_of(
            course.source_notebook(assignment)))
    except ValueError as exc:
        raise Refused(f"{assignment}'s notebook does not restate its test cells ({exc}): "
                      "fix that first") from None
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n", len(tests) + 1


# --- 2. the public check --------------------------------------------------------------


def _with_all(text: str, entry: str) -> str:
    """``entry`` added to a one-name-per-line ``__all__`` list (any other shape: unchanged)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets) \
                and isinstance(node.value, ast.List) and node.value.elts:
            items, lines = node.value.elts, text.splitlines(keepends=True)
            last, close = items[-1], node.value.end_lineno
            one_per_line = len({e.lineno for e in items}) == len(items)
            if not one_per_line or lines[close - 1].strip() != "]" or last.end_lineno >= close:
                return text
            indent = " " * last.col_offset
            lines[close - 1:close - 1] = [f'{indent}"{entry}",\n']
            if not lines[last.end_lineno - 1].rstrip().endswith(","):
                line = lines[last.end_lineno - 1].rstrip("\n")
                lines[last.end_lineno - 1] = line + ",\n"
            return "".join(lines)
    return text


def _checks_text(text: str, name: str, number: int) -> str:
    stub = f'''
{_ruler(text, number, name)}


def _{name}_examples():
    """The argument tuples that ``check()`` tries (the hidden checks try them too)."""
{_raise("    ", f"{MARKER}: write the examples of the public check for {name}")}


@public_check("{name}", _{name}_examples)
def compare_{name}(fn, *example):
    """Call ``fn`` on one example, ask torch, raise ``Mismatch`` if they disagree."""
{_raise("    ", f"{MARKER}: write the public check for {name}")}
'''
    return _appended(_with_all(text, f"compare_{name}"), stub)


# --- 3. the hidden checks -------------------------------------------------------------


def _module_alias(text: str, chapter: str) -> str:
    alias = re.search(rf"^from grader\.checks import {chapter} as (\w+)$", text, re.M)
    return alias[1] if alias else f"grader.checks.{chapter}"


def _hidden_text(text: str, assignment: str, name: str, number: int) -> str:
    alias = _module_alias(text, _chapter(assignment))
    examples = "FEW" if re.search(r"^FEW\b", text, re.M) else "40"
    stubs = "\n".join(f'''
@pytest.mark.exercise("{name}")
def test_{name}_{k}(*, student):
    """{name}: hidden check {k} of {HIDDEN_STUBS}, not written yet"""
{_raise("    ", f"{MARKER}: write hidden check {k} of {name}")}
''' for k in range(1, HIDDEN_STUBS + 1))
    block = f'''
{_ruler(text, number, name)}
# {HIDDEN_STUBS} hidden checks or more, each on one kind of input and each calling the public
# comparison; a check's docstring is the line the student's feedback shows for it:
#
# @pytest.mark.exercise("{name}")
# @settings(max_examples={examples})
# @given(case=...)  # a hypothesis strategy that draws {name}'s arguments
# def test_{name}_<what>(case, *, student):
#     """<what it checks, in the student's words>"""
#     {alias}.compare_{name}(student.{name}, *case)

{stubs}'''
    return _appended(text, block)


# --- 4. the wrong answers -------------------------------------------------------------


def _wrong_placeholders(name: str, indent: str) -> str:
    return "".join(f'''{indent}"""
def {name}():
    # Mistake: {MARKER}: plausible wrong answer {k}, its mistake named here
    raise NotImplementedError
""",
''' for k in range(1, WRONG_STUBS + 1))


def _wrong_text(text: str, name: str) -> str:
    table = _wrong_answers_dict(ast.parse(text))
    lines = text.splitlines(keepends=True)
    if table is None or lines[table.end_lineno - 1].strip() != "}":
        return _appended(text, f"WRONG_ANSWERS[{json.dumps(name)}] = [\n"
                         f"{_wrong_placeholders(name, '    ')}]\n")
    if table.values:
        last = table.values[-1]
        line = lines[last.end_lineno - 1].encode()  # ast's columns count bytes
        head, tail = line[:last.end_col_offset], line[last.end_col_offset:]
        if not tail.lstrip().startswith(b","):
            lines[last.end_lineno - 1] = (head + b"," + tail).decode()
    entry = f'    "{name}": [\n{_wrong_placeholders(name, " " * 8)}    ],\n'
    lines[table.end_lineno - 1:table.end_lineno - 1] = [entry]
    return "".join(lines)
