"""What can go wrong when a check calls the student's code, and a wrong answer.

Checks see every failure of the student's code as a ``StudentError``: the
student's own exception (by type name, never the object), a missing name, a
timeout, a crash, or a return value that cannot be graded. Checks never catch
the student's real exception objects, so no student-defined ``__eq__`` or
``__str__`` ever runs on the grading side.

A ``Mismatch`` is a check's own finding: the answer disagrees with torch. It
lives here, below every tier, so that the givens (a puzzle's ``check_rules``)
raise what the checks raise without importing them.
"""

__all__ = [
    "Mismatch",
    "StudentError",
    "StudentRaised",
    "MissingDefinition",
    "StudentTimeout",
    "StudentCrashed",
    "UngradableResult",
]


class StudentError(Exception):
    """The student's code did not produce a gradable answer."""


class StudentRaised(StudentError):
    """The student's function raised; we keep only its type name and message."""

    def __init__(self, type_name: str, message: str):
        super().__init__(f"{type_name}: {message}" if message else type_name)
        self.type_name = type_name
        self.message = message


class MissingDefinition(StudentError):
    """The notebook does not define the name a check asks for."""


class StudentTimeout(StudentError):
    """The student's code ran past its time limit."""


class StudentCrashed(StudentError):
    """The process running the student's code died (exit, kill, memory)."""


class UngradableResult(StudentError):
    """The result is of a type that does not cross to the judge."""


class Mismatch(AssertionError):
    """The student's answer disagrees with torch on a concrete input."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for it: the counterexample, without the checks' own frames
        (IPython's protocol for an exception that renders itself)."""
        return [f"{type(self).__name__}: {self}"]
