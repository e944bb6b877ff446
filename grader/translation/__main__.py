"""``python -m grader.translation [--language L] {update,build,status}``: the three commands.

    update [LESSON ...]   refresh every catalogue from its English lesson; start one for
                          each LESSON named (a stem: 02_creating_tensors)
    build [--all]         write and run the lesson of each complete catalogue that changed
                          (--all: every one)
    status                what each catalogue lacks

Without --language, every language with a catalogue folder (course/*/po).
"""

import argparse
import sys

from grader._course import Course

from . import _build, _layout
from ._catalogue import problems


def _status(course: Course, language: str) -> bool:
    """Print each catalogue's problems; whether all are complete."""
    complete = True
    for lesson, catalog in _build.catalogues(course, language).items():
        found = problems(_build.load(lesson), catalog)
        print(f"{language}/{lesson.stem}: {found}")
        complete = complete and not found
    return complete


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader.translation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", help="one language (default: every course/*/po)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update").add_argument("lessons", nargs="*",
                                               help="lessons to start a catalogue for")
    commands.add_parser("build").add_argument("--all", action="store_true",
                                              help="run every translated lesson again")
    commands.add_parser("status")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    course = Course.find()
    ok = True
    for language in [args.language] if args.language else _layout.languages(course):
        if args.command == "update":
            for path in _build.update(course, language, tuple(args.lessons)):
                print(f"updated {path.relative_to(course.root)}")
        elif args.command == "build":
            for path in _build.build(course, language, args.all):
                print(f"built {path.relative_to(course.root)}")
        ok = _status(course, language) and ok
    # update leaves catalogues to translate; build and status fail on one left so.
    return 0 if ok or args.command == "update" else 1

if __name__ == "__main__":
    sys.exit(main())
