"""A finite exercise's item checks, on the submitting student's variant only.

The judge's plugin hands each hidden check the ``variant`` fixture: the items the
grading command derived from the id that submitted (``grader/bridge/_variants.py``),
never from the notebook. An item outside it is no check at all (skipped, not
counted); a check of several items (``predict_verdicts``: one per group of claims)
grades the student's items among them, and is skipped where there are none. The
check holding the variant's first item looks at the student's table once, to note
a table made for another variant (one line of feedback).
"""

import pytest

__all__ = ["only_yours", "yours_among"]


def only_yours(variant, exercise: str, item: str, pool, table) -> None:
    """Skip this check unless ``item`` is one of the student's; ``table``: the student's
    function that returns the exercise's dict."""
    yours_among(variant, exercise, [item], pool, table)


def yours_among(variant, exercise: str, items, pool, table) -> list[str]:
    """The student's items among ``items`` (one check's), in their order; the check is
    skipped where there are none."""
    yours = variant.items(exercise, pool)
    graded = [item for item in items if item in yours]
    if not graded:
        pytest.skip("not in this student's variant")
    if yours[0] in graded:
        _see_table(variant, exercise, table, pool)
    return graded


def _see_table(variant, exercise: str, table, pool) -> None:
    try:
        answers = table()
    except Exception:  # noqa: BLE001 - the check itself fails on it, and says why
        return
    if isinstance(answers, dict):
        variant.saw_table(exercise, [key for key in answers if isinstance(key, str)], pool)
