"""A language's start page, ``course/<language>/00_start.ipynb``: a pure function.

Made as the English one is (``grader._navigation.start_page``): the chapters in order,
each with its lesson, its core and whole-lesson times and its exercises, from the
lessons themselves; here the titles are the translated lessons' (an untranslated lesson
is the English one, named in English and said to be), the links lead to the translated
lessons and to the exercises in that language where they are released (else the
English ones), and the words are ``language.toml``'s ``[start]``. The times are the
English lesson's: the same cells, and the reading speed is measured in English words.
``_build.expected`` makes it with the lessons, so ``build`` writes it and the test of
generated lessons fails on its drift.
"""

import json
import os
from pathlib import Path

from grader import _navigation
from grader._notebook import source

__all__ = ["start_page"]


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _first_line(nb: dict) -> str:
    return source(nb["cells"][0]).splitlines()[0].lstrip("# ").strip()


def _link(target: Path, here: Path) -> str:
    return Path(os.path.relpath(target, here)).as_posix()


def start_page(words: dict, here: Path, chapters: list[tuple[Path, dict | None, Path]]) -> dict:
    """The start page in the folder ``here``, with ``words`` (``language.toml``'s
    ``[start]``); ``chapters``, in order: (English lesson, its translation or ``None``,
    the exercises it links to)."""
    rows = []
    for number, (lesson, translated, exercises) in enumerate(chapters, start=1):
        english = _load(lesson)
        shown = translated or english
        link = lesson.name if translated else _link(lesson, here)
        chapter, _, about = _first_line(shown).partition(" · ")
        name = words["lesson" if translated else "lesson_in_english"].format(
            title=about or chapter, link=link)
        short = _navigation.core(english)
        first = "[{time}]({link}#cell-id=core)".format(
            time=words["minutes"].format(minutes=_navigation.minutes(short)), link=link) \
            if short["cells"] else "-"
        whole = words["minutes"].format(minutes=_navigation.minutes(english))
        rows.append(f"| {number} | {name} | {first} | {whole} | "
                    f"{words['exercises'].format(link=_link(exercises, here))} |")
    text = (words["text"].format(count=len(rows), english=_link(here.parent / _navigation.START,
                                                                  here)).rstrip("\n")
            + "\n\n" + words["table"].rstrip("\n") + "\n" + "\n".join(rows))
    lesson, translated, _ = chapters[0]
    kernel = (translated or _load(lesson))["metadata"]  # a translated one's: its language
    return {"cells": [{"cell_type": "markdown", "id": "start", "metadata": {},
                       "source": text.splitlines(keepends=True)}],
            "metadata": kernel, "nbformat": 4, "nbformat_minor": 5}
