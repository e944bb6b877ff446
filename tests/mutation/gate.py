"""The mutation gate: every mutant in ``mutants.py`` must make its tests fail.

    python tests/mutation/gate.py [NAME ...]

Copies the course (the files git knows, committed or not) to a temporary
folder once per lane; for each mutant, a free lane applies its edits in its copy,
runs its tests there (its own ``grader`` first on the path, so judges and students
run the mutant too), and puts the file back. Prints a line per mutant as it ends and
then ``mutants caught: K of N``; exits 0 only if K = N.

Lanes: ``MUTATION_LANES`` (default: one more than the cores, at most 3). A mutant's tests
mostly wait on judges and subprocesses: on two cores, 43 mutants took 4 min 44 s in two
lanes, about 8 min in one; 91 mutants took 430 s in two lanes and 321 s in three (the
same commit, the same machine). Mutants whose
tests are marked ``alone`` (GiBs of memory, the checkout's modes) run after, one at a time.
"""

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from mutants import MUTANTS, Mutant  # noqa: E402
from support.course_copy import copy_course  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


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


def _lanes() -> int:
    return max(1, int(os.environ.get("MUTATION_LANES", min(3, (os.cpu_count() or 1) + 1))))


def _lane(copy: Path, waiting: queue.Queue, results: list, lock: threading.Lock) -> None:
    """Run mutants from ``waiting`` in ``copy`` until none is left."""
    while True:
        try:
            mutant = waiting.get_nowait()
        except queue.Empty:
            return
        started = time.monotonic()
        hit, last = caught(mutant, copy)
        with lock:
            results.append(hit)
            print(f"{'caught ' if hit else 'MISSED '} {mutant.name} "
                  f"({time.monotonic() - started:.0f} s): {last}", flush=True)



def alone(mutant: Mutant) -> bool:
    """Whether a test file of ``mutant`` is marked to run by itself (``pytest.mark.alone``:
    it touches GiBs of memory, or changes what other users may reach)."""
    files = {ROOT / test.split("::")[0] for test in mutant.tests}
    return any("pytest.mark.alone" in path.read_text(encoding="utf-8")
               for path in files)


def _run_in_lanes(chosen: list[Mutant], lanes: int, folder: Path, results: list) -> None:
    """``chosen``, each in the first free of ``lanes`` copies of the course."""
    waiting: queue.Queue = queue.Queue()
    for mutant in chosen:
        waiting.put(mutant)
    lock = threading.Lock()
    threads = []
    for number in range(min(lanes, len(chosen))):
        copy = Path(folder) / f"lane{number}"
        if not copy.exists():
            copy.mkdir()
            os.chmod(copy, 0o755)  # the escape suite's students must reach the copy too
            copy_course(copy)
        threads.append(threading.Thread(target=_lane, args=(copy, waiting, results, lock)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main(names: list[str]) -> int:
    chosen = [m for m in MUTANTS if not names or m.name in names]
    results: list[bool] = []
    with tempfile.TemporaryDirectory(prefix="tensor-anatomy-mutants-") as folder:
        os.chmod(folder, 0o755)
        _run_in_lanes([m for m in chosen if not alone(m)], _lanes(), Path(folder), results)
        _run_in_lanes([m for m in chosen if alone(m)], 1, Path(folder), results)
    count = sum(results)
    print(f"mutants caught: {count} of {len(chosen)}")
    return 0 if count == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
