"""Every chapter is laid out the same way on the judge's side (issue 32, part 5).

One folder per assignment of the course, ``grader/hidden/<chapter>/``, holding the same
pieces: ``__init__.py``, its hidden checks (``test.py``), what they draw
(``strategies.py``), its named wrong answers (``wrong_answers.py``), and ``oracles.py``
exactly where one of its exercises is checked against stored answers (its public check
registered with ``stored=True``). The chapters come from the course's assignments and
the oracles' place from the check registry, so a new chapter or a newly stored check is
held to the layout without a list to keep. What every chapter shares sits beside the
folders: ``strategies.py``, ``oracles.py`` (with ``_oracle_registry.py``),
``wrong_answers.py``, ``_examples.py``, ``_variant_items.py``, ``pytest.ini``.
"""

import pytest
from support import COURSE, ROOT

from grader.checks import exercise_names
from grader.checks._registry import registered

HIDDEN = ROOT / "grader" / "hidden"
# What every chapter's folder holds; oracles.py besides, where a check is stored.
PIECES = {"__init__.py", "test.py", "strategies.py", "wrong_answers.py"}
CHAPTERS = [assignment.split("_", 1)[1] for assignment in COURSE.assignments()]


def _held(folder) -> set[str]:
    return {path.name for path in folder.iterdir() if path.name != "__pycache__"}


def _stored_chapters() -> set[str]:
    exercise_names()  # every chapter's public checks registered
    return {entry.chapter for entry in registered().values() if entry.stored}


def test_each_assignment_has_one_folder_and_each_folder_an_assignment():
    folders = {path.name for path in HIDDEN.iterdir()
               if path.is_dir() and path.name != "__pycache__"}
    assert folders == set(CHAPTERS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapters_folder_holds_the_same_pieces(chapter):
    oracles = {"oracles.py"} if chapter in _stored_chapters() else set()
    assert _held(HIDDEN / chapter) == PIECES | oracles


def test_no_chapters_piece_lies_outside_its_folder():
    """Beside the folders only what every chapter shares: no file named after a chapter."""
    outside = {path.stem for path in HIDDEN.iterdir() if path.is_file()}
    assert not outside & set(CHAPTERS)
