"""On a shared server, students read of the instructor's checkout what the student edition holds.

    python -m grader.edition.hub_modes --group instructors [--instructor-dir DIR] [CHECKOUT]

Run as root once the checkout is set up (and again after each ``git pull``): every path
of the checkout that the student edition does not hold (``solutions/``, the hidden
checks, the judge, the answer digests, ``tests/``, ``.git`` with its history) is closed
to other users (group ``--group``, no bit for others); the instructor folder is the
group's alone (``2770``: new files inherit the group, nobody else may even list it).
What every user's server runs stays open: the venv and ``deploy/`` (the students'
Jupyter configuration). Derived, never listed: the readable set is the edition's
(``grader.edition``: the lessons, exercises, widgets and the public modules).

Closing the topmost private path is enough: a folder without the others' ``x`` bit
cannot be entered, whatever the modes below it. ``tests/hub/test_hub_browser.py`` proves it
from a student's kernel on a running hub.
"""

import argparse
import grp
import os
import stat
from pathlib import Path

from grader._course import Course
from grader.checks import _public_examples
from grader.edition import _COPIED, public_modules

__all__ = ["close_to_students", "private_paths", "readable_by_students"]

SHARED_WITH_EVERY_USER = (".venv", "deploy")  # every user's server runs these
OTHERS = stat.S_IRWXO
INSTRUCTOR_FOLDER_MODE = 0o2770


def readable_by_students(root: Path) -> set[Path]:
    """The checkout's paths (relative) that the student edition holds, or every server runs."""
    examples = Path("grader", "checks", _public_examples.EXAMPLES_DIR.name)
    return {*map(Path, _COPIED), *map(Path, SHARED_WITH_EVERY_USER), examples,
            *public_modules(root)}


def private_paths(root: Path) -> list[Path]:
    """The topmost paths under ``root`` that students may not read: every entry of a folder
    on the way to a readable path that is neither readable nor on the way to one."""
    readable = readable_by_students(root)
    on_the_way = {parent for path in readable for parent in path.parents} - {Path(".")}
    closed, folders = [], [Path(".")]
    while folders:
        folder = folders.pop()
        for entry in sorted((root / folder).iterdir()):
            relative = entry.relative_to(root)
            if relative in readable:
                continue
            if relative in on_the_way and entry.is_dir() and not entry.is_symlink():
                folders.append(relative)
            else:
                closed.append(relative)
    return sorted(closed)


def _close(path: Path, gid: int, mode: int) -> tuple[Path, int, int]:
    """Give ``path`` to group ``gid`` with ``mode``; what it was (path, gid, mode)."""
    before = path.lstat()
    os.chown(path, -1, gid, follow_symlinks=False)
    if not path.is_symlink():
        path.chmod(mode)
    return path, before.st_gid, stat.S_IMODE(before.st_mode)


def close_to_students(root: Path, group: str,
                      instructor_dir: Path | None = None) -> list[tuple[Path, int, int]]:
    """Close what students may not read; each changed path with its former group and mode,
    so that a caller can put them back."""
    gid = grp.getgrnam(group).gr_gid
    changed = []
    for relative in private_paths(root):
        path = root / relative
        mode = stat.S_IMODE(path.lstat().st_mode) & ~OTHERS
        changed.append(_close(path, gid, mode | (stat.S_IRGRP | stat.S_IXGRP
                                                 if path.is_dir() else stat.S_IRGRP)))
    if instructor_dir is not None:
        instructor_dir.mkdir(parents=True, exist_ok=True)
        changed.append(_close(instructor_dir, gid, INSTRUCTOR_FOLDER_MODE))
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.edition.hub_modes",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path, default=Path.cwd(),
                        help="the course checkout (default: the one above this folder)")
    parser.add_argument("--group", required=True, help="the OS group of the instructors")
    parser.add_argument("--instructor-dir", type=Path, default=None,
                        help="the instructor folder (default: the course's)")
    args = parser.parse_args(argv)
    course = Course.find(args.checkout)
    folder = args.instructor_dir or course.instructor
    changed = close_to_students(course.root, args.group, folder)
    for path, _, _ in changed:
        print(f"closed to students: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
