"""``tensor-anatomy-grade``: the instructor's commands, thin over nbgrader.

    release            regenerate exercises/ from solutions/ (every assignment);
                       --language zh-CN: exercises/zh-CN/ from solutions/ and the
                       catalogues exercises/zh-CN/po/ (grader/translation)
    grade [A]          autograde every submission of A (default: of every
                       assignment), write feedback, export a CSV, print a
                       summary table
    demo               three synthetic students (complete, partial, blank),
                       graded by ``grade`` for every assignment
    validate NB        a dry run: the hidden checks on one notebook, as grading would,
                       its points per exercise and a total;
                       exit 0 only if every check passes (1: some fail,
                       2: the notebook could not be graded)
    variants A         publish each student's variant of A (its finite exercises' items,
                       its examples' seed) into the exchange's released A
                       (after nbgrader release_assignment;
                       the course's key is created in the instructor folder if none)
    new-exercise A N   write the stubs of a new exercise N of assignment A (its cells,
                       public check, hidden checks, wrong answers) and say what to fill in
    settings           every TENSOR_ANATOMY_* variable: its value now and what it sets
"""

import argparse
import gc
import os
import subprocess
import sys
from pathlib import Path

from grader import _iri_grammar

_iri_grammar.defer()  # before the imports below import jsonschema: 0.98 s of start-up

from grader import _authoring, _navigation  # noqa: E402
from grader._settings import Settings, variable  # noqa: E402
from grader.batch._dry_run import dry_run  # noqa: E402
from grader.batch._run import export_for_lms, grade  # noqa: E402
from grader.bridge import _steps  # noqa: E402
from grader.student import _sandbox  # noqa: E402

from ._course import Course  # noqa: E402

__all__ = ["main", "run"]


def _run_nbgrader(course: Course, *args: str) -> int:
    """Run one nbgrader command (``release`` only: grading runs nbgrader in-process)."""
    print("$ nbgrader " + " ".join(args), flush=True)
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course.root,
                          env=_steps.with_scripts_on_path()).returncode


def release(course: Course, names: list[str] | None = None) -> int:
    """Regenerate ``exercises/``, the public checks' answer digests and their stored public
    examples (no gradebook needed)."""
    from .checks import (
        _finite_answers,  # torch answers the finite exercises: not a student's import
    )
    from .hidden.oracles import write_public_examples  # the judge's oracles, never shipped

    _finite_answers.write()
    print("wrote grader/checks/answer_digests.json", flush=True)
    written = write_public_examples()
    print(f"wrote grader/checks/public_examples/ ({len(written)} exercises)", flush=True)
    for name in names or course.assignments():
        if _authoring.refresh(course.source_notebook(name)):
            print(f"{name}: its intro table and headings now follow its test cells' points")
    codes = [_run_nbgrader(course, "generate_assignment", name, "--force", "--no-db")
             for name in names or course.assignments()]
    for path in _navigation.refresh(course):  # links to the exercises just released
        print(f"{path.relative_to(course.root)}: its links now follow the lessons")
    return int(any(codes))


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tensor-anatomy-grade", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    release_cmd = sub.add_parser("release", help="regenerate exercises/ from solutions/")
    release_cmd.add_argument("assignments", nargs="*", help="default: every assignment")
    in_other = release_cmd.add_mutually_exclusive_group()
    in_other.add_argument("--language", help="instead, release exercises/LANGUAGE/ from the "
                                             "English sources and exercises/LANGUAGE/po/")
    in_other.add_argument("--translated", action="store_true",
                          help="instead, release every language with exercise catalogues")
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
    variants_cmd = sub.add_parser("variants", help="publish each student's variant of A")
    variants_cmd.add_argument("assignment")
    variants_cmd.add_argument("--student", action="append", dest="students",
                              help="a student id (repeat; default: the gradebook's students)")
    variants_cmd.add_argument("--into", type=Path, help="the released folder students fetch "
                              "(default: the exchange's outbound/A)")
    new_cmd = sub.add_parser("new-exercise", help="write the stubs of a new exercise")
    new_cmd.add_argument("assignment", help="e.g. 01_storage_strides")
    new_cmd.add_argument("name", help="the exercise's name: the student's function's name")
    new_cmd.add_argument("--points", type=int, default=2, help="its points (default: 2)")
    edition_cmd = sub.add_parser("student-edition",
                                 help="write the course as students get it (no answers)")
    edition_cmd.add_argument("out", type=Path, help="a new folder (becomes a git repository)")
    edition_cmd.add_argument("--language", default="en",
                             help="the students' language: its README and start page "
                                  "(default: en; zh-CN: course/zh-CN, exercises/zh-CN)")
    for command in (grade_cmd, demo_cmd, validate_cmd):
        command.add_argument("--allow-unconfined", action="store_true",
                             help="grade even where the kernel refuses the sandbox's namespaces "
                                  "(students' code then runs with this user's rights)")
    sub.add_parser("settings", help="every TENSOR_ANATOMY_* variable, its value now and help")
    options = parser.parse_args(argv)
    if options.command == "settings":
        for name, value, meaning in Settings.from_environment().described():
            print(f"{name}={value}\n    {meaning}")
        return 0
    course = Course.find()
    if options.command == "release" and (options.language or options.translated):
        from grader._language import exercise_languages
        from grader.translation import _exercises

        languages = [options.language] if options.language else exercise_languages(course)
        return max([_exercises.release(course, language, options.assignments or None)
                    for language in languages], default=0)
    if options.command == "release":
        return release(course, options.assignments)
    if options.command == "new-exercise":
        from grader import scaffold

        return scaffold.main(course, options.assignment, options.name, options.points)
    if options.command == "variants":
        from grader.bridge._variants import publish_command

        return publish_command(course, options.assignment, options.students, options.into)
    if options.command == "export":
        return export_for_lms(course)
    if options.command == "student-edition":
        from grader import edition

        try:
            written = edition.build(course, options.out, language=options.language)
        except (FileExistsError, FileNotFoundError) as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"student edition ({options.language}): {len(written)} files in {options.out} "
              f"(a git repository); students clone it and run make lab")
        return 0
    if not _sandbox_ready(options.allow_unconfined):
        return 2
    if options.command == "validate":
        return dry_run(options.notebook)
    if options.command == "demo":
        from grader.batch._demo import demo

        # The synthetic students get a folder of their own, read by everything that runs.
        folder = (options.into or course.root / "demo").resolve()
        os.environ[variable("instructor_dir")] = str(folder)  # judges and nbgrader inherit it
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
