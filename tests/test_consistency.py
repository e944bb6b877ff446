"""One name per exercise: lesson, solution and public checks agree.

(Hidden checks are matched to test cells by the judge: see test_grading.)
"""

import copy

from conftest import ASSIGNMENTS, COURSE, ROOT, load_notebook

from grader import _notebook
from grader._authoring import restated
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
