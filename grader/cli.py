"""``tensor-anatomy-grade``: the instructor's commands, thin over nbgrader.

    release            regenerate exercises/ from solutions/ (every assignment)
    grade A            autograde every submission of A, write feedback,
                       export a CSV, print a summary table
    demo               three synthetic students (complete, partial, blank),
                       graded by ``grade`` for every assignment
    validate NB        run the hidden checks on one notebook, as grading would;
                       exit 0 only if every check passes (1: some fail,
                       2: the notebook could not be graded)
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from . import _gradebook, _notebook, _triage
from . import _nbgrader as _nbgrader_bridge
from ._course import Course
from ._judge import judge_in_subprocess
from ._parallel import judge_batch
from ._progress import run_with_progress
from ._report import plot_scores

__all__ = ["main"]


def _run_nbgrader(course: Course, *args: str, progress: int = 0) -> int:
    """Run one nbgrader step; with ``progress`` (notebooks expected), show a progress line."""
    cmd = [sys.executable, "-m", "nbgrader", *args]
    # nbgrader runs `alembic` by name when it creates a gradebook: put this
    # interpreter's scripts first on PATH even if the venv is not activated.
    scripts = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}
    print("$ nbgrader " + " ".join(args), flush=True)
    if not progress:
        return subprocess.run(cmd, cwd=course.root, env=env).returncode
    logs = course.instructor / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{args[0]}-{args[1]}.log"
    code = run_with_progress(cmd, log, progress, r"Writing \d+ bytes to .*\.(ipynb|html)$",
                             cwd=course.root, env=env)
    print(f"  log: {log}", flush=True)
    return code


def release(course: Course, names: list[str] | None = None) -> int:
    """Regenerate ``exercises/`` (no gradebook needed: the files only)."""
    codes = [_run_nbgrader(course, "generate_assignment", name, "--force", "--no-db")
             for name in names or course.assignments()]
    return int(any(codes))


_PER_NOTEBOOK = ("autograde", "generate_feedback")


def _judge_ahead(course: Course, assignment: str, jobs: int | None, scheduler: str | None,
                 skip: dict[str, str]) -> None:
    """Judge the batch in parallel before nbgrader walks it one notebook at a time."""
    name = course.release_notebook(assignment).name
    submissions = [folder / name for folder in
                   sorted((course.instructor / "submitted").glob(f"*/{assignment}"))
                   if folder.parent.name not in skip]
    print(f"judging {len(submissions)} submission(s) of {assignment} in parallel", flush=True)
    failures = judge_batch(submissions, _load(course.release_notebook(assignment)), assignment,
                           course.instructor / "verdicts", workers=jobs, scheduler=scheduler)
    for failure in failures:
        print(f"  judged again by nbgrader: {failure}", file=sys.stderr)


def grade(course: Course, assignment: str, jobs: int | None = None,
          scheduler: str | None = None) -> int:
    """Autograde, feedback, CSV export and summary for one assignment.

    ``jobs`` judges that many notebooks at once on a local Dask cluster (default:
    one per core; 1 = no cluster), ``scheduler`` on an existing cluster instead.
    """
    course.instructor.mkdir(parents=True, exist_ok=True)  # sqlite will not make folders
    release_dir = str(course.instructor / "release")
    steps = [
        # Registers the source cells and their checksums in the gradebook.
        ("generate_assignment", assignment, "--force",
         f"--CourseDirectory.release_directory={release_dir}"),
        ("autograde", assignment, "--force"),
        ("generate_feedback", assignment, "--force"),
        ("export", f"--to={course.instructor / 'grades.csv'}"),
    ]
    problems = _triage.triage(course.instructor / "submitted", assignment,
                              course.release_notebook(assignment))
    if jobs != 1 or scheduler:
        _judge_ahead(course, assignment, jobs, scheduler, problems)
    submissions = len(list((course.instructor / "submitted").glob(f"*/{assignment}")))
    failed = [step[0] for step in steps if _run_nbgrader(
        course, *step, progress=submissions if step[0] in _PER_NOTEBOOK else 0) != 0]
    unjudged = _unjudged_notebooks(course, assignment)
    if unjudged:
        print("NOT GRADED BY THE HIDDEN CHECKS (scores invalid):\n  " + "\n  ".join(unjudged),
              file=sys.stderr)
        failed.append("verify")
    _summarize(course, assignment)
    _report_problems(course, assignment, problems)
    failed += ["ungradable submissions"] if problems else []
    print(f"CSV: {course.instructor / 'grades.csv'}   feedback: {course.instructor / 'feedback'}")
    if failed:
        print(f"FAILED steps: {', '.join(failed)} (see the log above)", file=sys.stderr)
    return int(bool(failed))


def _summarize(course: Course, assignment: str) -> None:
    """The score table, and a plot of each exercise's score distribution."""
    cells = _notebook.exercise_cells(_load(course.source_notebook(assignment)))
    table = _gradebook.scores(course.db_url, assignment)
    print(f"\n{assignment}\n" + _gradebook.format_table(table, list(cells)))
    if table:
        plot = course.instructor / "reports" / f"{assignment}_scores.png"
        plot.parent.mkdir(parents=True, exist_ok=True)
        points = {n: float(c["metadata"]["nbgrader"]["points"]) for n, c in cells.items()}
        plot_scores(table, points, plot, assignment)
        print(f"score distribution: {plot}")


def _report_problems(course: Course, assignment: str, problems: dict[str, str]) -> None:
    """Say why each ungradable submission scored 0, here and in its feedback."""
    if not problems:
        return
    print(f"\nCould not grade {len(problems)} submission(s) of {assignment} (scored 0):")
    name = course.release_notebook(assignment).name
    for student, problem in problems.items():
        print(f"  {student}: {problem}")
        _triage.write_problem_feedback(
            course.instructor / "feedback" / student / assignment, assignment, name, problem)


def _unjudged_notebooks(course: Course, assignment: str) -> list[str]:
    """Autograded notebooks with a test cell that our judge did not fill in."""
    found = []
    for path in sorted((course.instructor / "autograded").glob(f"*/{assignment}/*.ipynb")):
        missing = _nbgrader_bridge.missing_verdicts(_load(path))
        if missing:
            found.append(f"{path}: {', '.join(missing)}")
    return found


def validate(notebook: Path) -> int:
    """The student's dry run: the real judge on one notebook, with an honest exit code."""
    assignment = notebook.resolve().parent.name
    try:
        nb = _load(notebook)
        verdict = judge_in_subprocess(nb, assignment)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"could not grade {notebook}: {exc}", file=sys.stderr)
        return 2
    points = {n: float(c["metadata"]["nbgrader"].get("points", 1))
              for n, c in _notebook.exercise_cells(nb).items()}
    for name, record in verdict["exercises"].items():
        print("\n".join(_nbgrader_bridge.report_lines(name, record, points.get(name, 1.0))))
    failed = [n for n, r in verdict["exercises"].items() if r["passed"] < r["total"]]
    print(f"\n{len(verdict['exercises']) - len(failed)} of {len(verdict['exercises'])} "
          "exercises pass every hidden check")
    return 1 if failed else 0


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tensor-anatomy-grade", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    release_cmd = sub.add_parser("release", help="regenerate exercises/ from solutions/")
    release_cmd.add_argument("assignments", nargs="*", help="default: every assignment")
    grade_cmd = sub.add_parser("grade", help="grade every submission of an assignment")
    grade_cmd.add_argument("assignment", nargs="?", help="default: every assignment")
    grade_cmd.add_argument("--jobs", type=int, default=None,
                           help="notebooks judged at once (default: one per core; 1: serial)")
    grade_cmd.add_argument("--scheduler", help="a Dask scheduler address (default: local)")
    sub.add_parser("demo", help="grade three synthetic students")
    validate_cmd = sub.add_parser("validate", help="run the hidden checks on one notebook")
    validate_cmd.add_argument("notebook", type=Path)
    options = parser.parse_args(argv)
    course = Course.find()
    if options.command == "release":
        return release(course, options.assignments)
    if options.command == "validate":
        return validate(options.notebook)
    if options.command == "demo":
        from ._demo import demo

        return demo(course, grade)
    names = [options.assignment] if options.assignment else course.assignments()
    return max((grade(course, name, options.jobs, options.scheduler) for name in names),
               default=0)


if __name__ == "__main__":
    sys.exit(main())
