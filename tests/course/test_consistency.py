"""One name per exercise: lesson, solution and public checks agree.

(Hidden checks are matched to test cells by the judge: see test_grading.)
"""

import copy

import pytest
from support import ASSIGNMENTS, COURSE, ROOT, load_notebook

from grader import _notebook, _read_first
from grader._authoring import _HEADING, restated
from grader.checks import exercise_names


def _test_cells(assignment: str) -> list[str]:
    return list(_notebook.exercise_cells(load_notebook(COURSE.source_notebook(assignment))))


def test_there_is_at_least_one_assignment():
    assert ASSIGNMENTS, "solutions/ holds no assignment"


def test_every_assignment_has_a_lesson_of_the_same_name(assignment):
    assert (ROOT / "course" / f"{assignment}.ipynb").exists()


def test_every_exercise_has_a_public_check_in_its_chapter(assignment):
    chapter = assignment.split("_", 1)[1]
    public = {name for name, module in exercise_names().items() if module == chapter}
    assert public == set(_test_cells(assignment))


def test_each_solution_cell_belongs_to_an_exercise(assignment):
    nb = load_notebook(COURSE.source_notebook(assignment))
    answers = [c["metadata"]["nbgrader"]["grade_id"] for c in nb["cells"]
               if c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    assert sorted(a.removesuffix("_answer") for a in answers) == sorted(_test_cells(assignment))


def test_every_test_cell_calls_its_public_check(assignment):
    for name, cell in _notebook.exercise_cells(
            load_notebook(COURSE.source_notebook(assignment))).items():
        assert f"check({name})" in "".join(cell["source"])


def test_the_intro_table_and_headings_restate_the_test_cells(assignment):
    """Points live in the test cells' metadata; the table and headings follow them."""
    nb = load_notebook(COURSE.source_notebook(assignment))
    assert restated(nb) == nb, "the intro table or a heading drifted: run `make release`"
    changed = copy.deepcopy(nb)
    name, cell = next(iter(_notebook.exercise_cells(changed).items()))
    cell["metadata"]["nbgrader"]["points"] = 7
    text = "".join(c for cell in restated(changed)["cells"] if cell["cell_type"] == "markdown"
                   for c in cell["source"])
    assert f"| 1 | `{name}`" in text and " | 7 |" in text and "## 1. " in text
    assert "(7 points)" in text


def _tasks(nb: dict) -> list[dict]:
    return [c for c in nb["cells"]
            if c["cell_type"] == "markdown" and _HEADING.search("".join(c["source"]))]


def test_each_task_says_which_lesson_sections_it_needs(assignment):
    """Named by cell id in the task's metadata; the linked titles follow the lesson."""
    source = COURSE.source_notebook(assignment)
    nb, lesson = load_notebook(source), _read_first.lesson_of(source)
    unnamed = [c["id"] for c in _tasks(nb)
               if not c["metadata"].get(_read_first.KEY, {}).get("read_first")]
    assert unnamed == [], f"tasks naming no lesson section: {unnamed}"
    assert _read_first.restated(nb, lesson) == nb, "a Read-first line drifted: run `make release`"
    released = load_notebook(COURSE.release_notebook(assignment))
    assert all("**Read first:** [" in "".join(c["source"]) for c in _tasks(released))


def test_a_section_renamed_or_gone_is_caught(assignment):
    source = COURSE.source_notebook(assignment)
    nb, lesson = load_notebook(source), _read_first.lesson_of(source)
    task = _tasks(nb)[0]
    first = task["metadata"][_read_first.KEY]["read_first"][0]
    title = _read_first.sections(load_notebook(lesson))[first]
    renamed = copy.deepcopy(nb)
    _tasks(renamed)[0]["source"] = ["## 1. Task (2 points)\n\n**Read first:** [Old title](x)"]
    fresh = "".join(_tasks(_read_first.restated(renamed, lesson))[0]["source"])
    assert "Old title" not in fresh
    assert f"[{title}](../../course/{lesson.name}#cell-id={first})" in fresh
    _tasks(renamed)[0]["metadata"][_read_first.KEY]["read_first"] = ["no-such-cell"]
    with pytest.raises(ValueError, match="no-such-cell"):
        _read_first.restated(renamed, lesson)
