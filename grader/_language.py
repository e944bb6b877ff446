"""The language the grading commands speak to a student, and their words in it.

The instructor-side twin of ``anatomy_widgets._language`` (the student's kernel): the
same languages and the same setting, ``$TENSOR_ANATOMY_LANG``. What the grading
commands write for a student (a feedback page's verdicts and notes,
``python -m grader validate``'s lines and points table) passes its English through
``localized(text, context, language)`` with literals, or is marked where it is kept in
a constant with ``marked(text, context)`` (gettext's ``gettext_noop``). Their
translations are ``grader/locale/<language>.po`` (msgctxt the context: "verdict",
"feedback", "validate"; "hidden-check" and "misconception" for the judge's descriptions
and mistakes' names, ``grader.bridge._verdict_text``), which the student edition does
not ship: none of it runs there. ``python -m grader.translation update`` writes it from these calls
(``grader.translation._grading``), and a test fails on a string without its
translation.

Which languages there are is read from the catalogues, never listed by hand, and asked
here alone, by a name that says which catalogue answers it (a language comes into being
with ``python -m grader.translation update --language L``, which starts each of them):

    grading_languages()          grader/locale/<language>.po: what validate and the
                                 feedback pages can speak (``named``)
    lesson_languages(course)     course/<language>/po/: the lessons to translate and build
    exercise_languages(course)   exercises/<language>/po/: the releases to translate
    anatomy_widgets._language.languages()
                                 anatomy_widgets/locale/<language>.po: what a student's
                                 kernel can speak (it runs there, so it stays there)

The language of a submission is read from the notebook itself (``notebook_language``):
the release whose text the submission's cells share, the metadata the release writes
where the cells cannot tell.
"""

import json
from functools import cache
from pathlib import Path

from anatomy_widgets._language import ENGLISH, ENVIRONMENT, read_po
from grader import _notebook

__all__ = ["ENGLISH", "ENVIRONMENT", "KEY", "exercise_languages", "grading_languages",
           "lesson_languages", "localized", "marked", "named", "notebook_language", "releases"]

KEY = "tensor_anatomy"  # the notebook metadata a translated release writes: {"language": ...}
_LOCALE = Path(__file__).resolve().with_name("locale")


@cache
def grading_languages() -> tuple[str, ...]:
    """English, then each language with a catalogue (``grader/locale/<language>.po``)."""
    return (ENGLISH, *sorted(path.stem for path in _LOCALE.glob("*.po")))


def _with_catalogue_folders(folder: Path) -> list[str]:
    return sorted(p.parent.name for p in folder.glob("*/po") if p.is_dir())


def lesson_languages(course) -> list[str]:
    """The languages with lesson catalogues (``course/<language>/po``), e.g. ``["zh-CN"]``."""
    return _with_catalogue_folders(course.root / "course")


def exercise_languages(course) -> list[str]:
    """The languages with exercise catalogues (``exercises/<language>/po``)."""
    return _with_catalogue_folders(course.root / "exercises")


def named(setting: str | None) -> str | None:
    """The language ``setting`` names (``zh-CN``, ``zh_cn``), if it names one."""
    known = {name.lower().replace("_", "-"): name for name in grading_languages()}
    return known.get((setting or "").strip().lower().replace("_", "-"))


@cache
def _catalogue(language: str) -> dict[tuple[str | None, str], str]:
    """(context, English) → translation, of ``grader/locale/<language>.po``; a fuzzy entry
    is not used (the English shows until a translator clears it, as ``msgfmt`` does)."""
    try:
        text = (_LOCALE / f"{language}.po").read_text(encoding="utf-8")
    except OSError:
        return {}
    return {(context, english): translated
            for context, english, translated, fuzzy in read_po(text)
            if translated and not fuzzy}


def localized(text: str, context: str, language: str) -> str:
    """``text`` (English, of ``context``) in ``language``; ``text`` itself in English or
    where the catalogue has no translation. Callers pass literals, or constants
    ``marked`` where they are defined: the catalogue's tools find them by that."""
    if language == ENGLISH:
        return text
    return _catalogue(language).get((context, text), text)


def marked(text: str, context: str) -> str:
    """``text`` itself: English kept in a constant, translated where it is shown with
    ``localized(CONSTANT, context, language)``."""
    return text


# --- which language a notebook is in -----------------------------------------------

def _told(nb: dict) -> str | None:
    meta = nb.get("metadata")
    told = meta.get(KEY) if isinstance(meta, dict) else None
    return told.get("language") if isinstance(told, dict) else None


def notebook_language(nb: dict, releases: dict[str, dict]) -> str:
    """The language of a submission ``nb``: of the releases (language → released notebook),
    the one whose cells it holds most of as released (same id and text; only the cells
    the languages write differently count); where the cells cannot tell (none kept, or a
    tie), the language its metadata names, if released; else English."""
    texts = {lang: {c.get("id"): _notebook.source(c) for c in release.get("cells", [])}
             for lang, release in releases.items()}
    ids = set.intersection(*(set(t) for t in texts.values())) if texts else set()
    differing = {i for i in ids if len({t[i] for t in texts.values()}) > 1}
    kept = dict.fromkeys(releases, 0)
    for cell in nb.get("cells", []):
        if isinstance(cell, dict) and cell.get("id") in differing:
            for lang in releases:
                kept[lang] += texts[lang][cell["id"]] == _notebook.source(cell)
    most = max(kept.values(), default=0)
    leaders = [lang for lang, count in kept.items() if count == most]
    told = _told(nb)
    if len(leaders) == 1 and most:
        return leaders[0]
    if told in (leaders if most else releases):
        return told
    return ENGLISH


def releases(course, assignment: str) -> dict[str, dict]:
    """language → the released notebook of ``assignment`` in it: ``exercises/`` in English,
    ``exercises/<language>/`` in each other (its language as its metadata says)."""
    def load(path: Path) -> dict:
        return json.loads(path.read_text(encoding="utf-8"))

    found = {ENGLISH: load(course.release_notebook(assignment))}
    for path in course.translated_release_notebooks(assignment):
        nb = load(path)
        found[_told(nb) or path.parents[1].name] = nb
    return found
