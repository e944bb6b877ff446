"""``update`` and ``build`` over the whole course: every language, every lesson.

``update`` rewrites catalogues (``_merge``); ``build`` writes the translated
lesson of every complete catalogue (``_generate``) and runs it for its
outputs. Only a notebook's outputs come from running it: its cells' sources,
ids and metadata, and its own metadata, are put back as generated, so the file
is exactly what ``expected`` says but for outputs (``tests/translation/test_translation.py``).
"""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog

from grader._course import Course
from grader._navigation import START
from grader._notebook import source

from . import _exercises, _layout, _merge, _pofile, _runtime
from ._catalogue import problems, translations
from ._generate import navigation_cell, title, translated
from ._start import start_page

__all__ = ["build", "catalogues", "complete", "dump", "expected", "load", "skeleton", "update"]

# One lesson runs at a time on this machine, whoever runs it: two kernels doing timings
# at once (chapter 4) would print numbers neither would alone.
EXECUTION_LOCK = "/tmp/lesson-exec.lock"


def load(path: Path) -> dict:
    """A notebook as plain JSON."""
    return json.loads(path.read_text(encoding="utf-8"))


def dump(nb: dict) -> str:
    """As nbformat writes a notebook (keys sorted), so running it leaves no other diff."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def catalogues(course: Course, language: str) -> dict[Path, Catalog]:
    """English lesson → its catalogue, for the lessons that have one."""
    return {lesson: _pofile.read(path) for lesson in _layout.lessons(course)
            if (path := _layout.catalogue_path(course, language, lesson)).exists()}


def update(course: Course, language: str, new: tuple[str, ...] = ()) -> list[Path]:
    """Refresh each catalogue of ``language``, and start one for each lesson stem in
    ``new``; then the runtime catalogue (``_runtime``); the catalogues written."""
    written = []
    for lesson in _layout.lessons(course):
        path = _layout.catalogue_path(course, language, lesson)
        if path.exists() or lesson.stem in new:
            old = _pofile.read(path) if path.exists() else _pofile.new(language, lesson.stem)
            if _pofile.write(_merge.merged(load(lesson), old), path):
                written.append(path)
    path = _runtime.catalogue_path(course, language)
    old = _pofile.read(path) if path.exists() else _runtime.new(language)
    if _pofile.write(_merge.merged_lines(_runtime.lines(course.root), old), path):
        written.append(path)
    return written


def _following(course: Course, lesson: Path, ready: dict) -> tuple | None:
    """(title, link, translated) of the lesson after ``lesson``: the translated one if its
    catalogue is complete, else the English one."""
    found = _layout.lessons(course)
    after = found[found.index(lesson) + 1:]
    if not after:
        return None
    if after[0] in ready:
        first = translations(ready[after[0]])[load(after[0])["cells"][0]["id"]]
        return title(first.string), after[0].name, True
    return title(source(load(after[0])["cells"][0])), f"../{after[0].name}", False


def _exercises_of(course: Course, language: str, lesson: Path, released) -> Path:
    """The assignment a lesson links to: in ``language`` where ``released`` (the assignments
    whose catalogue is complete: ``build`` releases them) holds it, else the English one."""
    if lesson.stem in released:
        return _exercises.release_folder(course, language) / lesson.stem / \
            course.release_notebook(lesson.stem).name
    return course.release_notebook(lesson.stem)


def _navigation(course: Course, language: str, lesson: Path, ready: dict, released) -> dict:
    here = _layout.folder(course, language)
    exercises = os.path.relpath(_exercises_of(course, language, lesson, released), here)
    words = _layout.language_file(course, language)["navigation"]
    # The language's own start page (``_start``), beside its lessons.
    return navigation_cell(words, Path(exercises).as_posix(),
                           _following(course, lesson, ready), START)


def complete(course: Course, language: str) -> dict[Path, Catalog]:
    """The catalogues that translate their lesson as it is now: those ``build`` builds."""
    return {lesson: catalog for lesson, catalog in catalogues(course, language).items()
            if not problems(load(lesson), catalog)}


def expected(course: Course, language: str) -> dict[Path, dict]:
    """Translated lesson path → the notebook ``build`` writes there, English outputs and all;
    and the language's start page (``_start``), once a lesson is translated."""
    ready, released = complete(course, language), set(_exercises.complete(course, language))
    lessons = {lesson: translated(load(lesson), catalog, language,
                                  _navigation(course, language, lesson, ready, released))
               for lesson, catalog in ready.items()}
    found = {_layout.translated_path(course, language, lesson): nb
             for lesson, nb in lessons.items()}
    if lessons:
        here = _layout.folder(course, language)
        chapters = [(lesson, lessons.get(lesson),
                     _exercises_of(course, language, lesson, released))
                    for lesson in _layout.lessons(course)]
        found[here / START] = start_page(_layout.language_file(course, language)["start"],
                                         here, chapters)
    return found


def skeleton(nb: dict) -> dict:
    """``nb`` without what running it changes: its outputs and execution counts."""
    bare = copy.deepcopy(nb)
    for cell in bare["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return bare


def _run(nb: dict, path: Path) -> dict:
    """``nb`` run top to bottom in ``path``'s folder (where nbval and JupyterLab run it), from
    a file beside it: a run that fails leaves ``path`` as it was, and ``build`` tries again."""
    running = path.with_name(f".{path.stem}.running.ipynb")
    running.write_text(dump(nb), encoding="utf-8")
    try:
        subprocess.run(["flock", EXECUTION_LOCK, sys.executable, "-m", "nbconvert", "--to",
                        "notebook", "--execute", "--inplace",
                        "--ExecutePreprocessor.timeout=600", running.name],
                       cwd=path.parent, check=True)
        return load(running)
    finally:
        running.unlink()


def _coalesced(outputs: list[dict]) -> list[dict]:
    """Consecutive prints to one stream as one output, as the English lessons store them
    (the kernel sends them in chunks as they come; nbval joins them before comparing)."""
    joined = []
    for output in outputs:
        if joined and output["output_type"] == "stream" == joined[-1]["output_type"] \
                and output["name"] == joined[-1]["name"]:
            text = "".join(joined[-1]["text"]) + "".join(output["text"])
            joined[-1] = {**joined[-1], "text": text.splitlines(keepends=True)}
        else:
            joined.append(output)
    return joined


def _with_outputs(nb: dict, ran: dict) -> dict:
    """``nb`` with the outputs and execution counts of ``ran``, cell by cell (same ids)."""
    results = {c["id"]: c for c in ran["cells"] if c["cell_type"] == "code"}
    fresh = copy.deepcopy(nb)
    for cell in fresh["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = _coalesced(results[cell["id"]]["outputs"])
            cell["execution_count"] = results[cell["id"]]["execution_count"]
    return fresh


def build(course: Course, language: str, everything: bool = False,
          only: tuple[str, ...] = ()) -> list[Path]:
    """Write and run each translated lesson that differs from what it should be, or all of
    them with ``everything``; only the lessons whose stems ``only`` names, if any; the
    lessons written."""
    written = []
    for path, nb in expected(course, language).items():
        if only and path.stem not in only:
            continue
        if not everything and path.exists() and skeleton(load(path)) == skeleton(nb):
            continue
        ran = _run(nb, path) if any(c["cell_type"] == "code" for c in nb["cells"]) else nb
        path.write_text(dump(_with_outputs(nb, ran)), encoding="utf-8")
        written.append(path)
    return written
