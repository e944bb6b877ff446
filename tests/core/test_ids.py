"""What a student typed as an id, a name or a file name (``grader._ids``): refused where it
could pose as someone, break a page, a spreadsheet or a terminal; printed inert elsewhere.
Where each rule is applied (triage, collect, zip_collect, the exports) is tested there."""

import pytest

from grader._ids import id_problem, look_alike, spreadsheet_cell, terminal_safe

GRADABLE = ["ta-ada", "12345", "ada.lovelace@uni.example", "王小明", "Ada_2"]
REFUSED = {  # id → a word of the reason
    "": "empty", " amy": "space", "amy ": "space", "rt3\u200bamy": "invisible",
    "ada\x1b[2K": "control", "=HYPERLINK(1)": "formula", "+1": "formula", "-x": "formula",
    "@x": "formula", "<img src=x onerror=alert(1)>": "space", "a<b": "markup",
    "../ada": "markup", ".": "path", "..": "path",
    "ｒt3amy": "normal form", "rt3аmy": "scripts", "x" * 129: "longer",
}


@pytest.mark.parametrize("student_id", GRADABLE)
def test_a_plain_id_is_gradable(student_id):
    assert id_problem(student_id) is None


@pytest.mark.parametrize("student_id,reason", REFUSED.items())
def test_an_id_that_could_pose_or_break_something_is_refused_with_why(student_id, reason):
    problem = id_problem(student_id)
    assert problem is not None and reason in problem, (student_id, problem)


def test_ids_that_print_alike_share_a_key_and_others_do_not():
    cyrillic_ace, greek_poe = "\u0430\u0441\u0435", "\u03c1\u03bf\u03b5"
    assert id_problem(cyrillic_ace) is None  # one script: only the key can tell
    assert look_alike(cyrillic_ace) == look_alike("ace") == look_alike("ACE")
    assert look_alike(greek_poe)[:2] == look_alike("po")
    assert look_alike("ａｄａ") == look_alike("ada")
    assert look_alike("ada") != look_alike("adam")


def test_a_control_or_invisible_character_is_shown_never_acted_on():
    shown = terminal_safe("ada\x1b[1A\x1b[2K\u202eevil\u200b")
    assert shown == "ada\\x1b[1A\\x1b[2K\\u202eevil\\u200b"
    assert terminal_safe("王小明 ada") == "王小明 ada"


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_a_cell_a_spreadsheet_would_run_starts_with_an_apostrophe(cell):
    assert spreadsheet_cell(cell) == "'" + cell


def test_a_plain_cell_is_written_as_it_is():
    assert spreadsheet_cell("Lovelace, Ada") == "Lovelace, Ada"
