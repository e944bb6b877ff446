"""The graded exercises in other languages: one source, one catalogue, nbgrader's release.

    solutions/01_storage_strides/01_storage_strides.ipynb         the source: English, solutions
    exercises/zh-CN/po/01_storage_strides.po                      its catalogue
    exercises/zh-CN/01_storage_strides/01_storage_strides.ipynb   released; never edited by hand

A catalogue holds what a student reads: each Markdown cell (a task cell less its
Read-first line) and each docstring of an answer cell (msgctxt
``<cell id>:<name>.__doc__``), nothing inside a solution region. It is the
lessons' catalogue machinery run on the notebook's ``text_view``, so update,
fuzzy entries and problems are the same. ``translated_source`` is the English
source with those texts replaced, each task's Read-first line written in the
language (to the translated lesson where there is one), and one line at the top
of the setup cell that tells the kernel its language; every cell id, nbgrader
metadata, test cell and line of code is the English one. ``release`` hands
those sources to nbgrader's ``generate_assignment`` from a temporary folder,
so the release is made as the English one is (solutions cleared, hidden tests
removed, checksums), with the same assignment names, grade ids and points.

The translated sources are never stored: nbgrader takes every folder of its
source directory for an assignment (the Formgrader would list a ``solutions/zh-CN``
as one), and they hold nothing the English source and the catalogue do not.
Grading needs none: a submission in any language is graded against the English
source in the gradebook (``grader.bridge._structure`` accepts each language's
released cells as untouched).
"""

import copy
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog

from anatomy_widgets._language import ENVIRONMENT
from grader import _read_first
from grader._course import Course
from grader._notebook import nbgrader_metadata, source
from grader.bridge._steps import with_scripts_on_path

from . import _layout, _merge, _pofile
from ._catalogue import problems, translations
from ._docstrings import docstrings, with_docstrings

__all__ = ["LANGUAGE_VARIABLE", "catalogue_path", "catalogues", "complete", "doc_key",
           "language_line", "release", "release_folder", "text_view",
           "translated_source", "update"]

# What a kernel reads to know its language: a fetched assignment leaves its language's
# folder behind, so the setup cell says it.
LANGUAGE_VARIABLE = ENVIRONMENT
SETUP_ID = "setup"  # the grade id of the cell every exercise runs after


def language_line(language: str) -> str:
    return f"%env {LANGUAGE_VARIABLE}={language}\n"


def doc_key(cell_id: str, name: str) -> str:
    """The msgctxt of the docstring of ``name`` (``LogSumExp.forward``) in answer cell
    ``cell_id``."""
    return f"{cell_id}:{name}.__doc__"


def _read_first_ids(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get(_read_first.KEY, {}).get("read_first") or []


def _markdown(key: str, text: str) -> dict:
    return {"cell_type": "markdown", "id": key, "metadata": {}, "source": text}


def text_view(nb: dict) -> dict:
    """``nb`` as its catalogue sees it: a Markdown cell per text to translate, keyed as its
    entry is. An answer's code and a Markdown answer (the answer itself) are not there."""
    cells = []
    for cell in nb["cells"]:
        text = source(cell)
        if nbgrader_metadata(cell).get("solution"):
            if cell["cell_type"] == "code":
                cells += [_markdown(doc_key(cell["id"], name), doc)
                          for name, doc in docstrings(text).items()]
        elif cell["cell_type"] == "markdown":
            cells.append(_markdown(cell["id"], _read_first.without_line(text)
                                   if _read_first_ids(cell) else text))
    return {"cells": cells, "metadata": {}}


# -- where things are ---------------------------------------------------------------------

def release_folder(course: Course, language: str) -> Path:
    """``exercises/<language>``: nbgrader's release directory for that language."""
    return course.root / "exercises" / language


def catalogue_path(course: Course, language: str, assignment: str) -> Path:
    return release_folder(course, language) / "po" / f"{assignment}.po"


def catalogues(course: Course, language: str) -> dict[str, Catalog]:
    """assignment → its catalogue, for the assignments that have one."""
    return {a: _pofile.read(path) for a in course.assignments()
            if (path := catalogue_path(course, language, a)).exists()}


def _source(course: Course, assignment: str) -> dict:
    return json.loads(course.source_notebook(assignment).read_text(encoding="utf-8"))


def complete(course: Course, language: str) -> dict[str, Catalog]:
    """The catalogues that translate their assignment as it is now: those released."""
    return {a: catalog for a, catalog in catalogues(course, language).items()
            if not problems(text_view(_source(course, a)), catalog)}


_HEADER = """\
# The {language} text of solutions/{assignment}/{assignment}.ipynb: one entry per Markdown
# cell (msgctxt: the cell id; a task's Read-first line is written by release) and one per
# docstring of an answer cell (msgctxt: <cell id>:<function>.__doc__; the code stays
# English). Written by `python -m grader.translation update`, which keeps every
# translation; an entry marked fuzzy awaits a look at its English's change (the #| lines)."""


def update(course: Course, language: str, new: tuple[str, ...] = ()) -> list[Path]:
    """Refresh each exercise catalogue of ``language``, and start one for each assignment
    in ``new``; the catalogues written."""
    written = []
    for assignment in course.assignments():
        path = catalogue_path(course, language, assignment)
        if path.exists() or assignment in new:
            old = _pofile.read(path) if path.exists() else _pofile.new(language, assignment)
            if not path.exists():
                old.header_comment = _HEADER.format(language=language, assignment=assignment)
            if _pofile.write(_merge.merged(text_view(_source(course, assignment)), old), path):
                written.append(path)
    return written


# -- the translated source ----------------------------------------------------------------

def _lesson(course: Course, language: str, assignment: str) -> tuple[Path, bool]:
    """The lesson an assignment's tasks link to: the translated one if it exists (and
    whether it is), else the English one."""
    english = _read_first.lesson_of(course.source_notebook(assignment))
    translated = _layout.translated_path(course, language, english)
    return (translated, True) if translated.exists() else (english, False)


def _read_first_line(course: Course, language: str, assignment: str, cell_ids: list[str]) -> str:
    lesson, in_language = _lesson(course, language, assignment)
    words = _layout.language_file(course, language)["exercises"]
    here = release_folder(course, language) / assignment
    link = Path(os.path.relpath(lesson, here)).as_posix()
    titles = _read_first.sections(json.loads(lesson.read_text(encoding="utf-8")))
    label = words["read_first"] if in_language else words["read_first_in_english"]
    return _read_first.line(link, cell_ids, titles, label)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def translated_source(course: Course, language: str, assignment: str,
                      catalog: Catalog) -> dict:
    """The source notebook of ``assignment`` in ``language``: its texts from ``catalog``."""
    nb = _source(course, assignment)
    found = problems(text_view(nb), catalog)
    if found:
        raise ValueError(f"the catalogue cannot translate {assignment}: {found}")
    entries = {key: m.string for key, m in translations(catalog).items()}
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        grading = nbgrader_metadata(cell)
        if grading.get("solution") and cell["cell_type"] == "code":
            wanted = {name: entries[doc_key(cell["id"], name)]
                      for name in docstrings(source(cell))}
            cell["source"] = _lines(with_docstrings(source(cell), wanted))
        elif cell["cell_type"] == "markdown" and cell["id"] in entries:
            text = entries[cell["id"]]
            if _read_first_ids(cell):
                line = _read_first_line(course, language, assignment, _read_first_ids(cell))
                text = text.rstrip("\n") + "\n\n" + line
            cell["source"] = _lines(text)
        elif grading.get("grade_id") == SETUP_ID:
            cell["source"] = _lines(language_line(language) + source(cell))
    nb["metadata"][_read_first.KEY] = {**nb["metadata"].get(_read_first.KEY, {}),
                                       "language": language}
    return nb


def release(course: Course, language: str, names: list[str] | None = None,
            into: Path | None = None) -> int:
    """``exercises/<language>/<assignment>/`` (or ``into/<assignment>/``) for each assignment
    named (default: each with a catalogue) whose catalogue is complete, by nbgrader from the
    translated sources; 1 if any named one could not be released."""
    ready, every = complete(course, language), catalogues(course, language)
    wanted = names or sorted(every)
    for assignment in wanted:
        if assignment not in ready:
            why = problems(text_view(_source(course, assignment)), every[assignment]) \
                if assignment in every else f"no {catalogue_path(course, language, assignment)}"
            print(f"{language}/{assignment}: not released: {why}", file=sys.stderr)
    released = [a for a in wanted if a in ready]
    if not released:
        return 1
    with tempfile.TemporaryDirectory(prefix=f"source-{language}-") as folder:
        for assignment in released:
            path = Path(folder) / assignment / course.source_notebook(assignment).name
            path.parent.mkdir()
            nb = translated_source(course, language, assignment, ready[assignment])
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        args = ["generate_assignment", "*", "--force", "--no-db",
                f"--CourseDirectory.source_directory={folder}",
                f"--CourseDirectory.release_directory={into or release_folder(course, language)}"]
        print(f"$ nbgrader {' '.join(args)}  # {', '.join(released)}", flush=True)
        code = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course.root,
                              env=with_scripts_on_path()).returncode
    return int(bool(code) or len(released) < len(wanted))
