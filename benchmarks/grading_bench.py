"""Grading at class scale: stock ``nbgrader autograde`` against ``grader.cli grade``.

    python benchmarks/grading_bench.py [--students N] [--jobs J] [--repeat R] [--pieces]

Makes N synthetic submissions spread over every assignment (complete, partial,
blank, and a few hostile ones that patch torch and the checks), grades the same
batch on this machine with stock nbgrader (a Jupyter kernel per notebook, its
default pipeline; once) and with our grading command (judge per notebook,
sandboxed student process, hidden checks; judged in parallel; ``--repeat`` times,
3 by default, each in a fresh instructor folder, the median compared) -- both running
generate_assignment, autograde, generate_feedback and export, then compares
the scores and prints the times. The floor (``_floor``) is the notebooks' cells
and the hidden checks in one warm, unconfined interpreter, without nbgrader;
our overhead per notebook is measured over it.

It then grades the batch once more as a later batch would be: a fresh instructor
folder holding only the examples the first run's judges kept (``instructor/examples/``,
``grader/judge/_replay_file.py``), and prints its time and its judging's core-seconds.

Before the ratio it prints where our run's time went, phase by phase
(``grader.batch._phases``: the run's ``reports/grading_phases.json``) in
core-seconds (CPU seconds) per notebook, beside stock nbgrader's in all (the
CPU of its commands and kernels, from ``getrusage``).

``--pieces`` grades the batch again with each speed piece turned off
(``grader._course.SPEED_PIECES``), and without parallel judging, and prints
what each is worth; then once with failures not shrunk (what showing the smallest
failing input costs); every such run must give the same scores. The last line
reads ``speedup vs nbgrader: R.RRx``.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _floor import floor_seconds  # noqa: E402

from grader._course import SPEED_PIECES, Course  # noqa: E402
from grader._settings import variable  # noqa: E402
from grader.batch import _gradebook  # noqa: E402
from grader.batch._demo import synthetic_submission  # noqa: E402

KINDS = [("complete", 1.0), ("partial", 0.5), ("blank", 0.0), ("complete", 1.0),
         ("partial", 0.5), ("hostile", 1.0)]
STOCK_CONFIG = """
c = get_config()
c.CourseDirectory.course_id = "tensor-anatomy-stock"
c.CourseDirectory.root = {root!r}
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
c.Execute.timeout = 120
"""
HOSTILE = ("\nimport torch, grader.checks\n"
           "grader.checks.check = lambda *a, **k: print('all good')\n"
           "torch.equal = lambda *a, **k: True\n")


def _submissions(course: Course, total: int) -> dict[str, list[tuple[str, dict]]]:
    """assignment → [(student, notebook)], ``total`` notebooks over all assignments."""
    batch: dict[str, list] = {a: [] for a in course.assignments()}
    names = list(batch)
    for i in range(total):
        assignment = names[i % len(names)]
        # Each assignment gets a different mix, and every kind occurs from 6 notebooks on.
        kind, fraction = KINDS[(i + i // len(names)) % len(KINDS)]
        release = json.loads(course.release_notebook(assignment).read_text())
        source = json.loads(course.source_notebook(assignment).read_text())
        nb = synthetic_submission(release, source, fraction)
        if kind == "hostile":
            nb["cells"].insert(1, {"cell_type": "code", "metadata": {}, "outputs": [],
                                   "execution_count": None, "source": HOSTILE})
            for cell in nb["cells"]:  # answers replaced by nonsense after the patch
                if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                    name = cell["metadata"]["nbgrader"]["grade_id"].removesuffix("_answer")
                    cell["source"] = f"def {name}(*args, **kwargs):\n    return None\n"
        batch[assignment].append((f"{kind}-{i:03d}", nb))
    return batch


def _write(batch, submitted: Path, course: Course) -> None:
    for assignment, students in batch.items():
        name = course.release_notebook(assignment).name
        for student, nb in students:
            folder = submitted / student / assignment
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(json.dumps(nb), encoding="utf-8")


def _nbgrader(root: Path, *args: str) -> None:
    scripts = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": os.pathsep.join([scripts, os.environ["PATH"]])}
    subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _children_cpu() -> float:
    """CPU seconds of this process's children that ended (and theirs, reaped in turn)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _stock(batch, course: Course, work: Path) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds, and scores of stock nbgrader on ``batch``."""
    root = work / "stock"
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "nbgrader_config.py").write_text(STOCK_CONFIG.format(root=str(root)))
    _write(batch, root / "submitted", course)
    started, cpu = time.monotonic(), _children_cpu()
    for assignment in batch:
        _nbgrader(root, "generate_assignment", assignment, "--force")
        _nbgrader(root, "autograde", assignment, "--force")
        _nbgrader(root, "generate_feedback", assignment, "--force")
    _nbgrader(root, "export", f"--to={root / 'grades.csv'}")
    seconds, cpu = time.monotonic() - started, _children_cpu() - cpu
    return seconds, cpu, {a: _gradebook.scores(f"sqlite:///{root}/gradebook.db", a)
                          for a in batch}


def _instructor(work: Path, jobs: str | None, without: str = "", run: int | str = 0) -> Path:
    # A folder of its own per run: no run may find another's stored verdicts.
    return work / f"ours-jobs-{jobs or 'all'}-without-{without or 'nothing'}-{run}"


def _ours(batch, course: Course, work: Path, jobs: str | None,
          without: str = "", run: int | str = 0,
          examples: Path | None = None, settings: dict | None = None) -> tuple[float, dict, dict]:
    """Our grading command on a fresh instructor folder, ``without`` those speed pieces:
    its wall seconds, scores, and phases (``grader.batch._phases``). ``examples``: the
    examples an earlier run's judges kept (``grader.judge._replay_file``), copied in;
    ``settings``: environment variables of ``grader._settings`` for the run."""
    instructor = _instructor(work, jobs, without, run)
    _write(batch, instructor / "submitted", course)
    if examples is not None:
        shutil.copytree(examples, instructor / "examples")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "TENSOR_ANATOMY_BENCH_WITHOUT": without, **(settings or {})}
    cmd = [sys.executable, "-m", "grader.cli", "grade"]  # every assignment in one run
    cmd += ["--jobs", jobs] if jobs else []
    started = time.monotonic()
    subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    phases = json.loads((instructor / "reports" / "grading_phases.json").read_text())
    return seconds, {a: _gradebook.scores(f"sqlite:///{instructor}/gradebook.db", a)
                     for a in batch}, phases


def _median_of(repeat: int, one_run) -> tuple[float, dict, dict]:
    """The run of median wall time of ``repeat`` runs of ours (each ``one_run(i)``): on a
    shared machine one run varies by 15% (measured: 30.0 to 36.3 s on one batch)."""
    runs = sorted((one_run(i) for i in range(repeat)), key=lambda r: r[0])
    if any(scores != runs[0][1] for _, scores, _ in runs):
        raise SystemExit("our runs gave different scores: " + repr([r[1] for r in runs]))
    seconds = ", ".join(f"{r[0]:.1f}" for r in runs)
    print(f"ours:           {runs[len(runs) // 2][0]:8.1f} s (median of {repeat}: {seconds})",
          flush=True)
    return runs[len(runs) // 2]


def _later_batch(batch, course: Course, work: Path, jobs: str | None,
                 scores: dict) -> tuple[float, dict]:
    """The batch graded again in a fresh instructor folder holding only the examples the
    first run's judges kept: as a later batch of the same assignments would be (late
    submissions, the next section's), each notebook new to the store. Its wall seconds
    and phases; it must give the same scores."""
    kept = _instructor(work, jobs, run=0) / "examples"
    seconds, later, phases = _ours(batch, course, work, jobs, run="later", examples=kept)
    if later != scores:
        raise SystemExit("the later batch gave different scores: " + repr(later))
    return seconds, phases


def _compare(stock: dict, ours: dict) -> tuple[list[str], list[str]]:
    """(honest students whose scores differ, hostile students stock nbgrader let through)."""
    differ, fooled = [], []
    for assignment, table in ours.items():
        for student, row in table.items():
            theirs = stock[assignment].get(student, {})
            if student.startswith("hostile"):
                if theirs.get("total", 0) > row["total"]:
                    fooled.append(f"{assignment}/{student}: stock {theirs.get('total')} "
                                  f"ours {row['total']}")
            elif any(abs(theirs.get(k, -1) - v) > 1e-9 for k, v in row.items()):
                differ.append(f"{assignment}/{student}")
    return differ, fooled


def _pieces(batch, course: Course, work: Path, jobs: str | None, all_on: tuple) -> bool:
    """Grade again without each piece; print what it is worth. Whether every score agreed."""
    seconds, scores = all_on
    print(f"\n{'without':<22}{'seconds':>9}{'slower by':>11}  piece")
    disagreed = []
    runs = [(piece, piece, jobs) for piece in SPEED_PIECES]
    runs.append(("parallel judging", "", "1"))
    for label, without, run_jobs in runs:
        off_s, off, _ = _ours(batch, course, work, run_jobs, without)
        disagreed += [f"without {label}: {a}/{student} {row} (all on: {scores[a][student]})"
                      for a, table in off.items() for student, row in table.items()
                      if row != scores[a].get(student)]
        what = SPEED_PIECES.get(label, "notebooks judged one at a time (--jobs 1)")
        print(f"{label:<22}{off_s:9.1f}{off_s / seconds:10.2f}x  {what}", flush=True)
    print(f"(all on: {seconds:.1f} s; scores that differ from all on's: {len(disagreed)})")
    for line in disagreed:
        print(f"  {line}")
    return not disagreed


def _unshrunk(batch, course: Course, work: Path, jobs: str | None, all_on: tuple,
              stock_s: float) -> bool:
    """Grade again with failures not shrunk (an instructor's setting: a failure shows its
    first failing input, not its smallest); print what shrinking costs. Whether the scores
    agreed (shrinking only follows a failure: ``grader/judge/_plugin.py``)."""
    seconds, scores = all_on
    off_s, off, _ = _ours(batch, course, work, jobs, run="unshrunk",
                          settings={variable("first_failure"): "1"})
    agreed = off == scores
    print(f"\nfailures not shrunk (${variable('first_failure')}=1): {off_s:.1f} s, "
          f"{stock_s / off_s:.2f}x stock (all on: {seconds:.1f} s); "
          f"same scores: {'yes' if agreed else 'NO'}", flush=True)
    return agreed


def phase_table(record: dict, stock_wall_s: float, stock_cpu_s: float) -> list[str]:
    """Our run's phases (``grading_phases.json``), and stock's in all, per notebook.

    Wall seconds of phases on different lanes overlap; core-seconds add up to the total.
    """
    notebooks = record["notebooks"]
    lines = [f"{'phase':<22}{'lane':<10}{'wall s':>8}{'core-s/notebook':>17}"]
    for name, phase in record["phases"].items():
        lines.append(f"{name:<22}{phase['lane']:<10}{phase['wall_s']:8.1f}"
                     f"{phase['cpu_s'] / notebooks:17.2f}")
    lines.append(f"{'ours, in all':<32}{record['wall_s']:8.1f}{record['cpu_s'] / notebooks:17.2f}")
    lines.append(f"{'stock nbgrader, in all':<32}{stock_wall_s:8.1f}"
                 f"{stock_cpu_s / notebooks:17.2f}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="submissions in all")
    parser.add_argument("--jobs", help="passed to grade --jobs (default: one per core)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="our runs on the batch, each in a fresh instructor folder; the "
                             "median's time and phases are shown (stock runs once: minutes)")
    parser.add_argument("--pieces", action="store_true",
                        help="also grade without each speed piece, and print what it is worth")
    options = parser.parse_args()
    course = Course(ROOT)
    batch = _submissions(course, options.students)
    agreed = True
    with tempfile.TemporaryDirectory(prefix="tensor-anatomy-bench-") as tmp:
        print(f"{options.students} submissions over {len(batch)} assignments, "
              f"{os.cpu_count()} cores", flush=True)
        stock_s, stock_cpu, stock = _stock(batch, course, Path(tmp))
        print(f"stock nbgrader: {stock_s:8.1f} s", flush=True)
        ours_s, ours, phases = _median_of(options.repeat, lambda run: _ours(
            batch, course, Path(tmp), options.jobs, run=run))
        later = _later_batch(batch, course, Path(tmp), options.jobs, ours)
        if options.pieces:
            agreed = _pieces(batch, course, Path(tmp), options.jobs, (ours_s, ours))
            agreed &= _unshrunk(batch, course, Path(tmp), options.jobs, (ours_s, ours), stock_s)
    floor = floor_seconds(batch)
    differ, fooled = _compare(stock, ours)
    print(f"\nfloor (cells and hidden checks in one warm, unconfined interpreter, one core): "
          f"{floor:.1f} s")
    print(f"overhead per notebook over the floor: ours {(ours_s - floor) / options.students:.2f}"
          f" s, stock's {(stock_s - floor) / options.students:.2f} s "
          f"(ours and stock on {os.cpu_count()} cores, the floor on one)")
    print(f"honest submissions scored differently: {len(differ)} {differ[:5]}")
    print(f"hostile submissions that fooled stock nbgrader: {len(fooled)} {fooled[:3]}")
    print(f"\nwhere the time went ({phases['notebooks']} notebooks, "
          f"{phases['cores']} cores; what is counted: grader/batch/_phases.py)")
    print("\n".join(phase_table(phases, stock_s, stock_cpu)))
    later_s, later_phases = later
    print(f"\na later batch, with the examples the first run's judges kept: {later_s:.1f} s, "
          f"judging {later_phases['phases']['judging']['cpu_s'] / options.students:.2f} "
          f"core-s/notebook, {stock_s / later_s:.2f}x stock")
    print(f"speedup vs nbgrader: {stock_s / ours_s:.2f}x")
    return 1 if differ or not agreed else 0


if __name__ == "__main__":
    sys.exit(main())
