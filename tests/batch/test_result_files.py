"""Gradescope's and PrairieLearn's results.json per submission (``grader/batch/_result_files.py``),
written by the export step from nbgrader's gradebook and the autograded notebooks' verdicts:
each valid by its platform's schema (``grader/export_schemas/``), its points the gradebook's
(a score changed by hand included), a failed hidden check a failed test with its detail,
nothing for a student who handed nothing in, and nothing outside the folder for a hostile id.

A small gradebook built with ``nbgrader.api`` and hand-made autograded notebooks, no grading run.
"""

import contextlib
import datetime
import io
import json
from pathlib import Path

import jsonschema  # nbformat's dependency
import pytest
from support import ROOT
from support.batch import with_alembic

from grader._verdict import with_verdict

SCHEMAS = ROOT / "grader" / "export_schemas"
DUE = datetime.datetime(2026, 11, 1, 12, 0)
POINTS = {"view": 3.0, "stride": 2.0}
HOSTILE_DETAIL = "got \x1b[31m<script>alert(1)</script>\u202e shape (2, 3)"


def _check(description: str, passed: bool, detail: str = "") -> dict:
    return {"description": description, "passed": passed, "detail": "" if passed else detail}


def _record(*checks: dict, misconceptions=()) -> dict:
    return {"passed": sum(c["passed"] for c in checks), "total": len(checks),
            "checks": list(checks), "misconceptions": list(misconceptions)}


# student → ({exercise: autograded score}, {exercise: score changed by hand}, {exercise: record})
CLASS = {
    "ada": ({"view": 3.0, "stride": 1.0}, {},
            {"view": _record(_check("returns a view", True), _check("returns a view", True)),
             "stride": _record(_check("strides match torch", True),
                               _check("strides match torch", False,
                                      "input shape (2, 3): expected (3, 1), got (1, 2)"),
                               misconceptions=["strides counted in bytes"])}),
    "grace": ({"view": 0.0, "stride": 2.0}, {"view": 2.5},
              {"view": _record(_check("returns a view", False, HOSTILE_DETAIL)),
               "stride": _record(_check("strides match torch", True))}),
    # Hostile ids: '..' passes id_problem (no markup character), a look-alike does not.
    "..": ({"view": 3.0, "stride": 2.0}, {}, {}),
    "rt3аmy": ({"view": 3.0, "stride": 2.0}, {}, {}),
}
ABSENT = "linus"  # in the class, handed nothing in


def _autograded_notebook(records: dict) -> dict:
    cells = []
    for name, points in POINTS.items():
        cell = {"cell_type": "code", "execution_count": 1, "id": name, "outputs": [],
                "source": f"check({name!r})",
                "metadata": {"nbgrader": {"grade": True, "solution": False, "locked": True,
                                          "grade_id": name, "points": points,
                                          "schema_version": 3}}}
        if name in records:
            with_verdict(cell, name, records[name], points)
        cells.append(cell)
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _gradebook(db_url: str) -> None:
    from nbgrader.api import Gradebook

    with pytest.MonkeyPatch.context() as patch, Gradebook(with_alembic(patch, db_url)) as book:
        book.update_or_create_assignment("a1", duedate=DUE)
        book.update_or_create_notebook("a1", "a1")
        for name, points in POINTS.items():
            book.update_or_create_grade_cell(name, "a1", "a1", max_score=points, cell_type="code")
        book.update_or_create_student(ABSENT)
        for student, (auto, by_hand, _) in CLASS.items():
            book.update_or_create_student(student)
            book.add_submission("a1", student, timestamp=DUE - datetime.timedelta(hours=1))
            for name, score in auto.items():
                grade = book.find_grade(name, "a1", "a1", student)
                grade.auto_score, grade.manual_score = score, by_hand.get(name)
            book.db.commit()


@pytest.fixture(scope="module")
def instructor(tmp_path_factory):
    """The instructor folder after the export step: ``export/`` and what it printed."""
    from grader.batch._export import export_for_lms

    instructor = tmp_path_factory.mktemp("instructor")
    db_url = f"sqlite:///{instructor / 'gradebook.db'}"
    _gradebook(db_url)
    for student, (_, _, records) in CLASS.items():
        if records:
            folder = instructor / "autograded" / student / "a1"
            folder.mkdir(parents=True)
            (folder / "a1.ipynb").write_text(json.dumps(_autograded_notebook(records)))
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        written = export_for_lms(db_url, instructor / "export")
    assert instructor / "export" / "gradescope" in written
    (instructor / "stderr.txt").write_text(said.getvalue())
    return instructor


def _result(instructor: Path, platform: str, student: str) -> dict:
    return json.loads((instructor / "export" / platform / student / "a1" / "results.json")
                      .read_text(encoding="utf-8"))


def _tests(result: dict) -> dict[str, dict]:
    return {test["name"]: test for test in result["tests"]}


def test_every_file_validates_against_its_platforms_schema(instructor):
    for platform in ("gradescope", "prairielearn"):
        schema = json.loads((SCHEMAS / f"{platform}_results.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        files = sorted((instructor / "export" / platform).rglob("results.json"))
        assert len(files) == 2
        for path in files:
            result = json.loads(path.read_text(encoding="utf-8"))
            assert not list(validator.iter_errors(result)), path
            assert path.stat().st_size < 1_000_000  # PrairieLearn's limit
            if platform == "prairielearn":  # else its element shows no test's points
                assert all("points" in t and "max_points" in t for t in result["tests"])


def test_the_schemas_refuse_what_the_platforms_would(instructor):
    """The schemas are not vacuous: a misspelt field, an unknown status, a score above 1."""
    gradescope = jsonschema.Draft202012Validator(
        json.loads((SCHEMAS / "gradescope_results.schema.json").read_text()))
    prairielearn = jsonschema.Draft202012Validator(
        json.loads((SCHEMAS / "prairielearn_results.schema.json").read_text()))
    good = _result(instructor, "gradescope", "ada")
    assert gradescope.is_valid(good)
    assert not gradescope.is_valid({**good, "scor": 1.0})
    assert not gradescope.is_valid({**good, "tests": [{**good["tests"][0], "status": "ok"}]})
    assert not gradescope.is_valid({"output": "no score anywhere"})
    assert not prairielearn.is_valid({**_result(instructor, "prairielearn", "ada"), "score": 1.5})
    assert not prairielearn.is_valid({"gradable": True, "message": "no score"})


def test_the_scores_are_the_gradebooks_a_score_changed_by_hand_included(instructor):
    ada, grace = (_result(instructor, "gradescope", s) for s in ("ada", "grace"))
    assert ada["score"] == 4.0 and grace["score"] == 4.5
    assert {n: (t["score"], t["max_score"]) for n, t in _tests(grace).items()} == {
        "view": (2.5, 3.0), "stride": (2.0, 2.0)}
    learn = _result(instructor, "prairielearn", "grace")
    assert learn["score"] == pytest.approx(4.5 / 5)
    assert {n: (t["points"], t["max_points"]) for n, t in _tests(learn).items()} == {
        "view": (2.5, 3.0), "stride": (2.0, 2.0)}
    # The verdict still says what the checks found: changed by hand, the test still failed.
    assert _tests(grace)["view"]["status"] == "failed"


def test_a_failed_check_is_a_failed_test_with_its_detail(instructor):
    ada = _tests(_result(instructor, "gradescope", "ada"))
    assert (ada["view"]["status"], ada["stride"]["status"]) == ("passed", "failed")
    output = ada["stride"]["output"]
    assert "✗ strides match torch: 1 of 2 wrong" in output
    assert "input shape (2, 3): expected (3, 1), got (1, 2)" in output
    assert "Looks like: strides counted in bytes" in output
    assert ada["stride"]["extra_data"] == {"checks_passed": 1, "checks_total": 2,
                                           "misconceptions": ["strides counted in bytes"]}
    assert "✓ returns a view (2 examples)" in ada["view"]["output"]
    learn = _tests(_result(instructor, "prairielearn", "ada"))["stride"]
    assert learn["message"] == "1 of 2 hidden checks passed"
    assert "expected (3, 1), got (1, 2)" in learn["output"]


def test_what_a_student_typed_reaches_no_page_as_markup_or_escape_codes(instructor):
    for platform in ("gradescope", "prairielearn"):
        text = (instructor / "export" / platform / "grace" / "a1" / "results.json").read_text()
        result = json.loads(text)
        view = _tests(result)["view"]
        assert "\x1b" not in view["output"] and "\u202e" not in view["output"]
        assert "\\x1b[31m<script>" in view["output"]  # shown, escaped, as plain text
    gradescope = _result(instructor, "gradescope", "grace")
    assert (gradescope["output_format"], gradescope["test_output_format"],
            gradescope["test_name_format"]) == ("text", "text", "text")


def test_a_missing_submission_writes_nothing(instructor):
    for platform in ("gradescope", "prairielearn"):
        folder = instructor / "export" / platform
        assert sorted(p.name for p in folder.iterdir()) == ["ada", "grace"]
        assert not (folder / ABSENT).exists()


def test_a_hostile_id_writes_nothing_and_nothing_outside_the_folder(instructor):
    written = sorted(p.relative_to(instructor).as_posix() for p in instructor.rglob("results.json"))
    assert written == [f"export/{platform}/{student}/a1/results.json"
                       for platform in ("gradescope", "prairielearn")
                       for student in ("ada", "grace")]
    said = (instructor / "stderr.txt").read_text()
    assert "'..', 'a1': the id is a path character (. or ..)" in said
    assert "several scripts" in said
