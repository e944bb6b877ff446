"""Tensor Anatomy's grader: public checks for students, hidden checks for grading.

Students use ``check`` (instant feedback in their own kernel) and ``checking``
(a test cell whose exercise is not attempted yet says so, and Run All goes on). Everything else
in this package is grading machinery and starts with an underscore.
"""

from .checks import check, checking

__all__ = ["check", "checking"]
