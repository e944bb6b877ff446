"""A student's id, name or file name is something a student typed: check it, then print it safely.

A student chooses their login's spelling, the folder name they hand in under, the name
on their LMS profile and the name of the file they upload. Each reaches the
instructor's terminal, spreadsheets and pages. Three rules, each where text leaves:

* ``id_problem``: an id is graded only if it is one plain token, the same after
  Unicode normalisation (NFKC), with no control, format or markup character, no
  leading formula sign, and letters of one script (``rt3аmy`` with a Cyrillic а is
  refused: it prints as ``rt3amy``). Refused ids cost only that submission.
* ``terminal_safe``: control and format characters shown as escapes (``\\x1b``), so a
  name cannot move the cursor, erase a row or hide itself.
* ``spreadsheet_cell``: a text cell that a spreadsheet would read as a formula gets a
  leading apostrophe (OWASP's rule for CSV injection).
"""

import unicodedata

__all__ = ["id_problem", "look_alike", "spreadsheet_cell", "terminal_safe"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # OWASP, CSV injection
MARKUP = set("<>&\"'`/\\")  # an id is also a folder name and a page's text
LONGEST_ID = 128


def _unsafe_character(char: str) -> bool:
    """Control (Cc), format (Cf: zero-width, bidi overrides), private, unassigned, surrogate."""
    return unicodedata.category(char).startswith("C")


def _script(char: str) -> str:
    """The script a letter is written in, as its Unicode name begins (LATIN, CYRILLIC...)."""
    if not char.isalpha():
        return ""
    return unicodedata.name(char, "UNKNOWN").split()[0]


def id_problem(student_id: str) -> str | None:
    """Why ``student_id`` cannot be graded, in a few words; None if it can."""
    if not student_id:
        return "the id is empty"
    if student_id != student_id.strip():
        return "the id starts or ends with a space"
    if len(student_id) > LONGEST_ID:
        return f"the id is longer than {LONGEST_ID} characters"
    if any(_unsafe_character(c) or c.isspace() for c in student_id):
        return "the id holds a space, control or invisible character"
    if student_id.startswith(FORMULA_STARTS):
        return "the id starts with a formula sign (= + - @)"
    if MARKUP & set(student_id):
        return "the id holds a markup or path character"
    if student_id in (".", ".."):  # a folder name meaning this folder or its parent
        return "the id is a path character (. or ..)"
    if unicodedata.normalize("NFKC", student_id) != student_id:
        return "the id is not in Unicode normal form (NFKC)"
    if len({_script(c) for c in student_id} - {""}) > 1:
        return "the id mixes letters of several scripts (a look-alike)"
    return None


# Letters of other scripts drawn like a Latin one (the commonest of Unicode's confusables,
# UTS #39): an id written wholly in one of those scripts passes id_problem, and must still
# print, and be flagged, as the Latin id it imitates.
_DRAWN_LATIN = str.maketrans(
    "аеорсухіјѕԁһӏԛԝВЕКМНОРСТХУАІЈЅ" "οαρνικτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlqwBEKMHOPCTXYAIJS" "oapvikTuxABEZHIKMNOPTYX")


def look_alike(student_id: str) -> str:
    """What ``student_id`` looks like: compatibility forms, case and letters drawn like Latin
    ones folded, so that two ids that print alike have the same key (``Ada``, ``ａｄａ``
    and a Cyrillic ``Аda``)."""
    return unicodedata.normalize("NFKC", student_id).translate(_DRAWN_LATIN).casefold()


def terminal_safe(text: str) -> str:
    """``text`` with each control or format character written as its escape."""
    return "".join(c.encode("unicode_escape").decode("ascii") if _unsafe_character(c) else c
                   for c in text)


def spreadsheet_cell(text: str) -> str:
    """A text cell as a spreadsheet should show it: never as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
