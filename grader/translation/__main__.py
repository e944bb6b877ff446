"""``python -m grader.translation [--language L] {update,build,status}``: the three commands.

    update [LESSON ...]   refresh every catalogue from its English lesson or assignment,
                          the runtime catalogue (anatomy_widgets/locale) and the grading
                          commands' (grader/locale) from the code;
                          start one for each LESSON named (a stem: 02_creating_tensors)
                          and for each assignment named by --exercise
    build [--all] [LESSON ...]
                          write and run the lesson of each complete catalogue that changed
                          (--all: every one), then release the exercises of each complete
                          exercise catalogue (exercises/<language>/, by nbgrader); with
                          LESSONs, only those lessons are written, and no exercise
    status                what each catalogue lacks

Without --language, every language with a catalogue folder (course/*/po, exercises/*/po).
"""

import argparse
import sys

from grader._course import Course
from grader._language import exercise_languages, lesson_languages

from . import _build, _exercises, _grading, _runtime
from ._catalogue import problems


def _status(course: Course, language: str) -> bool:
    """Print each catalogue's problems; whether all are complete."""
    complete = True
    for lesson, catalog in _build.catalogues(course, language).items():
        found = problems(_build.load(lesson), catalog)
        print(f"{language}/{lesson.stem}: {found}")
        complete = complete and not found
    for assignment, catalog in _exercises.catalogues(course, language).items():
        nb = _build.load(course.source_notebook(assignment))
        found = problems(_exercises.text_view(nb), catalog)
        print(f"{language}/exercises/{assignment}: {found}")
        complete = complete and not found
    found = _runtime.problems(course, language)
    print(f"{language}/runtime ({_runtime.catalogue_path(course, language).name}): {found}")
    grading = _grading.problems(course, language)
    print(f"{language}/grading (grader/locale/{language}.po): {grading}")
    return complete and not found and not grading


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader.translation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", help="one language (default: every course/*/po)")
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser("update")
    update.add_argument("lessons", nargs="*", help="lessons to start a catalogue for")
    update.add_argument("--exercise", action="append", default=[], metavar="ASSIGNMENT",
                        help="an assignment to start an exercise catalogue for")
    build = commands.add_parser("build")
    build.add_argument("--all", action="store_true", help="run every translated lesson again")
    build.add_argument("lessons", nargs="*", help="only these lessons (stems), no exercise")
    commands.add_parser("status")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    course = Course.find()
    ok = True
    every = sorted({*lesson_languages(course), *exercise_languages(course)})
    for language in [args.language] if args.language else every:
        if args.command == "update":
            for path in [*_build.update(course, language, tuple(args.lessons)),
                         *_exercises.update(course, language, tuple(args.exercise)),
                         *_grading.update(course, language)]:
                print(f"updated {path.relative_to(course.root)}")
        elif args.command == "build":
            for path in _build.build(course, language, args.all, tuple(args.lessons)):
                print(f"built {path.relative_to(course.root)}")
            # After the lessons: a task links the translated lesson once there is one.
            if _exercises.complete(course, language) and not args.lessons:
                ok = _exercises.release(course, language,
                                        sorted(_exercises.complete(course, language))) == 0 and ok
        ok = _status(course, language) and ok
    # update leaves catalogues to translate; build and status fail on one left so.
    return 0 if ok or args.command == "update" else 1

if __name__ == "__main__":
    sys.exit(main())
