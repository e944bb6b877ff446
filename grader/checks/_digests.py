"""Salted digests: how a public check tells right from wrong without holding the answer.

Three exercises have a finite answer (``view_or_copy``, ``factory_results``,
``predict_verdicts``): a table a student could copy if the public check held
it, or computed it. So the student's kernel holds only
``sha256(salt, exercise, item, answer)`` for each item, in
``answer_digests.json``, written at release from torch's own answers
(``_finite_answers``) and checked for drift by a test. Grading never reads
it: the judge asks torch again.

A digest of a two-way answer still gives it away to anyone who hashes both
ways, so the student edition (``grader.edition``) holds the exercises' names
only (``withheld``): there its public checks judge an answer's form, and
only the grader says whether it is right.
"""

import functools
import hashlib
import json
from pathlib import Path

__all__ = ["DIGESTS_FILE", "digest", "factory_items", "finite_exercises", "is_right", "matches",
           "withheld"]

DIGESTS_FILE = Path(__file__).with_name("answer_digests.json")


def digest(salt: str, exercise: str, item: str, answer: str) -> str:
    # A separator that no item or answer contains keeps ("a", "bc") apart from ("ab", "c").
    text = "\x1f".join((salt, exercise, item, answer))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.cache
def _table() -> dict:
    return json.loads(DIGESTS_FILE.read_text(encoding="utf-8"))


def matches(exercise: str, item: str, answer: str) -> bool:
    """Whether ``answer`` is torch's answer to ``item`` of ``exercise`` (as released)."""
    table = _table()
    expected = table["digests"][exercise].get(item)
    if expected is None:
        raise LookupError(f"{exercise} has no public check for {item!r}")
    return digest(table["salt"], exercise, item, answer) == expected


def withheld() -> bool:
    """Whether the answers' digests were left out here (a student edition)."""
    return "digests" not in _table()


def is_right(exercise: str, item: str, answer: str, truth: str | None) -> bool:
    """``answer == truth`` where the judge asked torch; otherwise the digest decides, and
    in a student edition nothing does (True: only the answer's form could be checked)."""
    if truth is not None:
        return answer == truth
    return withheld() or matches(exercise, item, answer)


def factory_items(expression: str) -> tuple[str, str]:
    """The two items of a ``factory_results`` expression: its dtype and its shape."""
    return f"{expression} | dtype", f"{expression} | shape"


def finite_exercises() -> set[str]:
    """The exercises with a finite answer: those the digests were written for."""
    table = _table()
    return set(table["withheld"] if withheld() else table["digests"])
