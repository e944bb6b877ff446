"""The mutation gate: every mutant in ``mutants.py`` must make its tests fail.

    python tests/mutation/gate.py [NAME ...]

Copies the course (the files git knows, committed or not) to a temporary
folder once; for each mutant, applies its edits there, runs its tests in that
copy (its own ``grader`` first on the path, so judges and students run the
mutant too), and puts the file back. Prints a line per mutant and then
``mutants caught: K of N``; exits 0 only if K = N.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from _course_copy import copy_course  # noqa: E402
from mutants import MUTANTS, Mutant  # noqa: E402


def mutated(text: str, mutant: Mutant) -> str:
    for old, new in mutant.edits:
        if text.count(old) != 1:
            raise LookupError(f"{mutant.path} no longer holds the text to mutate: {old[:60]!r}")
        text = text.replace(old, new)
    return text


def caught(mutant: Mutant, copy: Path) -> tuple[bool, str]:
    """Whether the mutant's tests fail in ``copy`` with the mutant applied."""
    path = copy / mutant.path
    original = path.read_text(encoding="utf-8")
    path.write_text(mutated(original, mutant), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("CI", None)  # a skip is not a catch
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", *mutant.tests, "-x", "-q",
                               "-p", "no:cacheprovider", "-rs"], cwd=copy, env=env,
                              capture_output=True, text=True, timeout=900)
    finally:
        path.write_text(original, encoding="utf-8")
    last = (done.stdout.strip().splitlines() or [""])[-1]
    return done.returncode == 1 and "failed" in last, last


def main(names: list[str]) -> int:
    chosen = [m for m in MUTANTS if not names or m.name in names]
    with tempfile.TemporaryDirectory(prefix="tensor-anatomy-mutants-") as folder:
        copy = Path(folder)
        os.chmod(copy, 0o755)  # the escape suite's students must reach the copy too
        copy_course(copy)
        count = 0
        for mutant in chosen:
            started = time.monotonic()
            hit, last = caught(mutant, copy)
            count += hit
            print(f"{'caught ' if hit else 'MISSED '} {mutant.name} "
                  f"({time.monotonic() - started:.0f} s): {last}", flush=True)
    print(f"mutants caught: {count} of {len(chosen)}")
    return 0 if count == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
