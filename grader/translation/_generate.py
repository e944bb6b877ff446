"""A translated lesson, from its English notebook and its catalogue: pure functions.

Each Markdown cell's text is its entry's msgstr; every other cell is the
English cell itself: the same source, id and metadata, so a code cell runs
exactly what the English one runs (and what nbval re-proves), and a link to
``#cell-id=...`` finds the same cell in either language. The stored outputs
start as the English ones; ``build`` then runs the notebook for its own. The
navigation cell is made here, from ``language.toml``'s words: its links start
one folder deeper, and lead to the next lesson in this language if it exists.
"""

import copy

from babel.messages.catalog import Catalog

from grader._navigation import NAVIGATION_ID

from ._catalogue import problems, translations

__all__ = ["navigation_cell", "title", "translated"]


def title(first_cell_text: str) -> str:
    """A lesson's title: the first line of its first cell, without the ``#``."""
    return first_cell_text.splitlines()[0].lstrip("# ").strip()


def navigation_cell(words: dict, exercises: str, following: tuple[str, str, bool] | None,
                    start: str) -> dict:
    """The last cell: links to ``exercises``, ``following`` (title, link, whether it is
    translated: an English lesson is named in English, and said to be) and ``start``."""
    links = [words["exercises"].format(link=exercises)]
    if following is not None:
        name, link, translated = following
        kind = "next_lesson" if translated else "next_lesson_in_english"
        links.append(words[kind].format(title=name, link=link))
    links.append(words["all_chapters"].format(link=start))
    text = words["next"] + words["separator"].join(links)
    return {"cell_type": "markdown", "id": NAVIGATION_ID, "metadata": {},
            "source": text.splitlines(keepends=True)}


def _cell(cell: dict, entries: dict) -> dict:
    if cell.get("id") not in entries:
        return copy.deepcopy(cell)
    text = entries[cell["id"]].string
    return {**copy.deepcopy(cell), "source": text.splitlines(keepends=True)}


def translated(nb: dict, catalog: Catalog, language: str, navigation: dict) -> dict:
    """``nb`` in ``language``, its navigation cell replaced by ``navigation``."""
    found = problems(nb, catalog)
    if found:
        raise ValueError(f"the catalogue cannot translate this notebook: {found}")
    entries = translations(catalog)
    cells = [navigation if c.get("id") == NAVIGATION_ID else _cell(c, entries)
             for c in nb["cells"]]
    metadata = copy.deepcopy(nb["metadata"])
    metadata["tensor_anatomy"] = {**metadata.get("tensor_anatomy", {}), "language": language}
    return {**nb, "cells": cells, "metadata": metadata}
