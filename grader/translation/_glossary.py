"""The glossary's rule: a listed English term never stands untranslated in the prose.

Prose is a Markdown cell less its code (fenced blocks and code spans), its maths
(``$...$``, ``$$...$$``) and its link targets: there English is the code's and
stays. One exception: the English right after its Chinese form in full-width
parentheses, ``步长（stride）``, the gloss a textbook gives a term where a
lesson introduces it, at most once per lesson (``glosses`` counts them).

Words are told apart by ASCII letters only: Python's ``\\b`` sees a Chinese
character as part of a word, so it would miss the ``stride`` in ``的stride``.
"""

import re
from collections import Counter

__all__ = ["glosses", "prose", "untranslated"]

_CODE_BLOCK = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\s).+?(?<![\s\\])\$", re.S)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def prose(markdown: str) -> str:
    """``markdown`` less code, maths and link targets (each replaced by a space)."""
    for pattern in (_CODE_BLOCK, _CODE_SPAN, _MATH, _LINK_TARGET):
        markdown = pattern.sub(" ", markdown)
    return markdown


def _forms(english: str) -> str:
    """A regex for ``english`` and its inflections (copy, copies, copied; view, views)."""
    if english.endswith("y"):
        return re.escape(english[:-1]) + r"(?:y|ies|ied|ying)"
    return re.escape(english) + r"(?:s|es|ed|d|ing)?"


def _word(english: str) -> str:
    return rf"(?<![A-Za-z_]){_forms(english)}(?![A-Za-z_])"


def _gloss(english: str, chinese: str) -> re.Pattern:
    return re.compile(rf"{re.escape(chinese)}（{_word(english)}）", re.I)


def untranslated(markdown: str, glossary: dict[str, str]) -> list[str]:
    """Each English term of ``glossary`` (English → Chinese) in the prose of ``markdown``,
    as written there, in order; a gloss ``中文（English）`` is not one."""
    text = prose(markdown)
    for english, chinese in glossary.items():
        text = _gloss(english, chinese).sub(chinese, text)
    found = []
    for english in glossary:
        found += [(m.start(), m[0]) for m in re.finditer(_word(english), text, re.I)]
    return [word for _, word in sorted(found)]


def glosses(markdown: str, glossary: dict[str, str]) -> Counter:
    """English term → how many glosses ``中文（English）`` of it ``markdown``'s prose has."""
    text = prose(markdown)
    return Counter({english: n for english, chinese in glossary.items()
                    if (n := len(_gloss(english, chinese).findall(text)))})
