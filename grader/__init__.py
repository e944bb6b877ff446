"""Tensor Anatomy's grader: public checks for students, hidden checks for grading.

Students use ``check`` (instant feedback in their own kernel). Everything else
in this package is grading machinery and starts with an underscore.
"""

from .checks import check

__all__ = ["check"]
