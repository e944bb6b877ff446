"""The grading commands speak the student's language (``grader._language``): which language
a submission is in, the catalogue of what they write (``grader/locale/<language>.po``), and
a feedback page's verdicts, note, Markdown and labels in it (``grader.bridge._feedback_language``).
The whole path, graded by ``grader.cli grade``, is in
``tests/translation/test_translated_grading.py``; ``validate`` in
``tests/batch/test_validate.py``."""

import copy
import json
import re
import subprocess
import sys

import nbformat
import pytest
from support import COURSE, ROOT, load_notebook

from grader import _language
from grader._language import ENGLISH, KEY, localized
from grader._verdict import with_verdict
from grader.batch._demo import synthetic_submission
from grader.batch._dry_run import points_table
from grader.bridge._feedback_language import (
    InStudentLanguage,
    language_of,
    page_in_language,
    with_language,
)
from grader.bridge._feedback_verdict import VerdictsOnThePage
from grader.bridge._structure import NOTE_ID, note_in_language, restore_structure
from grader.bridge._verdict_text import (
    LOOKS_LIKE,
    NOT_ATTEMPTED,
    misconceptions_shown,
    report_lines,
)
from grader.translation import _catalogue, _grading, _merge, _pofile

LANGUAGES = [lang for lang in _language.grading_languages() if lang != ENGLISH]
ASSIGNMENT = "01_storage_strides"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


# -- the catalogue ------------------------------------------------------------------------

def test_the_grading_codes_strings_are_found_by_their_calls():
    source = ('X = marked("a {x}", "verdict")\n'
              'localized("b", "validate", language).format()\n'
              'grader._language.localized(text="c", context="page", language=lang)\n'
              'localized(X, "verdict", language)   # a marked one, not a literal\n'
              'translate("d", "checks")            # the kernel\'s catalogue, not this one\n')
    assert _grading.found_in(source) == [("verdict", "a {x}"), ("validate", "b"),
                                         ("page", "c")]
    found = _grading.lines(ROOT)
    assert ("verdict", "Looks like: {mistake}") in found and ("validate", "total") in found


# What the judge shows as a check's description (``grader.judge._plugin``: the first line of
# the test function's docstring), read in another interpreter: no hidden check is imported
# into the tests' own.
_DESCRIPTIONS = """
import importlib, inspect, json, pathlib, sys
found = []
for path in sorted(pathlib.Path(sys.argv[1], "grader", "hidden").glob("*/test.py")):
    module = importlib.import_module(f"grader.hidden.{path.parent.name}.test")
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("test") and fn.__module__ == module.__name__ and fn.__doc__:
            found.append(fn.__doc__.strip().splitlines()[0])
print(json.dumps(found))
"""


def test_every_hidden_check_and_named_mistake_is_in_the_grading_catalogue():
    """The judge's own words a verdict shows: every description of a hidden check and the
    name of every named wrong answer, collected by ``update`` (each with its context)."""
    from grader.hidden.wrong_answers import named_wrong_answers

    described = json.loads(subprocess.run([sys.executable, "-c", _DESCRIPTIONS, str(ROOT)],
                                          capture_output=True, text=True, check=True,
                                          cwd=ROOT).stdout)
    named = {name for assignment in COURSE.assignments()
             for answers in named_wrong_answers(assignment).values() for name, _ in answers}
    found = _grading.lines(ROOT)
    assert len(described) > 100 and len(named) > 100
    assert {text for context, text in found if context == "hidden-check"} == set(described)
    assert {text for context, text in found if context == "misconception"} == named


def test_there_is_a_grading_catalogue_for_each_language_with_exercises():
    assert set(_language.exercise_languages(COURSE)) <= set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_the_grading_commands_write_has_a_translation(language):
    """Each English string of a feedback page or of validate (a literal passed to
    ``localized`` or marked by ``marked``) is translated, with its ``{fields}``."""
    found = _grading.problems(COURSE, language)
    assert not found and not found.broken, (
        f"{language} grading: {found}; run `python -m grader.translation update` and "
        f"translate grader/locale/{language}.po")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_grading_catalogue_is_as_update_writes_it(language):
    path = _grading.catalogue_path(COURSE, language)
    fresh = _merge.merged_lines(_grading.lines(ROOT), _pofile.read(path))
    assert _pofile.dumps(fresh) == path.read_text(encoding="utf-8")


def test_a_changed_string_is_stale_until_translated_again():
    path = _grading.catalogue_path(COURSE, "zh-CN")
    old = ("validate", "could not grade {notebook}: {error}")
    changed = ("validate", "could not grade {notebook} at all: {error}")
    lines = [changed if key == old else key for key in _grading.lines(ROOT)]
    fresh = _grading.translations(_merge.merged_lines(lines, _pofile.read(path)))
    assert fresh[changed].fuzzy and fresh[changed].string == "无法评分 {notebook}：{error}"
    assert _catalogue.keyed_problems(lines, fresh).stale == (f"validate {changed[1]!r}",)
    assert _language.localized("total", "validate", "zh-CN") == "总计"
    assert _language.localized("no such text", "validate", "zh-CN") == "no such text"


# -- which language a submission is in ----------------------------------------------------

def _releases() -> dict[str, dict]:
    return _language.releases(COURSE, ASSIGNMENT)


def _without_language(nb: dict) -> dict:
    nb = copy.deepcopy(nb)
    nb["metadata"].pop(KEY, None)
    return nb


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_submission_is_in_the_language_of_the_release_whose_text_it_holds(language):
    releases = _releases()
    source = load_notebook(COURSE.source_notebook(ASSIGNMENT))
    for lang, release in releases.items():
        submitted = synthetic_submission(release, source, 0.5)
        assert _language.notebook_language(submitted, releases) == lang
        # the cells say it without the metadata, and over forged metadata
        assert _language.notebook_language(_without_language(submitted), releases) == lang
        other = language if lang == ENGLISH else ENGLISH
        forged = with_language(copy.deepcopy(submitted), other) if other != ENGLISH else \
            _without_language(submitted)
        assert _language.notebook_language(forged, releases) == lang
    # No text cell kept: the metadata the release wrote says it; nothing at all: English.
    bare = {**releases[language], "cells": []}
    assert _language.notebook_language(bare, releases) == language
    assert _language.notebook_language({"cells": [42, {"id": None}]}, releases) == ENGLISH
    assert _language.notebook_language({}, releases) == ENGLISH


def test_a_language_is_named_as_the_kernel_names_it():
    assert _language.named("zh_cn") == "zh-CN" and _language.named(" ZH-CN ") == "zh-CN"
    assert _language.named("fr") is None and _language.named(None) is None


# -- the verdict in another language ------------------------------------------------------

def _check(description: str, passed: bool, detail: str = "") -> dict:
    return {"description": description, "passed": passed, "detail": detail}


VIEW_OR_COPY = "says correctly whether this operation returns a view of x or a copy"
EVERYTHING_A_VIEW = '"PyTorch never copies unless asked": everything is a view'
RECORDS = {
    "all passed": {"passed": 3, "total": 3, "checks": [_check("agrees (with torch)", True)] * 2
                   + [_check("keeps: the order", True)]},
    "failures": {"passed": 11, "total": 16, "checks":
                 [_check("says view or copy", False, f"entry {k}: wrong\nfailing input: x")
                  for k in range(5)] + [_check("says view or copy", True)] * 10
                 + [_check("raises ✗ like torch", True)],
                 "misconceptions": ["forgets the storage offset", "adds: a colon"]},
    "one failure": {"passed": 0, "total": 1, "checks": [_check("a", False, "returned 3")]},
    # A hidden check's own description and a named wrong answer's name (their catalogue's).
    "named": {"passed": 2, "total": 4, "checks":
              [_check(VIEW_OR_COPY, False, "entry 'x.t()': said 'copy'")] * 2
              + [_check(VIEW_OR_COPY, True)] * 2, "misconceptions": [EVERYTHING_A_VIEW]},
    "stub": {"passed": 0, "total": 2, "checks": [_check("a", False, "NotImplementedError"),
                                                 _check("b", False, "NotImplementedError")]},
}


def _feedback_verdict(record: dict, language: str, score: float | None = None) -> str:
    """What a feedback page's test cell says: the verdict's data (as autograding stores it,
    the English lines beside it) rendered by ``VerdictsOnThePage`` for a student of
    ``language``, with the gradebook's ``score`` (``GetGrades``) where there is one."""
    nbgrader = {"grade": True, "solution": False, "grade_id": "view_or_copy", "points": 2.0}
    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": {
        **nbgrader, **({} if score is None else {"score": score})}})
    with_verdict(cell, "view_or_copy", record, 2.0)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="\n".join(
        report_lines("view_or_copy", record, 2.0)) + "\n")]
    nb = nbformat.from_dict(with_language(nbformat.v4.new_notebook(cells=[cell]), language))
    VerdictsOnThePage().preprocess(nb, {})
    return next(o["text"] for o in nb.cells[0].outputs if o["output_type"] == "stream")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", RECORDS)
def test_a_feedback_page_says_the_verdict_written_in_the_language(kind, language):
    """What a feedback page shows is what ``report_lines`` writes in that language (every
    line, its values and the hidden checks' own words), and in English the autograded
    English."""
    record = RECORDS[kind]
    english = report_lines("view_or_copy", record, 2.0)
    said = report_lines("view_or_copy", record, 2.0, language)
    assert _feedback_verdict(record, language) == "\n".join(said) + "\n"
    assert len(said) == len(english) and said != english
    for ours, theirs in zip(said, english):
        if theirs.startswith("      ") and not theirs.strip().startswith("…"):
            assert ours == theirs  # a hidden check's detail: the judge's words
    assert _feedback_verdict(record, ENGLISH) == "\n".join(english) + "\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_instructors_change_of_score_is_said_in_the_language_too(language):
    changed = _feedback_verdict(RECORDS["failures"], language, 2.0)
    head = report_lines("view_or_copy", RECORDS["failures"], 2.0, language)[0]
    assert changed.splitlines()[0].startswith(head.replace("1.38 / 2", "2 / 2"))
    assert "1.38" in changed.splitlines()[0] and "instructor" not in changed
    assert changed.splitlines()[0] != head.replace("1.38 / 2", "2 / 2")  # it says so
    assert _feedback_verdict(RECORDS["failures"], language, 1.38).splitlines()[0] == head


def test_the_instructors_reports_count_what_the_verdict_says():
    lines = report_lines("f", RECORDS["failures"], 2.0)
    assert NOT_ATTEMPTED in report_lines("f", RECORDS["stub"], 2.0)
    cell = with_verdict({"cell_type": "code", "metadata": {}}, "f", RECORDS["failures"], 2.0)
    assert misconceptions_shown(cell) == RECORDS["failures"]["misconceptions"]
    assert all(line.startswith(LOOKS_LIKE) for line in lines[-2:])
    assert misconceptions_shown({"cell_type": "code", "metadata": {}}) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_structure_note_reads_back_change_by_change(language):
    release = load_notebook(COURSE.release_notebook(ASSIGNMENT))
    submitted = copy.deepcopy(release)
    submitted["cells"] = [c for c in submitted["cells"]
                          if not c["metadata"].get("nbgrader", {}).get("solution")]
    submitted["cells"][0]["source"] = "edited"
    restored, changes = restore_structure(submitted, release)
    assert len(changes) == 2
    cell = next(c for c in restored["cells"] if c["id"] == NOTE_ID)
    said, note = note_in_language(cell, language), cell["source"]
    assert note_in_language(cell, ENGLISH) == note
    assert [line for line in note.splitlines() if line.startswith("- ")] == \
        [f"- {change}" for change in changes]
    assert said.count("\n- ") == 2 and not [c for c in changes if c in said]
    assert "contiguous_strides" in said and CJK.search(said)


def test_the_points_table_lines_up_in_the_language():
    verdict = {"exercises": {"f": RECORDS["all passed"], "view_or_copy": RECORDS["failures"]}}
    english = points_table(verdict, {"f": 2.0, "view_or_copy": 2.0}, {"view_or_copy"})
    said = points_table(verdict, {"f": 2.0, "view_or_copy": 2.0}, {"view_or_copy"}, "zh-CN")
    assert english[-1] == "total         2 / 2, and 2 decided at grading"
    assert said[:-1] == english[:-1]
    assert said[-1] == "总计          2 / 2，另有 2 分评分时判定"  # 总计: four columns


# -- a feedback page ----------------------------------------------------------------------

def _autograded(language: str) -> nbformat.NotebookNode:
    """A submission of ``language`` as nbgrader keeps it after autograding: restored to the
    English release, its language recorded, a verdict in each test cell."""
    releases = _releases()
    source = load_notebook(COURSE.source_notebook(ASSIGNMENT))
    submitted = synthetic_submission(releases[language], source, 0.5)
    restored, _ = restore_structure(submitted, releases[ENGLISH],
                                    [nb for lang, nb in releases.items() if lang != ENGLISH])
    restored = with_language(restored, _language.notebook_language(submitted, releases))
    nb = nbformat.from_dict(restored)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("grade") \
                and not cell.metadata.nbgrader.get("solution"):
            name = cell.metadata.nbgrader.grade_id
            with_verdict(cell, name, RECORDS["named"], 2.0)
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="\n".join(
                report_lines(name, RECORDS["named"], 2.0)))]
    return nb


def _on_the_page(nb: nbformat.NotebookNode) -> None:
    """The feedback preprocessors that write in the student's language."""
    resources = {"nbgrader": {"assignment": ASSIGNMENT}}
    InStudentLanguage().preprocess(nb, resources)
    VerdictsOnThePage().preprocess(nb, resources)


def test_an_english_page_is_left_as_it_was():
    nb = _autograded(ENGLISH)
    assert language_of(nb) == ENGLISH and KEY not in nb.metadata
    before = copy.deepcopy(nb)
    InStudentLanguage().preprocess(nb, {"nbgrader": {"assignment": ASSIGNMENT}})
    assert nb == before
    _on_the_page(nb)  # the verdicts: the autograded English, and the verdict's points
    for cell, was in zip(nb.cells, before.cells, strict=True):
        shown = [o["text"] for o in cell.get("outputs", []) if o["output_type"] == "stream"]
        assert shown == [o["text"] + "\n" for o in was.get("outputs", [])]
    assert page_in_language("<html><b>Comments:</b>", ENGLISH) == "<html><b>Comments:</b>"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_is_in_the_language_of_the_release_the_student_worked_in(language):
    nb = _autograded(language)
    assert language_of(nb) == language
    english = {c.id: c.source for c in _autograded(ENGLISH).cells}
    before = {c.id: c.source for c in nb.cells}
    _on_the_page(nb)
    given = {c["id"]: "".join(c["source"]) for c in _releases()[language]["cells"]}
    for cell in nb.cells:
        answer = cell.metadata.get("nbgrader", {}).get("solution")
        if cell.cell_type == "markdown" and not answer:
            assert cell.source == given[cell.id]  # the text the student read
        elif not answer:
            assert cell.source == english[cell.id]  # locked code: as graded, in English
        else:
            assert cell.source == before[cell.id]  # the student's own answer, as written
    verdicts = [o["text"] for c in nb.cells for o in c.get("outputs", [])
                if o["output_type"] == "stream"]
    assert verdicts and all(CJK.search(v) and "Hidden checks" not in v for v in verdicts)
    # The hidden check's description and the misconception, in the student's language too.
    description = localized(VIEW_OR_COPY, "hidden-check", language)
    mistake = localized(EVERYTHING_A_VIEW, "misconception", language)
    assert CJK.search(description) and CJK.search(mistake)
    for verdict in verdicts:
        assert f"✗ {description}" in verdict and verdict.endswith(mistake + "\n")
        assert VIEW_OR_COPY not in verdict and EVERYTHING_A_VIEW not in verdict


def test_the_pages_labels_are_translated_and_the_page_says_its_language():
    html = ('<html>\n<h4>nb (Score: 1.0 / 2.0)</h4><a href="#f">Test cell</a> (Score: 1.0 / 2.0)'
            '<span class="nbgrader-label">Student\'s answer</span><span class="pull-right">'
            '\n      Score: 1.0 / 2.0 <a href="#top">(Top)</a><span class="nbgrader-label">'
            'Grade cell: <code>f</code></span><b>Comments:</b>'
            '<li class="late-penalty">Late submission penalty (Score: -1.0)</li>')
    said = page_in_language(html, "zh-CN")
    assert said.startswith('<html lang="zh-CN">')
    for english in ("Score", "Test cell", "Student's", "Top", "Grade cell", "Comments",
                    "Late submission"):
        assert english not in said, english
    assert "(得分：1.0 / 2.0)" in said and "评分单元格：<code>f</code>" in said
