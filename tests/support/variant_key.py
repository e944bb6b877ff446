"""What the tests of per-student variants share: one fixed key (so that their counts
reproduce), chapter 1's finite exercise, each pooled exercise's torch answers, and a
student's variant under that key (``tests/bridge/test_variants.py``,
``tests/bridge/test_variant_delivery.py``)."""

from pathlib import Path

from grader._course import Course
from grader.bridge import _variants
from grader.checks import _finite_answers
from grader.givens.pitfalls import CLAIMS
from grader.givens.storage_strides import OPERATIONS

__all__ = ["ASSIGNMENT", "COURSE", "EXERCISE", "KEY", "TRUTH", "TRUTHS", "VERDICTS",
           "assignment_of", "instructor_with_key", "variant_of"]

COURSE = Course.find(Path(__file__).parent)
ASSIGNMENT, EXERCISE = "01_storage_strides", "view_or_copy"
KEY = bytes(range(32))  # a fixed key: the counts below are reproducible
TRUTH = {op: _finite_answers.torch_view_or_copy(op) for op in OPERATIONS}
VERDICTS = {claim: _finite_answers.verdict(claim) for claim in CLAIMS}  # predict_verdicts'
TRUTHS = {EXERCISE: TRUTH, "predict_verdicts": VERDICTS}


def variant_of(student: str, key: bytes = KEY) -> list[str]:
    return _variants.derive(key, ASSIGNMENT, EXERCISE, student, tuple(OPERATIONS))


def instructor_with_key(tmp_path: Path) -> Path:
    folder = tmp_path / "instructor"
    folder.mkdir()
    (folder / _variants.KEY_FILE).write_text(KEY.hex() + "\n")
    return folder


def assignment_of(exercise: str) -> str:
    return next(a for a, exercises in _variants.POOLS.items() if exercise in exercises)
