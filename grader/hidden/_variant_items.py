"""A finite exercise's item checks, on the submitting student's variant only.

The judge's plugin hands each hidden check the ``variant`` fixture: the items the
grading command derived from the id that submitted (``grader/bridge/_variants.py``),
never from the notebook. An item outside it is no check at all (skipped, not
counted); on the variant's first item the student's table is looked at once, to
note a table made for another variant (one line of feedback).
"""

import pytest

__all__ = ["only_yours"]


def only_yours(variant, exercise: str, item: str, pool, table) -> None:
    """Skip this check unless ``item`` is one of the student's; ``table``: the student's
    function that returns the exercise's dict."""
    yours = variant.items(exercise, pool)
    if item not in yours:
        pytest.skip("not in this student's variant")
    if item == yours[0]:
        _see_table(variant, exercise, table, pool)


def _see_table(variant, exercise: str, table, pool) -> None:
    try:
        answers = table()
    except Exception:  # noqa: BLE001 - the check itself fails on it, and says why
        return
    if isinstance(answers, dict):
        variant.saw_table(exercise, [key for key in answers if isinstance(key, str)], pool)
