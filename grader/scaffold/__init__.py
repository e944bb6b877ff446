"""``new-exercise``: the stubs of a new exercise, in the four places an exercise lives.

    solutions/<assignment>/<assignment>.ipynb    task, answer and test cells; intro table row
    grader/checks/<chapter>/__init__.py          its public check (examples + comparison)
    grader/hidden/<chapter>/test.py              three hidden checks
    grader/hidden/<chapter>/wrong_answers.py     two plausible wrong answers

Every stub is right in structure (the consistency tests pass on it) and wrong in
substance: what the author still has to write carries ``MARKER``, and the stubs
of checks raise ``NotImplementedError`` saying what to write, so the public
check, the hidden checks and the solution fail until they are written.
``unwritten`` lists what is left, file by file (``tests/course/test_new_exercise.py``
fails while anything is). Nothing here imports torch: the command is instant.
"""

import json
import sys
from pathlib import Path

from grader import _notebook
from grader._course import Course
from grader.scaffold._request import (
    DEFAULT_POINTS,
    HIDDEN_STUBS,
    MARKER,
    WRONG_STUBS,
    Refused,
    Written,
    _chapter,
    _check_request,
    _places,
    _rel,
)
from grader.scaffold._stubs import (
    _checks_text,
    _hidden_text,
    _lines,
    _module_alias,
    _notebook_text,
    _wrong_text,
)

__all__ = ["MARKER", "Refused", "new_exercise", "main", "unwritten"]


# --- the command ----------------------------------------------------------------------


def new_exercise(course: Course, assignment: str, name: str,
                 points: int = DEFAULT_POINTS) -> list[Written]:
    """Write the new exercise's stubs (all four files, or, on ``Refused``, none)."""
    texts = _check_request(course, assignment, name, points)
    places = _places(course, assignment)
    notebook, number = _notebook_text(course, assignment, name, points)
    chapter = _chapter(assignment)
    alias = _module_alias(texts["hidden"], chapter)
    written = [
        Written(places["notebook"], notebook,
                f"cells {name}_task, {name}_answer and {name} ({points} point"
                f"{'s' if points != 1 else ''}), exercise {number}, and its intro table row",
                ["the heading's title and the task under it",
                 "the intro table row's few words",
                 "the def's arguments and docstring, and the solution between "
                 "### BEGIN SOLUTION and ### END SOLUTION",
                 "a few visible asserts in the test cell (before its check call)"]),
        Written(places["checks"], _checks_text(texts["checks"], name, number),
                f"_{name}_examples and compare_{name}, registered with @public_check",
                [f"_{name}_examples: return the argument tuples that check({name}) tries",
                 f"compare_{name}(fn, ...): call fn, ask torch (a wrapped torch call in "
                 f"grader/checks/{chapter}/_oracle.py), raise Mismatch with the input on a "
                 "difference; a truth that takes more than a torch call is the answer: "
                 f"its oracle goes in grader/hidden/{chapter}/oracles.py (@oracle(name)), the "
                 "check is registered with stored=True and takes truth=, and `make "
                 "release` stores its examples' answers",
                 "a fact that cannot cross the wire (a graph, a .grad, a callable) needs a "
                 "harness: grader/_harness.py; see fn.harness(...) in "
                 "grader/checks/autograd/__init__.py"]),
        Written(places["hidden"], _hidden_text(texts["hidden"], assignment, name, number),
                f"test_{name}_1 to test_{name}_{HIDDEN_STUBS}, marked "
                f'@pytest.mark.exercise("{name}")',
                [f"{HIDDEN_STUBS} hidden checks or more: hypothesis @given inputs, each "
                 f"calling {alias}.compare_{name}(student.{name}, ...), each docstring what "
                 "it checks"]),
        Written(places["wrong"], _wrong_text(texts["wrong"], name),
                f'WRONG_ANSWERS["{name}"], {WRONG_STUBS} placeholders',
                [f"{WRONG_STUBS} plausible wrong answers or more: the full source of an answer "
                 "cell, its mistake named in its first comment, each losing a hidden check"]),
    ]
    for item in written:
        item.path.write_text(item.text, encoding="utf-8")
    return written


def _python(course: Course) -> str:
    venv = course.root / ".venv" / "bin" / "python"
    return ".venv/bin/python" if venv.exists() else "python"


def main(course: Course, assignment: str, name: str, points: int = DEFAULT_POINTS) -> int:
    """The ``new-exercise`` command: write the stubs and say what to fill in; 2 if refused."""
    try:
        written = new_exercise(course, assignment, name, points)
    except Refused as exc:
        print(f"new-exercise: refused: {exc}", file=sys.stderr)
        return 2
    print(f"new exercise {name} in {assignment}: wrote the stubs of its four parts.\n")
    for item in written:
        print(f"{_rel(course, item.path)}\n  wrote: {item.wrote}")
        print("\n".join(f"  fill in: {what}" for what in item.fill_in) + "\n")
    pytest = f"{_python(course)} -m pytest -q -p no:cacheprovider"
    print(f"What is still to write is marked {MARKER}; this lists it:\n"
          f"  {pytest} tests/course/test_new_exercise.py -k unwritten\n"
          f"Until it is written, {name}'s public check, hidden checks and solution fail "
          "and say so.\n\nThen:\n"
          "  make release\n"
          f"  {pytest} tests/course/test_new_exercise.py tests/course/test_consistency.py "
          "tests/course/test_release.py\n"
          f"  {pytest} tests/checks/test_public_checks.py tests/judge/test_grading.py "
          f"-k {assignment}\n"
          f"  {pytest} tests/student/test_reachable.py")
    return 0


def unwritten(root: Path) -> list[str]:
    """Each part of a new exercise still as ``new-exercise`` wrote it: ``where: what``."""
    course, found = Course(Path(root)), []
    for assignment in course.assignments():
        path = course.source_notebook(assignment)
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            marked = [line.strip() for line in _lines(_notebook.source(cell))
                      if MARKER in line]
            if marked:
                name = _notebook.nbgrader_metadata(cell).get("grade_id") or cell.get("id")
                found.append(f"{_rel(course, path)}, cell {name}: {marked[0]}")
    for folder in ("grader/checks", "grader/hidden"):
        for path in sorted((course.root / folder).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            found += [f"{_rel(course, path)}:{n}: {line.strip()}"
                      for n, line in enumerate(lines, 1) if MARKER in line]
    return found
