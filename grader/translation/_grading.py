"""The grading commands' catalogue: what they write for a student, one file per language.

``grader/locale/<language>.po`` (read by ``grader._language``; not in the student
edition: nothing there grades) holds one entry per English string that the grading
code passes to ``localized(text, context, language)`` or marks with
``marked(text, context)``, both literals: msgctxt the context ("verdict", "feedback",
"page", "validate"), msgid the English. ``lines`` finds them by reading the code
(``ast``), nothing listed by hand, so a new string is missing until translated and a
changed one stale (``tests/translation/test_grading_language.py``); ``update`` merges them as the
runtime catalogue's (``_merge.merged_lines``: no translation is ever lost).

Two more contexts hold what the judge says in English and a feedback page or
``validate`` shows a student of another language (``grader.bridge._verdict_text``):
"hidden-check", each hidden check's description (the first line of its docstring in
``grader/hidden/<chapter>/test.py``, as ``grader.judge._plugin`` reads it; found here by
``ast``, nothing imported), and "misconception", each named wrong answer's name
(``grader.hidden.wrong_answers.mistake_name`` of each of its answer cells). Only this
instructor-side tool reads them; the catalogue is read where a page or ``validate``
is written, never by the judge or in the student's process.

The widgets' and the public checks' words are the other runtime catalogue's
(``_runtime``, ``translate``/``english``): those run in the student's kernel.
"""

import ast
from pathlib import Path

from babel.messages.catalog import Catalog

from grader._course import Course

from . import _merge, _pofile, _runtime
from ._catalogue import Problems, keyed_problems
from ._catalogue import keyed as translations  # (context, English) → its entry

__all__ = ["MARKERS", "catalogue_path", "found_in", "lines", "new", "problems",
           "translations", "update"]

MARKERS = ("localized", "marked")  # grader._language's: (text, context, ...)
HIDDEN_CHECK, MISCONCEPTION = "hidden-check", "misconception"  # _verdict_text's contexts

_HEADER = """\
# The {language} words of the grading commands for students: feedback pages (verdicts,
# the structure note, the page's labels) and `python -m grader validate` (grader._language).
# One entry per English string the code passes to localized(text, context, language) or
# marks with marked(text, context); msgctxt the context. Written by `python -m
# grader.translation update`, which keeps every translation; an entry marked fuzzy is not
# shown until a translator clears it (the #| lines: its old English). Keep each {{field}}
# of the English as it is. Then the judge's own words: msgctxt "hidden-check", each hidden
# check's description (its docstring's first line, grader/hidden/<chapter>/test.py), and
# "misconception", each named wrong answer's name (grader/hidden/<chapter>/wrong_answers.py)."""


def found_in(source: str) -> list[tuple[str, str]]:
    """``(context, English)`` of each ``localized``/``marked`` call with literal text and
    context in ``source``, in the order written (read as the runtime catalogue's are)."""
    return _runtime.found_in(source, MARKERS)


def check_descriptions(source: str) -> list[str]:
    """The description of each hidden check (a ``test*`` function) defined in ``source``:
    the first line of its docstring, stripped, as ``grader.judge._plugin`` shows it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.name.startswith("test"):
            doc = ast.get_docstring(node, clean=False)
            if doc and doc.strip():
                found.append((node.lineno, doc.strip().splitlines()[0]))
    return [description for _, description in sorted(found)]


def misconceptions(root: Path) -> list[str]:
    """The name of each named wrong answer (``grader.hidden.wrong_answers``), chapter by
    chapter in the course's order: what a verdict's "Looks like: ..." line may show."""
    from grader.hidden.wrong_answers import named_wrong_answers  # instructor code, no torch

    return [name for assignment in Course(root).assignments()
            for answers in named_wrong_answers(assignment).values() for name, _ in answers]


def lines(root: Path) -> list[tuple[str, str]]:
    """Every string of the grading code under ``root / "grader"``: ``(context, English)``,
    each once, in path order; then each hidden check's description and each named wrong
    answer's name."""
    found = []
    for path in sorted((root / "grader").rglob("*.py")):
        found += found_in(path.read_text(encoding="utf-8"))
    for assignment in Course(root).assignments():  # in the course's order, as before
        path = root / "grader" / "hidden" / assignment.split("_", 1)[-1] / "test.py"
        found += [(HIDDEN_CHECK, text)
                  for text in check_descriptions(path.read_text(encoding="utf-8"))]
    found += [(MISCONCEPTION, name) for name in misconceptions(root)]
    return list(dict.fromkeys(found))


def catalogue_path(course: Course, language: str) -> Path:
    return course.root / "grader" / "locale" / f"{language}.po"


def new(language: str) -> Catalog:
    catalog = _pofile.new(language, "grading")
    catalog.header_comment = _HEADER.format(language=language)
    return catalog


def _read(course: Course, language: str) -> Catalog:
    path = catalogue_path(course, language)
    return _pofile.read(path) if path.exists() else new(language)


def problems(course: Course, language: str) -> Problems:
    """What keeps the grading catalogue of ``language`` from translating the code as it is."""
    return keyed_problems(lines(course.root), translations(_read(course, language)))


def update(course: Course, language: str) -> list[Path]:
    """Merge the code's strings into ``grader/locale/<language>.po``; the path if written."""
    path = catalogue_path(course, language)
    return [path] if _pofile.write(_merge.merged_lines(lines(course.root),
                                                       _read(course, language)), path) else []
