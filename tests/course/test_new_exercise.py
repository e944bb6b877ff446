"""``new-exercise`` writes a new exercise's stubs, right in structure, in the four right places.

Each test runs the command on a temporary copy of the course (the files git lists) with
the copy's own ``grader`` imported (``PYTHONPATH``), never on this checkout. The stubs
must pass the consistency tests as written, and fail everywhere else, saying what is
left to write, until the author writes it; ``test_no_new_exercise_is_left_unwritten``
lists what is left in this checkout.
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from support import ROOT, load_notebook
from support.course_copy import copy_course

from grader import _authoring, _notebook, scaffold

# A name no course will use, so that these tests hold however many exercises there are.
ASSIGNMENT, NAME, POINTS = "01_storage_strides", "scaffold_probe", 3
FOUR = {
    "solutions/01_storage_strides/01_storage_strides.ipynb",
    "grader/checks/storage_strides/__init__.py",
    "grader/hidden/storage_strides/test.py",
    "grader/hidden/storage_strides/wrong_answers.py",
}
_SCRATCH = {"__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache"}


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*")
            if p.is_file() and not _SCRATCH & set(p.relative_to(root).parts)}


def _changed(before: dict, after: dict) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def _run(root: Path, *command: str, timeout=120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _new_exercise(root: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(root, sys.executable, "-m", "grader.cli", "new-exercise", *args)


def _source_notebook(root: Path, assignment: str = ASSIGNMENT) -> Path:
    return root / "solutions" / assignment / f"{assignment}.ipynb"


EXISTING = next(iter(_notebook.exercise_cells(load_notebook(_source_notebook(ROOT)))))


def _by_grade_id(nb: dict) -> dict[str, int]:
    return {c["metadata"]["nbgrader"]["grade_id"]: i for i, c in enumerate(nb["cells"])
            if "nbgrader" in c.get("metadata", {})}


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return copy_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="module")
def added(copy):
    """(the command's result, the copy's files before, after)."""
    before = _snapshot(copy)
    done = _new_exercise(copy, ASSIGNMENT, NAME, "--points", str(POINTS))
    return done, before, _snapshot(copy)


def test_the_copy_imports_its_own_grader(copy):
    done = _run(copy, sys.executable, "-c", "import grader; print(grader.__file__)")
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == copy / "grader" / "__init__.py"


def test_it_writes_the_four_files_and_nothing_else(added):
    done, before, after = added
    assert done.returncode == 0, done.stderr
    assert _changed(before, after) == FOUR
    for path in FOUR:
        assert path in done.stdout
    # It says what to fill in, and ends with the commands to run.
    assert "fill in:" in done.stdout and scaffold.MARKER in done.stdout
    last = done.stdout.strip().splitlines()[-4:]
    assert last[0].strip() == "make release"
    assert "tests/course/test_consistency.py" in last[1]
    assert "tests/judge/test_grading.py -k 01_storage_strides" in last[2]


def test_the_new_cells_follow_the_last_exercise_with_their_nbgrader_metadata(added, copy):
    text = _source_notebook(copy).read_text(encoding="utf-8")
    nb = json.loads(text)
    assert text == json.dumps(nb, indent=1, ensure_ascii=False) + "\n"  # as nbformat writes
    nbformat.validate(nbformat.reads(text, as_version=4))  # schema, and unique cell ids

    old = load_notebook(_source_notebook(ROOT))
    exercises = list(_notebook.exercise_cells(old))
    at = _by_grade_id(old)[exercises[-1]] + 1
    task, answer, test = nb["cells"][at:at + 3]
    assert nb["cells"][:at][1:] == old["cells"][:at][1:]  # all but the intro: untouched
    assert nb["cells"][at + 3:] == old["cells"][at:]

    meta = {name: cell["metadata"]["nbgrader"] for name, cell in
            (("task", task), ("answer", answer), ("test", test))}
    assert task["cell_type"] == "markdown" and answer["cell_type"] == test["cell_type"] == "code"
    assert meta["task"] == {"grade": False, "grade_id": f"{NAME}_task", "locked": True,
                            "schema_version": 3, "solution": False}
    assert meta["answer"] == {"grade": False, "grade_id": f"{NAME}_answer", "locked": False,
                              "schema_version": 3, "solution": True}
    assert meta["test"] == {"grade": True, "grade_id": NAME, "locked": True, "points": POINTS,
                            "schema_version": 3, "solution": False}
    assert list(_notebook.exercise_cells(nb))[-1] == NAME

    ids = [c["id"] for c in nb["cells"]]
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 8 and set(i) <= set("0123456789abcdef") for i in ids)  # its style

    source = {name: "".join(cell["source"]) for name, cell in
              (("task", task), ("answer", answer), ("test", test))}
    assert source["task"].startswith(f"## {len(exercises) + 1}. Scaffold probe ({POINTS} points)\n")
    assert source["answer"].startswith(f"def {NAME}(")
    assert '"""' in source["answer"]
    assert "### BEGIN SOLUTION\n" in source["answer"]
    assert source["answer"].endswith("    raise NotImplementedError()\n    ### END SOLUTION")
    before = "".join(old["cells"][at - 1]["source"])
    region = before[before.index("\n\n### BEGIN HIDDEN TESTS"):]
    assert source["test"].endswith(f"check({NAME})" + region)

    old_intro = "".join(old["cells"][0]["source"])
    last = list(_authoring._ROW.finditer(old_intro))[-1]
    row = (f"| {len(exercises) + 1} | `{NAME}` — {scaffold.MARKER}: a few words on what it "
           f"does | {POINTS} |")
    assert "".join(nb["cells"][0]["source"]) == \
        old_intro[:last.end()] + "\n" + row + old_intro[last.end():]
    assert _authoring.restated(nb) == nb


def test_the_copys_consistency_tests_pass_on_the_stubs(added, copy):
    done = _run(copy, sys.executable, "-m", "pytest", "tests/course/test_consistency.py", "-q",
                "-p", "no:cacheprovider", timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


PROBE = f"""
import ast, importlib.util, json, sys
from grader.checks import exercise_names
from grader.checks._registry import registered

def failure(call):
    try:
        call()
    except NotImplementedError as exc:
        return str(exc)
    return None

def module(path):
    spec = importlib.util.spec_from_file_location(path.replace("/", "_")[:-3], path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded

chapter = exercise_names()["{NAME}"]  # loads every chapter's public checks
entry = registered()["{NAME}"]
hidden = module("grader/hidden/storage_strides/test.py")
checks = [f for f in vars(hidden).values() if any(
    m.name == "exercise" and m.args == ("{NAME}",) for m in getattr(f, "pytestmark", []))]
sys.path.insert(0, "tests")
wrong = module("grader/hidden/storage_strides/wrong_answers.py").WRONG_ANSWERS["{NAME}"]
print(json.dumps({{
    "chapter": chapter,
    "examples": failure(entry.examples),
    "compare": failure(lambda: entry.compare(lambda *a: None)),
    "hidden": [failure(lambda f=f: f(student=None)) for f in checks],
    "wrong": [sorted(n.name for n in ast.parse(w).body if isinstance(n, ast.FunctionDef))
              for w in wrong],
}}))
"""


def test_the_stubs_fail_until_written_and_say_what_to_write(added, copy):
    done = _run(copy, sys.executable, "-c", PROBE)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["chapter"] == "storage_strides"
    assert f"examples of the public check for {NAME}" in found["examples"]
    assert f"write the public check for {NAME}" in found["compare"]
    assert found["hidden"] == [f"{scaffold.MARKER}: write hidden check {k} of {NAME}"
                               for k in (1, 2, 3)]
    assert found["wrong"] == [[NAME], [NAME]]
    # What is left, file by file: each of the four files, and the new cells.
    left = scaffold.unwritten(copy)
    assert {line.split(":")[0].split(",")[0] for line in left} == FOUR
    assert {line.split(", cell ")[1].split(":")[0] for line in left if ", cell " in line} \
        == {"intro", f"{NAME}_task", f"{NAME}_answer", NAME}


def test_the_python_it_writes_passes_the_linter(added, copy):
    files = sorted(f for f in FOUR if f.endswith(".py"))
    done = _run(copy, sys.executable, "-m", "ruff", "check", "--no-cache", *files)
    assert done.returncode == 0, done.stdout + done.stderr


REFUSED = {  # the arguments, and what the one line must say
    "an existing exercise": ([ASSIGNMENT, EXISTING], [f"{EXISTING!r} exists already"]),
    "another assignment's exercise": (["02_creating_tensors", EXISTING],
                                      [f"{EXISTING!r} exists already", ASSIGNMENT]),
    "an unknown assignment": (["07_nowhere", "my_function"], ["unknown assignment '07_nowhere'"]),
    "a name with a dash": ([ASSIGNMENT, "my-function"],
                           ["'my-function' is not a Python identifier"]),
    "a keyword": ([ASSIGNMENT, "lambda"], ["'lambda' is not a Python identifier"]),
    "no points": ([ASSIGNMENT, "my_function", "--points", "0"], ["--points 0", "1 point or more"]),
}


@pytest.mark.parametrize("case", REFUSED)
def test_it_refuses_in_one_line_and_writes_nothing(case, copy):
    args, says = REFUSED[case]
    before = _snapshot(copy)
    done = _new_exercise(copy, *args)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert all(words in done.stderr for words in says), done.stderr
    assert _changed(before, _snapshot(copy)) == set()


def test_a_name_it_just_added_is_refused(added, copy):
    done = _new_exercise(copy, ASSIGNMENT, NAME)
    assert done.returncode == 2 and "exists already" in done.stderr


@pytest.mark.parametrize(("chapter", "ids", "separator"), [
    ("03_shape_ops_broadcasting", ["scaffold-probe-task", "scaffold-probe-answer",
                                   "scaffold-probe"], " — "),
    ("06_pitfalls", None, " | "),
])
def test_ids_and_the_table_row_follow_the_notebooks_style(chapter, ids, separator, tmp_path):
    copy = copy_course(tmp_path)  # (the name ``assignment`` would parametrize over all six)
    done = _new_exercise(copy, chapter, NAME)
    assert done.returncode == 0, done.stderr
    nb = load_notebook(_source_notebook(copy, chapter))
    nbformat.validate(nbformat.from_dict(nb))
    tests = list(_notebook.exercise_cells(nb))
    at = _by_grade_id(nb)[f"{NAME}_task"]
    new_ids = [c["id"] for c in nb["cells"][at:at + 3]]
    if ids:
        assert new_ids == ids
    else:
        assert all(len(i) == 8 for i in new_ids)
    intro = "".join(nb["cells"][0]["source"])
    assert f"| {len(tests)} | `{NAME}`{separator}{scaffold.MARKER}" in intro
    assert f" ({scaffold.DEFAULT_POINTS} points)" in "".join(nb["cells"][at]["source"])
    assert _authoring.restated(nb) == nb


def test_make_new_exercise_runs_the_command(copy):
    done = _run(copy, "make", "-n", "new-exercise", f"ASSIGNMENT={ASSIGNMENT}", f"NAME={NAME}",
                "POINTS=3")
    assert done.returncode == 0, done.stderr
    assert f"-m grader.cli new-exercise {ASSIGNMENT} {NAME} --points 3" in done.stdout
    done = _run(copy, "make", "-n", "new-exercise", f"ASSIGNMENT={ASSIGNMENT}")
    assert done.returncode != 0 and "usage: make new-exercise" in done.stderr


def test_no_new_exercise_is_left_unwritten():
    """This checkout: every part that ``make new-exercise`` wrote has been written since."""
    left = scaffold.unwritten(ROOT)
    assert not left, "still as `make new-exercise` wrote them:\n  " + "\n  ".join(left)
