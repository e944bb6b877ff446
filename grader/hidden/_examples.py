"""The public checks' examples, which count among an assignment's hidden checks.

Each hidden file parametrizes one test with ``exercises_checked_by_examples``:
it reads the check registry (``grader.checks``), never the judge, so the hidden
checks import nothing of the judge that runs them (``tests/core/test_tiers.py``).
"""

from pathlib import Path

import pytest

from grader.checks._registry import registered

__all__ = ["exercises_checked_by_examples"]


def exercises_checked_by_examples(hidden_file: str) -> list:
    """One pytest param per exercise of this hidden file's chapter whose public examples
    also count, marked with its exercise: every exercise with a public check, but those
    with a finite answer (judged item by item, against torch's own answers).

    Derived from the check registry, so a new exercise's examples count without a list
    to keep: ``<chapter>/test.py``'s folder names the chapter whose checks it imported.
    """
    from grader.checks._digests import finite_exercises  # not in the zygote's memory

    chapter = Path(hidden_file).parent.name
    names = [name for name, entry in registered().items()
             if entry.chapter == chapter and name not in finite_exercises()]
    return [pytest.param(name, id=name, marks=pytest.mark.exercise(name)) for name in names]
