"""Per-student variants of the finite exercises: the key, the derivation, publishing.

Every student used to answer the same finite tables, so one leaked answer table fit
the whole class. Now each student answers a variant: ``SIZE`` items of an
exercise's pool (``POOLS``), chosen and ordered by a keyed hash of the assignment,
the exercise, the student id and each item (HMAC-SHA256); an exercise graded group by
group (``GROUPED``) draws the same number from each of its groups instead. Design:

* **The key** is 32 random bytes in ``<instructor>/variants.key``, created once by
  ``python -m grader.cli variants`` (mode 0600, never overwritten). It lives where
  the gradebook does: never in ``solutions/``, ``exercises/``, the exchange or the
  student edition (``tests/bridge/test_variant_delivery.py`` greps them). Without a key a course
  has no variants: every student answers, and is graded on, the whole pool.
* **The student sees their variant** in a file of items (no key) that
  ``grader.cli variants A`` writes into the exchange's released copy of ``A``, one
  per student of the roster (``grader.givens._variant``: named by a hash of the
  id). A student with no published file is told so and answers the whole pool.
* **Grading derives the variant again** from the id that submitted (the
  ``submitted/<id>/`` folder nbgrader collected), never from the notebook or the
  published file, and hands the judge the items (not the key): the hidden check
  grades those items only. An item of the variant the table lacks is wrong; items
  outside it are ignored, so the whole pool (what a student without a published
  variant answers) is never penalised. A table that lacks items of yours and answers
  others' gets one feedback line: these answers are for another variant.

* **The examples ``check()`` tries vary too**, for every exercise: the published file
  also holds a seed (``example_seed``, 64 bits of the keyed hash; it tells nothing of
  the key), from which ``check()`` draws a few examples of the student's own before
  the fixed ones (``grader.checks._variant_examples``, which says which exercises). For
  an exercise whose truth is stored, no module a student imports can compute the
  answers, so publishing draws those examples and stores them with the oracle's answers
  (``stored_examples``), as release does for the fixed ones. Grading never reads either.

The hidden checks stay universal: only the finite tables and ``check()``'s examples vary.
"""

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from grader._course import Course
from grader._ids import id_problem, terminal_safe
from grader.givens import variants as _variant
from grader.givens.creating_tensors import EXPRESSIONS
from grader.givens.pitfalls import CLAIMS, GROUPS
from grader.givens.storage_strides import OPERATIONS

__all__ = ["GROUPED", "KEY_FILE", "POOLS", "SIZE", "create_key", "derive", "draw",
           "example_seed", "publish", "publish_command", "published_variant", "read_key",
           "stored_examples", "variants_of"]

KEY_FILE = "variants.key"
# assignment -> exercise -> the pool a variant is drawn from.
POOLS = {"01_storage_strides": {"view_or_copy": tuple(OPERATIONS)},
         "02_creating_tensors": {"factory_results": tuple(EXPRESSIONS)},
         "06_pitfalls": {"predict_verdicts": tuple(CLAIMS)}}
# Items per variant: 8 of 16 gives C(16, 8) = 12,870 sets (8 of 18: 43,758); two students
# share half their items or less, so a classmate's table answers about half of yours.
SIZE = 8
# Exercises graded group by group, a group all or nothing: exercise -> (its groups, items
# drawn from each). 8 of predict_verdicts' 15 claims drawn at large would give one student
# a group of 3 claims to get all right and another a group of 1 (or none: a check fewer),
# so each draws 2 of every group's 3: 10 claims, 5 groups alike for all. The price: 3^5 =
# 243 sets (200 ids: 133 distinct, 85 pairs alike; a class of 30 has about 2 such pairs),
# and a classmate holds your pair of a group with odds 1/3, so their table passes about a
# third of your groups. A fourth claim per group would give 6^5 = 7,776 sets.
GROUPED = {"predict_verdicts": (GROUPS, 2)}


def read_key(instructor: Path) -> bytes | None:
    """The course's variant key; None where the course has none (no variants)."""
    try:
        return bytes.fromhex((Path(instructor) / KEY_FILE).read_text().strip())
    except (OSError, ValueError):
        return None


def create_key(instructor: Path) -> bytes:
    """The course's key, created now (mode 0600) unless it exists: never replaced, or
    every published variant would stop matching what is graded."""
    key = read_key(instructor)
    if key is not None:
        return key
    Path(instructor).mkdir(parents=True, exist_ok=True)
    fd = os.open(Path(instructor) / KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_hex(32) + "\n")
    return read_key(instructor)


def _rank(key: bytes, assignment: str, exercise: str, student: str, item: str) -> bytes:
    message = json.dumps([assignment, exercise, student, item]).encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).digest()


def derive(key: bytes, assignment: str, exercise: str, student: str,
           pool: tuple[str, ...], size: int = SIZE) -> list[str]:
    """``student``'s items of ``pool``: the ``size`` items with the smallest keyed hash,
    in that order (a shuffle no one without the key can predict)."""
    ranked = sorted(pool, key=lambda item: _rank(key, assignment, exercise, student, item))
    return ranked[:size]


def draw(key: bytes, assignment: str, exercise: str, student: str) -> list[str]:
    """``student``'s variant of ``exercise``: ``SIZE`` items of its pool, or for an exercise
    graded by groups the same number from each group, group after group."""
    if exercise in GROUPED:
        groups, each = GROUPED[exercise]
        return [item for group in groups.values()
                for item in derive(key, assignment, exercise, student, tuple(group), each)]
    return derive(key, assignment, exercise, student, POOLS[assignment][exercise])


def variants_of(instructor: Path, assignment: str, student: str | None) -> dict[str, list[str]]:
    """exercise -> the items ``student`` is graded on; empty (the whole pool) where the
    course has no key, the assignment no finite exercise, or the student no id."""
    key = read_key(instructor)
    if key is None or not student:
        return {}
    return {exercise: draw(key, assignment, exercise, student)
            for exercise in POOLS.get(assignment, {})}


def example_seed(key: bytes, assignment: str, student: str) -> str:
    """The seed of the examples ``check()`` tries for ``student`` (published; it tells
    nothing of the key): 64 bits of the keyed hash, each exercise's drawn from it."""
    return _rank(key, assignment, _variant.EXAMPLES_SEED, student, "").hex()[:16]


def stored_examples(assignment: str, seed: str) -> dict[str, list]:
    """exercise -> the examples ``check()`` draws for ``seed``, with the oracle's answers,
    in the wire's format: for each exercise of ``assignment`` whose truth is stored (no
    module a student imports may compute it) and whose examples can be drawn again."""
    from grader.checks import _public_examples, exercise_names
    from grader.checks._registry import registered
    from grader.checks._variant_examples import drawn_for
    from grader.hidden.oracles import ORACLES, STORED_ALLOWANCES  # the instructor's side

    exercise_names()  # every chapter's checks registered
    drawn = {}
    for name, entry in registered().items():
        if not entry.stored or entry.chapter != assignment.split("_", 1)[1]:
            continue
        allowance = STORED_ALLOWANCES.get(name, lambda *example: {})
        cases = [(example, {"truth": ORACLES[name](*example), **allowance(*example)})
                 for example in drawn_for(name, entry.examples(), seed, entry.redraw)]
        if cases:
            drawn[name] = _public_examples.encode(cases)
    return drawn


def published_variant(instructor: Path, assignment: str, student: str) -> dict:
    """What ``student`` is shown: their items of each finite exercise, their examples'
    seed, and the stored-truth examples drawn for it with their answers (no key)."""
    seed = example_seed(read_key(instructor), assignment, student)
    return {**variants_of(instructor, assignment, student), _variant.EXAMPLES_SEED: seed,
            _variant.STORED_EXAMPLES: stored_examples(assignment, seed)}


def publish(instructor: Path, released: Path, assignment: str,
            students: list[str]) -> list[Path]:
    """Write each student's variant (no key) into ``released``, the assignment's folder
    students fetch; the key is created if the course has none yet."""
    create_key(instructor)
    folder = Path(released) / _variant.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for student in students:
        path = folder / _variant.file_name(student)
        path.write_text(json.dumps(published_variant(instructor, assignment, student)) + "\n",
                        encoding="utf-8")
        path.chmod(0o644)  # every student reads the folder they fetch
        written.append(path)
    return written


def _roster(course: Course) -> list[str]:
    from nbgrader.api import Gradebook

    with Gradebook(course.db_url) as gradebook:
        return sorted(student.id for student in gradebook.students)


def publish_command(course: Course, assignment: str, students: list[str] | None,
                    into: Path | None) -> int:
    """``grader.cli variants``: publish for ``students`` (default: the gradebook's)."""
    if assignment not in course.assignments():  # every assignment's examples vary
        print(terminal_safe(f"{assignment} is not an assignment of this course"))
        return 2
    students = students or _roster(course)
    for refused in [s for s in students if id_problem(s)]:  # never graded either
        print(terminal_safe(f"  {refused}: {id_problem(refused)}; no variant published"))
    students = [s for s in students if id_problem(s) is None]
    into = into or course.exchange / course.course_id / "outbound" / assignment
    if not into.is_dir():
        print(f"{into} is not released yet: run nbgrader release_assignment {assignment} first")
        return 2
    written = publish(course.instructor, into, assignment, students)
    print(f"{assignment}: {len(written)} variants published in {into / _variant.FOLDER}; "
          f"key: {course.instructor / KEY_FILE} (keep it; never share it)")
    return 0
