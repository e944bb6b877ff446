"""The student's side of per-student variants: which items of a finite exercise are yours.

A finite exercise (``view_or_copy``: 16 operations) asks each student about a few of
its items, chosen from their id by a keyed hash that only the instructor holds
(``grader.bridge._variants``, where the whole design is written). This module holds
no key and computes nothing secret: it reads the variant the instructor published
for this student, one file per student beside the fetched notebook,
``variants/<file_name(id)>.json`` (``{exercise: [item, ...]}``), and says so when
there is none (the plain student edition, a student enrolled after publishing):
then the whole list is asked, which covers every variant, so grading by the id
stays fair (answers outside your variant are ignored, never marked wrong).

The same file holds the seed of the examples ``check()`` tries for this student
(``your_example_seed``) and, for an exercise whose truth is stored, those examples with
their answers (``your_stored_examples``); the hidden checks never read it.

Nothing here decides a grade: the grader derives the variant again from the id
that submitted, never from this file or the notebook.
"""

import getpass
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["EXAMPLES_SEED", "FOLDER", "NO_VARIANT", "STORED_EXAMPLES", "answers_another_variant",
           "file_name", "student_id", "your_example_seed", "your_items", "your_stored_examples"]

FOLDER = "variants"
# The published file's entries beside the exercises' items (no exercise has these names):
# the seed the examples ``check()`` tries are drawn from (``grader.checks._variant_examples``),
# and for an exercise whose truth is stored, its examples drawn so, with their answers.
EXAMPLES_SEED, STORED_EXAMPLES = "examples", "stored"
# Names no one: the graded process runs this cell too, as a user of the grading machine.
NO_VARIANT = ("No variant of {exercise} is published in this folder: the full list "
              "(answering it covers whichever variant you are graded on).")


def file_name(student: str) -> str:
    """The published file of ``student``'s variant: a hash of the id, so that the
    folder every student fetches does not list the class in plain text."""
    return hashlib.sha256(student.encode("utf-8")).hexdigest()[:24] + ".json"


def student_id() -> str:
    """The id nbgrader's exchange submits under (``nbgrader.utils.get_username``); empty
    where there is none (the graded process: no user it could name)."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login variable and no passwd entry
        return ""
    return os.environ.get("JUPYTERHUB_USER", name) if name == "jovyan" else name


def _published(folder: Path | None, student: str) -> dict:
    try:
        folder = Path.cwd() if folder is None else folder  # the graded process may have none
        items = json.loads((folder / FOLDER / file_name(student)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return items if isinstance(items, dict) else {}


def your_items(exercise: str, pool: Sequence[str], folder: Path | None = None,
               student: str | None = None, quiet: bool = False) -> list[str]:
    """The items of ``pool`` this student answers for ``exercise``: their published
    variant, else the whole pool, with a message saying why (unless ``quiet``)."""
    student = student or student_id()
    items = _published(folder, student).get(exercise)
    if isinstance(items, list) and items and set(items) <= set(pool):
        return list(items)
    if not quiet:
        print(NO_VARIANT.format(exercise=exercise))
    return list(pool)


def your_example_seed(folder: Path | None = None, student: str | None = None) -> str | None:
    """The seed of this student's examples, as published; None where none is (then
    ``check()`` tries the fixed examples everyone gets)."""
    seed = _published(folder, student or student_id()).get(EXAMPLES_SEED)
    return seed if isinstance(seed, str) and seed else None


def your_stored_examples(exercise: str, folder: Path | None = None,
                         student: str | None = None) -> list:
    """This student's drawn examples of ``exercise`` with their answers, as published (in
    the wire's format, ``grader.checks._public_examples.decode``); none where none is."""
    stored = _published(folder, student or student_id()).get(STORED_EXAMPLES)
    examples = stored.get(exercise) if isinstance(stored, dict) else None
    return examples if isinstance(examples, list) else []


def answers_another_variant(answered: Iterable[str], yours: Sequence[str],
                            pool: Sequence[str]) -> bool:
    """A table that misses items of ``yours`` and answers other items of ``pool``: made
    for another variant (copied, or answered from an edited list). The full list, or
    one's own items, never is; neither is a mistyped item."""
    answered = set(answered)
    return bool(set(yours) - answered) and bool(answered & (set(pool) - set(yours)))
