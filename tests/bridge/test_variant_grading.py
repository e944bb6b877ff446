"""One grading run with a variant key, end to end (``grader.cli grade``, nbgrader and all).

The key made and each student's claims published as ``grader.cli variants`` does; ada
answers ``predict_verdicts`` on her own variant, a classmate pastes ada's table; the
real grading command grades both from the id each submitted under. Unit tests of the
same path, judge by judge: ``tests/bridge/test_variants.py``.
"""

import pytest
from support import COURSE, complete_notebook, load_notebook
from support.batch import file_and_grade

from grader import _notebook
from grader.batch import _gradebook
from grader.bridge import _variants
from grader.givens import variants as _variant
from grader.givens.pitfalls import CLAIMS

pytestmark = pytest.mark.heavy  # grades two students with nbgrader: scheduled first

ASSIGNMENT, EXERCISE = "06_pitfalls", "predict_verdicts"

# The feedback line of a table made for another variant (grader/bridge/_verdict_text.py).
ANOTHER_VARIANT = "These answers are for another variant than yours"


def _answering(table: dict[str, bool]) -> dict:
    """The instructor's solution, but ``predict_verdicts`` returns ``table``."""
    nb = complete_notebook(ASSIGNMENT)
    cell = next(c for c in nb["cells"]
                if _notebook.nbgrader_metadata(c).get("grade_id") == f"{EXERCISE}_answer")
    cell["source"] = f"def {EXERCISE}():\n    return {table!r}\n"
    return nb


def _points(exercise: str) -> float:
    """The exercise's points, as its test cell in solutions/ gives them."""
    cells = _notebook.exercise_cells(load_notebook(COURSE.source_notebook(ASSIGNMENT)))
    return cells[exercise]["metadata"]["nbgrader"]["points"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """(instructor folder, the grading command's outcome, the copier's id): one run."""
    from grader.checks._finite_answers import verdict

    instructor = tmp_path_factory.mktemp("instructor")
    released = tmp_path_factory.mktemp("outbound") / ASSIGNMENT
    candidates = ["ada", "grace", "linus", "barbara"]
    _variants.publish(instructor, released, ASSIGNMENT, candidates)  # makes the key
    mine = {s: _variant.your_items(EXERCISE, list(CLAIMS), released, s) for s in candidates}
    copier = next(s for s in candidates[1:] if set(mine[s]) != set(mine["ada"]))
    ada_table = {claim: verdict(claim) for claim in mine["ada"]}
    done = file_and_grade(instructor, {"ada": _answering(ada_table),
                                       copier: _answering(ada_table)}, ASSIGNMENT)
    return instructor, done, copier


def _scores(instructor, done) -> dict:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return _gradebook.scores(f"sqlite:///{instructor / 'gradebook.db'}", ASSIGNMENT)


def _feedback(instructor, student: str) -> str:
    (page,) = (instructor / "feedback" / student / ASSIGNMENT).glob("*.html")
    return page.read_text(encoding="utf-8")


def test_the_student_answering_her_own_variant_gets_full_points(graded):
    instructor, done, _ = graded
    scores = _scores(instructor, done)
    assert scores["ada"][EXERCISE] == _points(EXERCISE)
    assert scores["ada"]["total"] == scores["ada"]["max"]
    assert ANOTHER_VARIANT not in _feedback(instructor, "ada")


def test_a_pasted_table_loses_the_points_and_the_page_says_why_once(graded):
    instructor, done, copier = graded
    scores = _scores(instructor, done)
    assert scores[copier][EXERCISE] < _points(EXERCISE)
    assert scores[copier]["total"] == scores[copier]["max"] - (
        _points(EXERCISE) - scores[copier][EXERCISE])  # every other exercise in full
    assert _feedback(instructor, copier).count(ANOTHER_VARIANT) == 1
