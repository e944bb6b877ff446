"""A submission of a translated notebook (``exercises/<language>/``) scores exactly what the
same code scores in the English one, cell by cell, through the whole grading command.

For every assignment with a translated release, one batch holds, in English and in each
language: the complete solution, a partial one and the blank release (each written into that
language's notebook, so the translated ones carry translated docstrings), and each round of
named wrong answers (``grader/hidden/<chapter>/wrong_answers.py``: every exercise's k-th at
once, the same code in both notebooks). ``grader.cli grade`` grades them all at once, as an
instructor's batch, and the gradebook's per-cell scores are compared. Each student's feedback
page is in the language they worked in, and shows nothing more than the English one.
"""

import html
import json
import os
import re
import subprocess
import sys

import pytest
from support import COURSE, ROOT, load_notebook
from support.answers import with_answers
from support.tampering import leaked

from grader import _language, _notebook
from grader._settings import variable
from grader.batch import _gradebook
from grader.batch._demo import synthetic_submission
from grader.bridge._structure import restore_structure
from grader.hidden.wrong_answers import named_wrong_answers
from grader.translation import _exercises

pytestmark = pytest.mark.heavy  # grades a class in a fixture: scheduled first

ENGLISH = "en"
TRANSLATED = [(language, assignment) for language in _language.exercise_languages(COURSE)
              for assignment in _exercises.complete(COURSE, language)]
FRACTIONS = {"complete": 1.0, "partial": 0.5, "blank": 0.0}


def _release(language: str, assignment: str) -> dict:
    if language == ENGLISH:
        return load_notebook(COURSE.release_notebook(assignment))
    return load_notebook(_exercises.release_folder(COURSE, language) / assignment
                         / COURSE.release_notebook(assignment).name)


def _source(language: str, assignment: str) -> dict:
    if language == ENGLISH:
        return load_notebook(COURSE.source_notebook(assignment))
    catalog = _exercises.catalogues(COURSE, language)[assignment]
    return _exercises.translated_source(COURSE, language, assignment, catalog)


def _wrong_rounds(assignment: str) -> list[dict[str, str]]:
    """Round k: every exercise's k-th named wrong answer at once (as ``test_grading``)."""
    wrong = named_wrong_answers(assignment)
    return [{name: answers[k][1] for name, answers in wrong.items() if k < len(answers)}
            for k in range(max(len(answers) for answers in wrong.values()))]


def _submissions(language: str, assignment: str) -> dict[str, dict]:
    """kind → the notebook a student of ``language`` submits."""
    release, source = _release(language, assignment), _source(language, assignment)
    found = {kind: synthetic_submission(release, source, fraction)
             for kind, fraction in FRACTIONS.items()}
    for k, answers in enumerate(_wrong_rounds(assignment)):
        found[f"wrong{k}"] = with_answers(found["complete"], answers)
    return found


def _student(kind: str, language: str) -> str:
    return f"{kind}-{language}"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every submission, in English and translated, graded in one batch by ``grade``."""
    assert TRANSLATED, "no translated release to grade"
    instructor = tmp_path_factory.mktemp("translated") / "instructor"
    for language, assignment in TRANSLATED:
        for lang in (ENGLISH, language):
            for kind, nb in _submissions(lang, assignment).items():
                folder = instructor / "submitted" / _student(kind, lang) / assignment
                folder.mkdir(parents=True, exist_ok=True)
                (folder / COURSE.release_notebook(assignment).name).write_text(
                    json.dumps(nb), encoding="utf-8")
    # Both languages get one verdict per code, and its first failing inputs will do: the
    # same scores as the smallest (tests/judge/test_first_failure.py).
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           variable("first_failure"): "1"}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=3000)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return instructor, done


@pytest.mark.parametrize("case", TRANSLATED, ids="/".join)
def test_a_translated_submission_scores_what_the_same_code_scores_in_english(graded, case):
    language, assignment = case
    instructor, _ = graded
    table = _gradebook.scores(f"sqlite:///{instructor / 'gradebook.db'}", assignment)
    kinds = list(_submissions(ENGLISH, assignment))
    for kind in kinds:
        english, translated = table[_student(kind, ENGLISH)], table[_student(kind, language)]
        print(f"{assignment} {kind}: {english['total']:g}/{english['max']:g} in English, "
              f"{translated['total']:g}/{translated['max']:g} in {language}")
        assert translated == english, kind
    # ... and the comparison is no vacuous one: each kind scores as it deserves.
    complete, blank = table[_student("complete", ENGLISH)], table[_student("blank", ENGLISH)]
    assert complete["total"] == complete["max"] > 0 and blank["total"] == 0
    assert 0 < table[_student("partial", ENGLISH)]["total"] < complete["max"]
    for k, answers in enumerate(_wrong_rounds(assignment)):
        row = table[_student(f"wrong{k}", ENGLISH)]
        assert all(row[name] < complete[name] for name in answers), (k, row)


@pytest.mark.parametrize("case", TRANSLATED, ids="/".join)
def test_a_translated_submission_is_graded_as_untouched(graded, case):
    """No translated cell counts as tampering: the feedback carries no structure note."""
    language, assignment = case
    instructor, _ = graded
    for kind in _submissions(language, assignment):
        page = next((instructor / "feedback" / _student(kind, language) / assignment)
                    .glob("*.html")).read_text(encoding="utf-8")
        assert "the released versions were graded instead" not in page, kind


@pytest.mark.parametrize("case", TRANSLATED, ids="/".join)
def test_a_translated_notebook_is_restored_to_the_english_code(case):
    """What is judged: the English release's cells, the student's answers (here with their
    translated docstrings), nothing reported as changed."""
    language, assignment = case
    english = load_notebook(COURSE.release_notebook(assignment))
    translations = [_release(language, assignment)]
    ours = synthetic_submission(english, _source(ENGLISH, assignment), 1.0)
    theirs = synthetic_submission(translations[0], _source(language, assignment), 1.0)
    restored, changes = restore_structure(theirs, english, translations)
    assert changes == []
    mine, reference = restored["cells"], restore_structure(ours, english, translations)[0]["cells"]
    assert [c["id"] for c in mine] == [c["id"] for c in reference]
    for cell, other in zip(mine, reference):
        answer = cell["metadata"].get("nbgrader", {}).get("solution")
        assert (cell["source"] == other["source"]) != bool(answer), cell["id"]
    # Without the translations, the same notebook reads as tampered with.
    assert restore_structure(theirs, english)[1]


# -- feedback pages in the student's language ---------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _page(instructor, kind: str, language: str, assignment: str) -> str:
    return next((instructor / "feedback" / _student(kind, language) / assignment)
                .glob("*.html")).read_text(encoding="utf-8")


def _shown(page: str) -> str:
    """The page's text as a reader sees it: code un-highlighted, entities read."""
    text = re.sub(r"<(style|script)\b.*?</\1>|<svg\b.*?</svg>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _answer_lines(assignment: str) -> set[str]:
    """The source's lines that answer: inside its solution and hidden-test regions (the long
    ones, as ``leaked`` takes them)."""
    found, inside = set(), False
    for cell in load_notebook(COURSE.source_notebook(assignment))["cells"]:
        for line in "".join(cell["source"]).splitlines():
            if re.match(r"\s*### (BEGIN|END) (SOLUTION|HIDDEN TESTS)", line):
                inside = "BEGIN" in line
            elif inside and len(line.strip()) > 30:
                found.add(line.strip())
    return found


def _first_line(nb: dict) -> str:
    cell = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    return "".join(cell["source"]).splitlines()[0].lstrip("# ").strip()


@pytest.mark.parametrize("case", TRANSLATED, ids="/".join)
def test_a_translated_submissions_feedback_page_is_in_its_language(graded, case):
    """The release's text, the verdicts and the page's labels in the student's language;
    line for line what the English page says."""
    language, assignment = case
    instructor, _ = graded
    title, english_title = _first_line(_release(language, assignment)), \
        _first_line(_release(ENGLISH, assignment))
    for kind in _submissions(language, assignment):
        page, english = (_page(instructor, kind, lang, assignment) for lang in (language, ENGLISH))
        shown, english_shown = _shown(page), _shown(english)
        assert f'<html lang="{language}">' in page and title in shown, kind
        assert english_title not in shown, kind
        for label in ("Hidden checks for", "Student's answer", "(Score:", "not attempted yet:",
                      "Looks like:"):
            assert label not in shown, (kind, label)
        # The same verdict lines: one header per exercise, as many stubs and mistakes.
        exercises = len(_notebook.exercise_cells(_release(ENGLISH, assignment)))
        assert english_shown.count("Hidden checks for") == exercises, kind
        for ours, theirs in (("的隐藏检查：", "Hidden checks for"),
                             ("尚未作答", "not attempted yet:"), ("看起来像是：", "Looks like:")):
            assert shown.count(ours) == english_shown.count(theirs), (kind, ours)


@pytest.mark.parametrize("case", TRANSLATED, ids="/".join)
def test_a_translated_feedback_page_leaks_nothing_more_than_the_english_one(graded, case):
    language, assignment = case
    instructor, _ = graded
    answers = _answer_lines(assignment)
    for kind in _submissions(language, assignment):
        page, english = (_page(instructor, kind, lang, assignment) for lang in (language, ENGLISH))
        assert not leaked(page, assignment), kind
        # Read as text, code included: no line of the hidden checks or the answers that the
        # English page does not show too (the student's own code, a line they were given).
        assert set(leaked(_shown(page), assignment)) <= set(leaked(_shown(english), assignment))
        ours = {line for line in answers if line in _shown(page)}
        assert ours <= {line for line in answers if line in _shown(english)}, kind
    # The check sees answers where there are some: the complete student's own code.
    assert {line for line in answers if line in _shown(_page(instructor, "complete", language,
                                                             assignment))}


def test_an_english_submissions_feedback_page_stays_english(graded):
    instructor, _ = graded
    for assignment in sorted({assignment for _, assignment in TRANSLATED}):
        for kind in _submissions(ENGLISH, assignment):
            page = _page(instructor, kind, ENGLISH, assignment)
            assert "<html>" in page and "Hidden checks for" in page
            assert not CJK.search(_shown(page)), (assignment, kind)
