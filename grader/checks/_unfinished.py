"""Unfinished is not broken: an exercise not attempted yet says so, and Run All goes on.

A released answer cell is a stub that raises ``NotImplementedError``. A test cell
written as ``with checking(fn): ...`` turns that into one line on stderr and lets
the next cells run. nbgrader gives a test cell that writes to stderr 0 points, and
the hidden checks never read this cell, so nothing here changes a grade.
"""

import sys

__all__ = ["NotAttempted", "checking"]


class NotAttempted(NotImplementedError):
    """The exercise's function is still the released stub."""

    def _render_traceback_(self) -> list[str]:
        # IPython's protocol: this line instead of a traceback through the checks.
        return [f"{type(self).__name__}: {self}"]


def not_attempted_message(name: str) -> str:
    return (f"{name}: not attempted yet. Write it in its answer cell, run that cell, "
            "then this one (0 points until then).")


class checking:  # noqa: N801 - reads as a statement: ``with checking(fn):``
    """The test cell of exercise ``answer``: a stub is "not attempted yet", not an error.

    Any other failure (a wrong answer, a ``Mismatch``) propagates unchanged.
    """

    def __init__(self, answer):
        self.name = getattr(answer, "__name__", "this exercise")

    def __enter__(self) -> "checking":
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is None or not issubclass(kind, NotImplementedError):
            return False
        print(not_attempted_message(self.name), file=sys.stderr)
        return True  # the exception is swallowed: Run All goes on to the next cell
