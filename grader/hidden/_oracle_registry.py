"""Which oracle answers which exercise: filled by the ``@oracle`` decorator, so that the
table is derived from the functions themselves and never typed twice. Apart from
``oracles.py``, which imports every chapter's: a chapter's ``oracles.py`` imports this
(relatively, so that a copy of them still registers: test_no_answer_importable), not that."""

from collections.abc import Callable

__all__ = ["ORACLES", "oracle"]

ORACLES: dict[str, Callable] = {}  # exercise -> its truth, from the public example's arguments


def oracle(*exercises: str) -> Callable[[Callable], Callable]:
    """Register the decorated function as the truth of ``exercises``."""
    def register(function: Callable) -> Callable:
        for exercise in exercises:
            if exercise in ORACLES:
                raise ValueError(f"{exercise} has two oracles: {ORACLES[exercise].__name__} "
                                 f"and {function.__name__}")
            ORACLES[exercise] = function
        return function
    return register
