"""Ways a student tampers with what is graded, and what a feedback page must not show.

The structural tamperings (a test cell deleted, edited, duplicated, an old schema
forged...) each take a complete submission and change it in place: the bridge's own
tests (bridge/test_structure.py) and the whole flow's (batch/test_pipeline.py) apply
the same ones. ``TAMPERING`` is an answer cell's code that patches torch, builtins
and the checks to pass everything: the judge's tests and the pipeline's submit it.
"""

import copy
from html import unescape

from grader.judge._judge import hidden_checks_path

TAMPERING = '''
import builtins, sys, torch
import grader, grader.checks
torch.equal = lambda *a, **k: True
torch.allclose = lambda *a, **k: True
torch.Tensor.__eq__ = lambda *a, **k: True
torch.Tensor.__ne__ = lambda *a, **k: False
builtins.isinstance = lambda *a, **k: True
grader.check = grader.checks.check = lambda *a, **k: None
for name in list(sys.modules):
    if name.startswith(("grader", "pytest", "hypothesis")):
        sys.modules[name] = None

class Anything:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__

def _anything(*args, **kwargs):
    return Anything()
'''


def grade_meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def graded_test_cells(nb):
    return [c for c in nb["cells"]
            if grade_meta(c).get("grade") and not grade_meta(c).get("solution")]


def answer_cells(nb):
    return [c for c in nb["cells"] if grade_meta(c).get("solution")]


def delete_a_test_cell(nb):
    nb["cells"].remove(graded_test_cells(nb)[0])


def reorder_every_cell(nb):
    nb["cells"].reverse()


def retype_a_test_cell(nb):
    cell = graded_test_cells(nb)[0]
    cell.update(cell_type="markdown", source="full marks please")
    del cell["outputs"], cell["execution_count"]


def edit_a_test_cell_and_its_points(nb):
    cell = graded_test_cells(nb)[0]
    cell["source"] = "print('all passed')"
    grade_meta(cell)["points"] = 100


def duplicate_cells_and_ids(nb):
    first, second = graded_test_cells(nb)[:2]
    nb["cells"] += [copy.deepcopy(first), copy.deepcopy(second)]


def swap_test_grade_ids(nb):
    first, second = graded_test_cells(nb)[:2]
    first_id, second_id = grade_meta(first)["grade_id"], grade_meta(second)["grade_id"]
    grade_meta(first)["grade_id"], grade_meta(second)["grade_id"] = second_id, first_id


def forge_an_old_schema(nb):
    # Stock nbgrader aborts the whole batch on it.
    grade_meta(graded_test_cells(nb)[0])["schema_version"] = 0


def forge_a_new_schema_on_a_plain_cell(nb):
    nb["cells"].append({"cell_type": "code", "id": "x", "source": "y = 1", "outputs": [],
                        "execution_count": None, "metadata": {"nbgrader": {
                            "schema_version": 99, "grade": True, "points": 50,
                            "grade_id": "bonus", "solution": False, "locked": False}}})


def turn_a_locked_markdown_cell_into_code(nb):
    locked = next(c for c in nb["cells"] if c["cell_type"] == "markdown" and grade_meta(c))
    locked.update(cell_type="code", outputs=[], execution_count=None)


def garble_metadata(nb):
    graded_test_cells(nb)[0]["metadata"]["nbgrader"] = "not a dict"
    nb["cells"].append({"cell_type": "raw", "metadata": [], "source": 3})


TAMPERINGS = [garble_metadata, delete_a_test_cell, reorder_every_cell, retype_a_test_cell,
              edit_a_test_cell_and_its_points, duplicate_cells_and_ids, swap_test_grade_ids,
              forge_an_old_schema, forge_a_new_schema_on_a_plain_cell,
              turn_a_locked_markdown_cell_into_code]


def leaked(html: str, assignment: str) -> list[str]:
    """What of an assignment's hidden checks a feedback page shows: a hidden-test region's
    marker, or a line of the hidden checks (one long enough to mean something)."""
    hidden_source = hidden_checks_path(assignment).read_text(encoding="utf-8")
    hidden_lines = {line.strip() for line in hidden_source.splitlines()
                    if len(line.strip()) > 30}
    # Its entities decoded (nbconvert's template writes ' as &#39;), its highlighted code
    # left in spans: a line the student was given shows in their own code too.
    shown = unescape(html)
    return (["BEGIN HIDDEN TESTS"] if "BEGIN HIDDEN TESTS" in shown else []) + \
        [line for line in hidden_lines if line in shown]
