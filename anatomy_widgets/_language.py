"""The language a student's kernel speaks, and the course's runtime text in it.

Student side (the edition ships it): the standard library only, so the public checks
(and the judge, which imports them) can translate without loading a widget.

``language()`` is ``"zh-CN"`` or ``"en"``: ``$TENSOR_ANATOMY_LANG`` if set, else the
language folder the kernel runs in. nbval, nbconvert and JupyterLab start a kernel in
its notebook's folder, and translated notebooks live in one named for their language
(``course/zh-CN/``, ``exercises/zh-CN/<assignment>/``), so the folder or one of its
parents named ``zh-CN`` means Chinese. Languages are the catalogues in ``locale/``.

``translate(text, context)`` is the translation of English runtime text, or ``text``
itself (English, or a string no catalogue has: it never fails). Two kinds of catalogue,
gettext ``.po`` files, read once each, when first needed:

    anatomy_widgets/locale/zh-CN.po   the widgets' and the public checks' words, with
                                      msgctxt ``context`` ("memory", "checks", ...)
    course/zh-CN/po/<lesson>.po       the lessons; context ``"say"`` is their printed
                                      templates (msgctxt ``<cell id>:say``): ``say()``

An entry marked fuzzy (its English changed since it was translated) is not used: the
English is shown until a translator clears it, as gettext's ``msgfmt`` does.

The width of text is one rule for every caller, the widgets' labels and the grader's
tables and templates alike (``is_wide``, ``columns``, ``written_without_spaces``).
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import cache
from pathlib import Path

__all__ = ["ENGLISH", "ENVIRONMENT", "SAY", "columns", "english", "is_wide", "language",
           "languages", "read_po", "say", "translate", "words", "written_without_spaces"]

ENVIRONMENT = "TENSOR_ANATOMY_LANG"
ENGLISH = "en"
SAY = "say"  # the context of the lessons' printed templates
_LOCALE = Path(__file__).resolve().with_name("locale")
_COURSE = _LOCALE.parents[1] / "course"  # beside the package, in a clone and in the edition


@cache
def languages() -> tuple[str, ...]:
    """English, then each language with a runtime catalogue (``locale/<language>.po``)."""
    return (ENGLISH, *sorted(path.stem for path in _LOCALE.glob("*.po")))


def _named(setting: str) -> str:
    """The language ``setting`` names (``zh-CN``, ``zh_cn``, ...); English if none."""
    known = {name.lower().replace("_", "-"): name for name in languages()}
    return known.get(setting.strip().lower().replace("_", "-"), ENGLISH)


def language() -> str:
    """The language to speak now: ``$TENSOR_ANATOMY_LANG``, else the folder the process
    runs in (or a parent) named for a language, else English. Read at each call (a
    kernel may ``os.chdir``): the environment and the folder's name, a microsecond."""
    setting = os.environ.get(ENVIRONMENT)
    if setting:
        return _named(setting)
    try:
        here = os.getcwd()
    except OSError:  # the folder was deleted under the process
        return ENGLISH
    return _folder_language(here)


@cache
def _folder_language(here: str) -> str:
    """The language a folder (or a parent) is named for. Cached per folder name: a judge
    translates thousands of phrases per notebook, and walking the path each time cost
    33 µs a call, 0.12 s of a chapter-3 notebook's 1.2 s."""
    others = languages()[1:]
    folders = (Path(here), *Path(here).parents)
    return next((folder.name for folder in folders if folder.name in others), ENGLISH)


# --- the width of text ---------------------------------------------------------------------

def is_wide(char: str) -> bool:
    """Whether ``char`` takes two columns of a monospace font: Unicode's East Asian Width
    W or F (UAX #11), i.e. every CJK ideograph (extensions included), hiragana, katakana,
    hangul, and the full-width forms and ideographic punctuation (，：（）。「」); half-width
    katakana (ｱ) and half-width forms take one."""
    return unicodedata.east_asian_width(char) in "WF"


def columns(text: str) -> int:
    """Monospace columns ``text`` takes: two for a wide character (``is_wide``), one for any
    other."""
    if text.isascii():  # English: every label of the English pictures, at no cost
        return len(text)
    return sum(2 if is_wide(c) else 1 for c in text)


def written_without_spaces(char: str) -> bool:
    """Whether ``char`` belongs to writing that puts no space between words: a wide
    character (Chinese, Japanese, full-width punctuation), except hangul, since Korean
    separates its words with spaces."""
    return is_wide(char) and not unicodedata.name(char, "").startswith("HANGUL")


# --- catalogues ---------------------------------------------------------------------------

_ESCAPE = re.compile(r'\\([\\trn"])')
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r"}


def _unquoted(literal: str) -> str:
    """A PO string literal's text (babel's ``unescape``: ``\\n \\t \\r \\" \\\\``)."""
    return _ESCAPE.sub(lambda m: _ESCAPED.get(m[1], m[1]), literal.strip()[1:-1])


def read_po(text: str) -> list[tuple[str | None, str, str, bool]]:
    """``(msgctxt, msgid, msgstr, fuzzy)`` of each active entry of a ``.po`` file's text, the
    header and obsolete (``#~``) entries left out; no plural forms (the course has none)."""
    entries, fields, fuzzy, key = [], {}, False, None

    def close() -> None:
        nonlocal fields, fuzzy, key
        if fields.get("msgid"):
            entries.append((fields.get("msgctxt"), fields["msgid"], fields.get("msgstr", ""),
                            fuzzy))
        fields, fuzzy, key = {}, False, None

    for line in text.splitlines():
        if not line.strip():
            close()
        elif line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line
        elif line.startswith("#"):
            continue  # comments, previous msgids (#|), obsolete entries (#~)
        elif line.startswith('"'):
            if key is not None:
                fields[key] += _unquoted(line)
        else:
            keyword, _, literal = line.partition(" ")
            if keyword == "msgctxt" and fields or keyword == "msgid" and "msgid" in fields:
                close()  # an entry without the blank line before it
            key = keyword
            fields[key] = _unquoted(literal)
    close()
    return entries


def _read(path: Path) -> list[tuple[str | None, str, str, bool]]:
    try:
        return read_po(path.read_text(encoding="utf-8"))
    except OSError:
        return []


@cache
def _runtime(lang: str) -> dict[str | None, dict[str, str]]:
    """context → {English: translation} of ``locale/<lang>.po``."""
    table: dict[str | None, dict[str, str]] = {}
    for context, english, translated, fuzzy in _read(_LOCALE / f"{lang}.po"):
        if translated and not fuzzy:
            table.setdefault(context, {})[english] = translated
    return table


@cache
def _said(lang: str) -> dict[str, str]:
    """template → translation, from every lesson catalogue's ``<cell id>:say`` entries: the
    kernel does not know which cell (or lesson) is running, so the template alone finds it."""
    table = {}
    for path in sorted((_COURSE / lang / "po").glob("*.po")):
        for context, english, translated, fuzzy in _read(path):
            if context and context.endswith(f":{SAY}") and translated and not fuzzy:
                table.setdefault(english, translated)
    return table


def translate(text: str, context: str, lang: str | None = None) -> str:
    """``text`` (English runtime text of ``context``) in ``lang`` (default: ``language()``);
    ``text`` itself in English or where no catalogue translates it.

    Callers pass literals (``translate("saved {name}", "autograd").format(name=...)``):
    the test that every English runtime string has a translation finds them by that.
    """
    lang = lang or language()
    if lang == ENGLISH:
        return text
    table = _said(lang) if context == SAY else _runtime(lang).get(context, {})
    return table.get(text, text)


def english(text: str, context: str) -> str:
    """``text`` itself: marks English runtime text kept in a table (a dict of labels) that is
    translated where it is shown, ``translate(TABLE[key], context)`` (gettext's
    ``gettext_noop``); the catalogue's tools find it by this call, as they find
    ``translate``'s literals."""
    return text


def words(template: str, **values) -> str:
    """``template.format(**values)``, the template translated if the kernel speaks another
    language (a lesson's printed template: its catalogue's ``<cell id>:say`` entry)."""
    return translate(template, SAY).format(**values)


def say(template: str, **values) -> None:
    """Print ``words(template, **values)``: a lesson's conclusion in the reader's language.

    ``template`` is a literal with ``{fields}`` (``say("took {ms:.1f} ms", ms=...)``);
    choosing between sentences stays in the lesson's code, one literal for each.
    """
    print(words(template, **values))
