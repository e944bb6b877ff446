"""The runtime catalogue: the widgets' and the public checks' words, one file per language.

``anatomy_widgets/locale/<language>.po`` (the student edition ships it; the kernel reads
it with ``anatomy_widgets._language``) holds one entry per English string that the code
passes to ``translate(text, context)`` or marks with ``english(text, context)``, both
literals: msgctxt the context ("memory", "broadcast", "autograd", "widgets", "checks"),
msgid the English. ``lines`` finds them by reading the code (``ast``), nothing listed by
hand, so a new message is missing until translated, and a changed one stale
(``tests/translation/test_translation.py``); ``update`` merges them as a lesson's printed
templates are (``_merge.merged_lines``: no translation is ever lost).
"""

import ast
from pathlib import Path

from babel.messages.catalog import Catalog

from grader._course import Course

from . import _pofile
from ._catalogue import Problems, keyed_problems
from ._catalogue import keyed as translations  # (context, English) → its entry

__all__ = ["MARKERS", "SOURCES", "catalogue_path", "found_in", "lines", "new", "problems",
           "translations"]

SOURCES = ("anatomy_widgets", "grader")  # every module under them, in path order
MARKERS = ("translate", "english")  # anatomy_widgets._language's: (text, context, ...)

_HEADER = """\
# The {language} words of the widgets and of the public checks' messages
# (anatomy_widgets._language): one entry per English string the code passes to
# translate(text, context) or marks with english(text, context); msgctxt the context.
# Written by `python -m grader.translation update`, which keeps every translation; an
# entry marked fuzzy is not shown until a translator clears it (the #| lines: its old
# English). Keep each {{field}} of the English as it is."""


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def found_in(source: str, markers: tuple[str, ...] = MARKERS) -> list[tuple[str, str]]:
    """``(context, English)`` of each call of one of ``markers`` (``translate``/``english``)
    with literal text and context in ``source``, in the order written."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        keywords = {k.arg: k.value for k in node.keywords}
        text = _literal(node.args[0]) if node.args else _literal(keywords.get("text"))
        context = _literal(node.args[1]) if len(node.args) > 1 else \
            _literal(keywords.get("context"))
        if name in markers and text is not None and context is not None:
            found.append((node.lineno, node.col_offset, context, text))
    return [(context, text) for *_, context, text in sorted(found)]


def lines(root: Path) -> list[tuple[str, str]]:
    """Every runtime string of the code under ``root``: ``(context, English)``, each once."""
    found = []
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            found += found_in(path.read_text(encoding="utf-8"))
    return list(dict.fromkeys(found))


def catalogue_path(course: Course, language: str) -> Path:
    return course.root / "anatomy_widgets" / "locale" / f"{language}.po"


def new(language: str) -> Catalog:
    catalog = _pofile.new(language, "runtime")
    catalog.header_comment = _HEADER.format(language=language)
    return catalog


def problems(course: Course, language: str) -> Problems:
    """What keeps the runtime catalogue of ``language`` from translating the code as it is."""
    path = catalogue_path(course, language)
    catalog = _pofile.read(path) if path.exists() else new(language)
    return keyed_problems(lines(course.root), translations(catalog))
