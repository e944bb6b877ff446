"""A submission of a translated notebook (``exercises/<language>/``) scores exactly what the
same code scores in the English one, cell by cell, through the whole grading command.

For every assignment with a translated release, one batch holds, in English and in each
language: the complete solution, a partial one and the blank release (each written into that
language's notebook, so the translated ones carry translated docstrings), and each round of
named wrong answers (``grader/hidden/wrong_answers``: every exercise's k-th at once, the same
code in both notebooks). ``grader.cli grade`` grades them all at once, as an instructor's
batch, and the gradebook's per-cell scores are compared.
"""

import json
import os
import subprocess
import sys

import pytest
from conftest import COURSE, ROOT, load_notebook
from test_grading import _with_answers

from grader.batch import _gradebook
from grader.batch._demo import synthetic_submission
from grader.bridge._structure import restore_structure
from grader.hidden.wrong_answers import named_wrong_answers
from grader.translation import _exercises

ENGLISH = "en"
TRANSLATED = [(language, assignment) for language in _exercises.languages(COURSE)
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
        found[f"wrong{k}"] = _with_answers(found["complete"], answers)
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
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
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
