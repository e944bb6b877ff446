"""Verdicts computed ahead of nbgrader, in parallel, and found again by content.

nbgrader autogrades one notebook after another; the judge is the slow part. So
``make grade`` judges every submission first, in parallel (``_parallel``), and
stores each verdict under a key of everything the verdict depends on: the
assignment, the code the judge runs, the grader with its hidden checks, the
limits and sandbox mode an instructor may set, and the versions of Python,
torch and hypothesis.
``JudgeHiddenChecks`` then finds the verdict by the same key; on any mismatch
it simply judges again. Both ask ``verdict_for``, the store's one writer: a
verdict is stored where it is judged for the store, never by a caller. The
folder lives with the gradebook, where the student's sandboxed process can
neither read nor write.
"""

import functools
import hashlib
import json
import os
import platform
import uuid
from importlib import metadata
from pathlib import Path

from grader import _notebook
from grader._settings import Settings
from grader.store._verdict_sources import verdict_sources

__all__ = ["examples_file", "verdict_key", "stored_verdict", "verdict_for"]

_GRADER = Path(__file__).parents[1]


@functools.cache
def _grader_digest(assignment: str) -> str:
    """The files a verdict depends on (``_verdict_sources``): the whole grader but the
    other chapters' own files that nothing it runs imports. After an edit of chapter 1's
    hidden checks, a regrade judges chapter 1 again, not chapter 2."""
    digest = hashlib.sha256()
    for path in verdict_sources(_GRADER, assignment):
        if path.exists():
            digest.update(str(path.relative_to(_GRADER)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@functools.cache
def _versions() -> tuple[str, ...]:
    # Read from package metadata: importing torch here would cost the grading
    # command seconds (only judges import it).
    return (platform.python_version(), platform.machine(),
            *(metadata.version(name) for name in ("torch", "hypothesis", "pyseccomp")))


def _judged_by(assignment: str) -> list:
    """What judges ``assignment``'s notebooks: the grader's files, every setting that
    changes what a judge decides (time budgets, whether students are confined: those
    marked ``verdict``; typed, read now as judges read them), and the versions."""
    return [_grader_digest(assignment), Settings.from_environment().for_verdicts(),
            _versions()]


def verdict_key(nb: dict, assignment: str, variants: dict | None = None) -> str:
    """``variants``: the items the student is graded on (``grader.bridge._variants``);
    two students of one variant with the same code share a verdict."""
    parts = [assignment, _notebook.code_cells(nb), *_judged_by(assignment)]
    # Without variants the key stays what it was: verdicts stored before still count.
    payload = json.dumps(parts + [variants] if variants else parts)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def examples_file(folder: Path, assignment: str) -> Path:
    """The stem of the file where judges keep the examples ``assignment``'s passing checks
    drew (``grader.judge._replay_file``), beside the verdicts ``folder``: named by what a
    verdict depends on but the notebook, so a change to any of it starts a new file."""
    payload = json.dumps([assignment, *_judged_by(assignment)])
    key = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]
    return Path(folder).parent / "examples" / f"{assignment}-{key}"


def stored_verdict(folder: Path, nb: dict, assignment: str,
                   variants: dict | None = None) -> dict | None:
    path = Path(folder) / f"{verdict_key(nb, assignment, variants)}.json"
    try:
        verdict = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ours = isinstance(verdict, dict) and verdict.get("assignment") == assignment
    return verdict if ours else None


def store_verdict(folder: Path, nb: dict, assignment: str, verdict: dict,
                  variants: dict | None = None) -> None:
    """Keep ``verdict`` under ``nb``'s key: called by ``verdict_for`` alone in the grader
    (tests seed the store with it)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"{verdict_key(nb, assignment, variants)}.json"
    partial = final.with_suffix(f".{os.getpid()}.{uuid.uuid4().hex}.partial")
    partial.write_text(json.dumps(verdict), encoding="utf-8")
    partial.replace(final)  # atomic: a killed run never leaves half a verdict


def verdict_for(folder: Path, nb: dict, assignment: str, judge_now,
                variants: dict | None = None) -> dict:
    """The stored verdict of ``nb``; where there is none, ``judge_now()``'s, stored first.

    The one caller of ``store_verdict`` in the grader: the run's parallel judging and
    nbgrader's lane both come here, so what the store holds is written in one place."""
    verdict = stored_verdict(folder, nb, assignment, variants)
    if verdict is None:
        verdict = judge_now()
        store_verdict(folder, nb, assignment, verdict, variants)
    return verdict
