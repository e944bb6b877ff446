"""``tensor-anatomy-grade``: the instructor's commands, thin over nbgrader.

    release            regenerate exercises/ from solutions/ (every assignment)
    grade [A]          autograde every submission of A (default: of every
                       assignment), write feedback, export a CSV, print a
                       summary table
    demo               three synthetic students (complete, partial, blank),
                       graded by ``grade`` for every assignment
    validate NB        run the hidden checks on one notebook, as grading would;
                       exit 0 only if every check passes (1: some fail,
                       2: the notebook could not be graded)
    new-exercise A N   write the stubs of a new exercise N of assignment A (its cells,
                       public check, hidden checks, wrong answers) and say what to fill in
"""

import argparse
import collections
import contextlib
import fcntl
import functools
import gc
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import _authoring, _notebook
from grader._course import speed_pieces_off
from grader.batch import _gradebook, _triage
from grader.batch._parallel import judge_batch
from grader.batch._report import plot_scores
from grader.bridge import _steps
from grader.bridge._steps import NbgraderSteps
from grader.judge._judge_server import judge
from grader.student import _sandbox

from ._course import Course

__all__ = ["main", "run"]


def _run_nbgrader(course: Course, *args: str) -> int:
    """Run one nbgrader command (``release`` only: grading runs nbgrader in-process)."""
    print("$ nbgrader " + " ".join(args), flush=True)
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course.root,
                          env=_steps.with_scripts_on_path()).returncode


def release(course: Course, names: list[str] | None = None) -> int:
    """Regenerate ``exercises/`` and the public checks' answer digests (no gradebook needed)."""
    from .checks import (
        _finite_answers,  # torch answers the finite exercises: not a student's import
    )

    _finite_answers.write()
    print("wrote grader/checks/answer_digests.json", flush=True)
    for name in names or course.assignments():
        if _authoring.refresh(course.source_notebook(name)):
            print(f"{name}: its intro table and headings now follow its test cells' points")
    codes = [_run_nbgrader(course, "generate_assignment", name, "--force", "--no-db")
             for name in names or course.assignments()]
    return int(any(codes))


def _submitted(course: Course, assignment: str, skip=()) -> list[Path]:
    name = course.release_notebook(assignment).name
    return [folder / name for folder in
            sorted((course.instructor / "submitted").glob(f"*/{assignment}"))
            if folder.parent.name not in skip]


def _students(submissions: list[Path]) -> list[str]:
    """The students of submitted notebooks (``submitted/<student>/<assignment>/<nb>``)."""
    return [path.parent.parent.name for path in submissions]


def _judge_ahead(course: Course, assignments: list[str], jobs: int | None,
                 scheduler: str | None, problems: dict[str, dict[str, str]],
                 each_judged, when_judged) -> None:
    """Judge the whole batch in parallel, calling back as notebooks and assignments are judged."""
    batch = {a: (_load(course.release_notebook(a)), _submitted(course, a, problems[a]))
             for a in assignments}
    count = sum(len(paths) for _, paths in batch.values())
    print(f"judging {count} submission(s) of {', '.join(assignments)} in parallel", flush=True)
    started = time.monotonic()
    failures = judge_batch(batch, course.instructor / "verdicts", workers=jobs,
                           scheduler=scheduler, each_judged=each_judged, when_judged=when_judged)
    print(f"judged in {time.monotonic() - started:.1f} s", flush=True)
    for failure in failures:
        print(f"  judged again by nbgrader: {failure}", file=sys.stderr)


def grade(course: Course, assignments: list[str], jobs: int | None = None,
          scheduler: str | None = None) -> int:
    """Autograde, feedback, CSV export and summary for each assignment.

    ``jobs`` judges that many notebooks at once on a local Dask cluster (default:
    one per core; 1 = no cluster), ``scheduler`` on an existing cluster instead.
    nbgrader takes each notebook as soon as it is judged, and sums up each
    assignment as soon as all its notebooks are.
    """
    course.instructor.mkdir(parents=True, exist_ok=True)  # sqlite will not make folders
    with one_grader_at_a_time(course.instructor):
        return _grade(course, assignments, jobs, scheduler)


@contextlib.contextmanager
def one_grader_at_a_time(instructor: Path):
    """Hold the instructor folder's grading lock; wait, saying so, while another command does.

    Two commands grading one folder at once would race for the same gradebook
    rows; the second waits, then finds the first one's verdicts stored.
    """
    with open(instructor / ".grading.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another grading command is grading {instructor}: waiting for it to finish",
                  file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _grade(course: Course, assignments: list[str], jobs: int | None,
           scheduler: str | None) -> int:
    problems = {a: _triage.triage(course.instructor / "submitted", a,
                                  course.release_notebook(a)) for a in assignments}
    failed, through = [], collections.defaultdict(set)
    steps = functools.cache(lambda: NbgraderSteps(course, course.instructor / "release"))

    def register_releases() -> None:  # needs no verdict: done while the cluster starts
        failed.extend(f"generate_assignment {a}" for a in assignments
                      if not steps().generate_assignment(a))

    def through_nbgrader(assignment: str, students: list[str]) -> None:
        students = [s for s in students if s not in through[assignment]]
        through[assignment].update(students)
        failed.extend(steps().grade(assignment, students))

    def finish(assignment: str) -> None:
        # The rest: judged in an earlier run, ungradable, or judged by nbgrader now.
        students = _students(_submitted(course, assignment))
        through_nbgrader(assignment, students)
        steps().report(assignment, len(students))
        failed.extend(_verify_and_summarize(course, assignment, problems[assignment]))

    parallel = jobs != 1 or scheduler
    if parallel and "overlap" in speed_pieces_off():  # benched: nbgrader after judging
        _judge_ahead(course, assignments, jobs, scheduler, problems, None, None)
        parallel = False
    if parallel:
        # Imported before the nbgrader lane starts: while one thread imports distributed,
        # another thread importing it sees it half-initialised (ImportError, a flaky run).
        import distributed  # noqa: F401
    # nbgrader's steps, one core's work, in a thread of their own: each notebook
    # as soon as it is judged, while the cluster judges the rest.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="nbgrader") as lane:
        queued = [lane.submit(register_releases)]
        if parallel:
            _judge_ahead(course, assignments, jobs, scheduler, problems,
                         each_judged=lambda a, paths: queued.append(
                             lane.submit(through_nbgrader, a, _students(paths))),
                         when_judged=lambda a: queued.append(lane.submit(finish, a)))
        else:
            queued += [lane.submit(finish, a) for a in assignments]
        for step in queued:
            step.result()
    failed += [] if steps().export(course.instructor / "grades.csv") else ["export"]
    print(f"CSV: {course.instructor / 'grades.csv'}   feedback: {course.instructor / 'feedback'}")
    export_for_lms(course)
    if failed:
        print(f"FAILED steps: {', '.join(failed)} (see the log above)", file=sys.stderr)
    return int(bool(failed))


def export_for_lms(course: Course) -> int:
    """The LMS files beside nbgrader's CSV (``_export``): wide, Canvas, Moodle."""
    from grader.batch._export import export_for_lms as write

    written = write(course.db_url, course.instructor / "export")
    print("for your LMS: " + "   ".join(str(path) for path in written))
    return 0


def _verify_and_summarize(course: Course, assignment: str, problems: dict[str, str]) -> list:
    failed = []
    unjudged = _unjudged_notebooks(course, assignment)
    if unjudged:
        print("NOT GRADED BY THE HIDDEN CHECKS (scores invalid):\n  " + "\n  ".join(unjudged),
              file=sys.stderr)
        failed.append(f"verify {assignment}")
    _summarize(course, assignment)
    _report_problems(course, assignment, problems)
    return failed + ([f"ungradable submissions of {assignment}"] if problems else [])


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
        missing = _nbgrader_bridge().missing_verdicts(_load(path))
        if missing:
            found.append(f"{path}: {', '.join(missing)}")
    return found


def validate(notebook: Path) -> int:
    """The student's dry run: the real judge on one notebook, with an honest exit code."""
    assignment = notebook.resolve().parent.name
    try:
        nb = _load(notebook)
        verdict = judge(nb, assignment)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"could not grade {notebook}: {exc}", file=sys.stderr)
        return 2
    points = {n: float(c["metadata"]["nbgrader"].get("points", 1))
              for n, c in _notebook.exercise_cells(nb).items()}
    for name, record in verdict["exercises"].items():
        print("\n".join(_nbgrader_bridge().report_lines(name, record, points.get(name, 1.0))))
    failed = [n for n, r in verdict["exercises"].items() if r["passed"] < r["total"]]
    print(f"\n{len(verdict['exercises']) - len(failed)} of {len(verdict['exercises'])} "
          "exercises pass every hidden check")
    return 1 if failed else 0


def _sandbox_ready(allow_unconfined: bool) -> bool:
    """Can students' code be confined here? Say so, or stop: never a silent weakening."""
    if allow_unconfined:
        os.environ[_sandbox.UNCONFINED_VARIABLE] = "1"  # judges inherit it
    missing = _sandbox.support()
    try:
        _sandbox.require()
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return False
    if _sandbox.unconfined_allowed():
        print("WARNING: grading without the sandbox's namespaces (--allow-unconfined): "
              "students' code can read whatever this user can and reach Unix sockets; "
              "only Landlock, the syscall filter and the limits still hold."
              + (f" Here: {missing}" if missing else ""), file=sys.stderr)
    return True


def _nbgrader_bridge():
    """Imported when needed: nbconvert alone takes seconds, and judging need not wait."""
    from grader.bridge import _nbgrader

    return _nbgrader


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
    sub.add_parser("export", help="write the grades for an LMS (wide, Canvas, Moodle CSVs)")
    demo_cmd = sub.add_parser("demo", help="grade three synthetic students")
    demo_cmd.add_argument("--into", type=Path,
                          help="the folder to grade them in (default: demo/, never the "
                               "instructor folder)")
    validate_cmd = sub.add_parser("validate", help="run the hidden checks on one notebook")
    validate_cmd.add_argument("notebook", type=Path)
    new_cmd = sub.add_parser("new-exercise", help="write the stubs of a new exercise")
    new_cmd.add_argument("assignment", help="e.g. 01_storage_strides")
    new_cmd.add_argument("name", help="the exercise's name: the student's function's name")
    new_cmd.add_argument("--points", type=int, default=2, help="its points (default: 2)")
    edition_cmd = sub.add_parser("student-edition",
                                 help="write the course as students get it (no answers)")
    edition_cmd.add_argument("out", type=Path, help="a new folder (becomes a git repository)")
    for command in (grade_cmd, demo_cmd, validate_cmd):
        command.add_argument("--allow-unconfined", action="store_true",
                             help="grade even where the kernel refuses the sandbox's namespaces "
                                  "(students' code then runs with this user's rights)")
    options = parser.parse_args(argv)
    course = Course.find()
    if options.command == "release":
        return release(course, options.assignments)
    if options.command == "new-exercise":
        from grader import scaffold

        return scaffold.main(course, options.assignment, options.name, options.points)
    if options.command == "export":
        return export_for_lms(course)
    if options.command == "student-edition":
        from grader import edition

        written = edition.build(course, options.out)
        print(f"student edition: {len(written)} files in {options.out} (a git repository); "
              f"students clone it and run make lab")
        return 0
    if not _sandbox_ready(options.allow_unconfined):
        return 2
    if options.command == "validate":
        return validate(options.notebook)
    if options.command == "demo":
        from grader.batch._demo import demo

        # The synthetic students get a folder of their own, read by everything that runs.
        folder = (options.into or course.root / "demo").resolve()
        os.environ["TENSOR_ANATOMY_INSTRUCTOR_DIR"] = str(folder)
        print(f"demo: grading synthetic students in {folder}", flush=True)
        return demo(course, grade)
    names = [options.assignment] if options.assignment else course.assignments()
    return grade(course, names, options.jobs, options.scheduler)


def run() -> None:
    """The command line: ``main``, then exit."""
    code = main()
    # At exit the collector would walk the whole heap for cycles (about 1 s after a
    # grading run), only for the operating system to free it all anyway.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
