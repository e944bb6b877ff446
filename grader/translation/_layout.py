"""Where a translation lives: one folder per language beside the English lessons.

``course/<language>/`` holds the generated lessons, ``po/<lesson>.po`` their
catalogues and ``language.toml`` the words that come from no lesson (the
navigation cell's, the glossary). A language exists when its ``po/`` folder
does (``grader._language.lesson_languages``): nothing lists languages or lessons by hand.
"""

import tomllib
from pathlib import Path

from grader import _navigation
from grader._course import Course

__all__ = ["catalogue_path", "folder", "language_file", "lessons", "translated_path"]


def lessons(course: Course) -> list[Path]:
    """The English lessons, in chapter order (the start page's list)."""
    return _navigation.lessons(course)


def folder(course: Course, language: str) -> Path:
    return course.root / "course" / language


def catalogue_path(course: Course, language: str, lesson: Path) -> Path:
    return folder(course, language) / "po" / f"{lesson.stem}.po"


def translated_path(course: Course, language: str, lesson: Path) -> Path:
    return folder(course, language) / lesson.name


def language_file(course: Course, language: str) -> dict:
    """``language.toml``: the navigation cell's words and the glossary."""
    with open(folder(course, language) / "language.toml", "rb") as f:
        return tomllib.load(f)
