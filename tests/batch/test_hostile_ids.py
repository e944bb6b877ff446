"""Student ids a hostile student chose (``grader/batch/_student_ids.py``): checked before anything
is graded, a refused one costing only its submission with one line; look-alikes flagged; every
id the grading command prints shown through ``terminal_safe``."""


import pytest
from support import ASSIGNMENTS
from support.batch import blank_stub, file_and_grade

from grader.batch import _gradebook

ASSIGNMENT = ASSIGNMENTS[0]
ERASER = "\x1b[1A\x1b[2Kmallory"  # up a line, erase it: a row of the summary gone
GRADED = ("Ada", "ada")  # alike, yet two logins: both graded
REFUSED = {" amy": "starts or ends with a space", ERASER: "control or invisible"}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """One serial grading run of blank stubs (the cheapest to judge), filed under each id."""
    instructor = tmp_path_factory.mktemp("instructor")
    done = file_and_grade(instructor, dict.fromkeys((*GRADED, *REFUSED), blank_stub()))
    return instructor, done


def test_a_refused_id_costs_only_its_submission_with_a_line_saying_why(graded):
    instructor, done = graded
    lines = done.stdout.splitlines()
    for student, why in REFUSED.items():
        shown = student.encode("unicode_escape").decode()
        said = [line for line in lines if f'student id "{shown}"' in line]
        assert len(said) == 1 and why in said[0], done.stdout[-3000:]
    assert f"Refused {len(REFUSED)} submission(s) of {ASSIGNMENT}" in done.stdout
    assert done.returncode == 1  # not everything handed in was graded
    table = _gradebook.scores(f"sqlite:///{instructor / 'gradebook.db'}", ASSIGNMENT)
    assert sorted(table) == sorted(GRADED)  # the others' run went on; no refused id reached it


def test_no_escape_code_a_student_typed_reaches_the_terminal(graded):
    _, done = graded
    assert "\x1b" not in done.stdout + done.stderr
    assert "\\x1b[1A\\x1b[2Kmallory" in done.stdout


def test_ids_that_look_alike_are_flagged_in_one_line_and_each_graded(graded):
    _, done = graded
    flagged = [line for line in done.stdout.splitlines() if "look alike" in line]
    assert len(flagged) == 1 and '"Ada", "ada"' in flagged[0] and "2 graded" in flagged[0]
    summary = done.stdout[done.stdout.index(f"\n{ASSIGNMENT}\n"):].splitlines()
    assert {line.split()[0] for line in summary if line.endswith("0%")} >= set(GRADED)


def test_the_summary_table_shows_an_id_from_the_gradebook_escaped():
    """An id that reached the gradebook another way (nbgrader db, the formgrader)."""
    table = _gradebook.format_table({ERASER: {"x": 0.0, "total": 0.0, "max": 2.0}}, ["x"])
    assert "\x1b" not in table and "\\x1b[1A\\x1b[2Kmallory" in table


def test_each_id_that_cannot_be_graded_is_named_and_look_alikes_grouped():
    from grader.batch._student_ids import look_alike_groups, refused_ids

    ids = ["ada", "Ada", "ａｄａ", " amy", "rt3amy", "rt3\u200bamy", "rt3\u0430my", "=1+1"]
    assert set(refused_ids(ids)) == {"ａｄａ", " amy", "rt3\u200bamy", "rt3\u0430my", "=1+1"}
    # A Cyrillic а is drawn as the Latin a: refused (mixed scripts), and flagged beside it.
    assert look_alike_groups(ids) == [["ada", "Ada", "ａｄａ"], ["rt3amy", "rt3\u0430my"]]


def test_the_misconception_table_never_opens_an_id_as_a_formula():
    """Its student_ids cell, read in a spreadsheet (an id graded before ids were checked)."""
    from grader.batch._misconception_report import misconception_table

    rows = misconception_table(ASSIGNMENT, {"=1+1": {"x": ["a mistake"]}, "ada": {}})
    assert next(r for r in rows if r["misconception"] == "a mistake")["student_ids"] == "'=1+1"
