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

__all__ = ["main"]


def _run_nbgrader(course: Course, *args: str) -> int:
    cmd = [sys.executable, "-m", "nbgrader", *args]
    # nbgrader runs `alembic` by name when it creates a gradebook: put this
    # interpreter's scripts first on PATH even if the venv is not activated.
    scripts = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}
    print("$ nbgrader " + " ".join(args), flush=True)
    return subprocess.run(cmd, cwd=course.root, env=env).returncode


def release(course: Course, names: list[str] | None = None) -> int:
    """Regenerate ``exercises/`` (no gradebook needed: the files only)."""
    codes = [_run_nbgrader(course, "generate_assignment", name, "--force", "--no-db")
             for name in names or course.assignments()]
    return int(any(codes))


def grade(course: Course, assignment: str) -> int:
    """Autograde, feedback, CSV export and summary for one assignment."""
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
    failed = [step[0] for step in steps if _run_nbgrader(course, *step) != 0]
    unjudged = _unjudged_notebooks(course, assignment)
    if unjudged:
        print("NOT GRADED BY THE HIDDEN CHECKS (scores invalid):\n  " + "\n  ".join(unjudged),
              file=sys.stderr)
        failed.append("verify")
    exercises = list(_notebook.exercise_cells(_load(course.source_notebook(assignment))))
    print(f"\n{assignment}\n" + _gradebook.format_table(
        _gradebook.scores(course.db_url, assignment), exercises))
    _report_problems(course, assignment, problems)
    failed += ["ungradable submissions"] if problems else []
    print(f"CSV: {course.instructor / 'grades.csv'}   feedback: {course.instructor / 'feedback'}")
    if failed:
        print(f"FAILED steps: {', '.join(failed)} (see the log above)", file=sys.stderr)
    return int(bool(failed))


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
    return max((grade(course, name) for name in names), default=0)


if __name__ == "__main__":
    sys.exit(main())
