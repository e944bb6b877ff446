"""Catalogues on disk: gettext ``.po`` files, read and written with ``babel.messages.pofile``.

Babel does all of it but the previous msgid (the ``#| msgid`` lines msgmerge
writes above a fuzzy entry, which translators' tools show as a diff): babel
2.19 wraps them at 76 columns as a comment, inside string literals, and reads
them back as translator comments, one per line, merging equal neighbours (two
blank lines become one). So they are written here, in GNU's layout, and read
back from one comment: each entry's ``#|`` lines joined before babel sees them.

Writing is deterministic: no line wrapping (one Markdown line, one PO line),
the header's dates kept as read, entries in the order given.
"""

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import normalize, read_po, unescape, write_po

__all__ = ["dumps", "loads", "message", "new", "read", "write"]

# Babel flags any text with a % or a {} as a format string. Markdown is not one (its
# context is a bare cell id); a printed template (context ``<cell id>:say``) is a {} one.
_FORMAT_FLAGS = {"python-format", "python-brace-format"}
_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
_PREVIOUS_CONTINUED = re.compile(r'\n#\| (?=")')  # a ``#| "..."`` line, not ``#| msgid``


_HEADER = """\
# The {language} text of course/{lesson}.ipynb: one entry per Markdown cell (msgctxt:
# the cell id; msgid: its English source). Written by `python -m grader.translation
# update`, which keeps every translation; an entry marked fuzzy awaits a look at its
# English cell's change (the #| lines: what it was). Translators may add # comments."""


def new(language: str, lesson: str) -> Catalog:
    """An empty catalogue for ``lesson`` (its stem) in ``language`` (``zh-CN``)."""
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    return Catalog(locale=language.replace("-", "_"), project="Tensor Anatomy",
                   version=lesson, fuzzy=False, creation_date=now, revision_date=now,
                   header_comment=_HEADER.format(language=language, lesson=lesson),
                   last_translator="Tensor Anatomy", language_team=language)


def _without_format_flags(message: Message) -> Message:
    say = (message.context or "").endswith(":say")  # not ``<cell id>:<name>.__doc__``
    message.flags -= {"python-format"} if say else _FORMAT_FLAGS
    return message


def message(context: str, msgid: str, msgstr: str = "", *, fuzzy: bool = False,
            previous: str | None = None, comments: list[str] | None = None) -> Message:
    """One entry, flagged only as said."""
    return _without_format_flags(Message(
        msgid, msgstr, flags=["fuzzy"] if fuzzy else [], user_comments=comments or [],
        previous_id=[previous] if previous is not None else [], context=context))


def _previous(comments: list[str]) -> tuple[str | None, list[str]]:
    """The previous msgid (babel keeps its joined line as a comment ``| msgid ...``), and
    the other comments."""
    line = next((c for c in comments if c.startswith("| msgid ")), None)
    if line is None:
        return None, comments
    literals = _LITERAL.findall(line.removeprefix("| msgid "))
    return "".join(unescape(literal) for literal in literals), [c for c in comments if c != line]


def _with_previous_ids(catalog: Catalog) -> Catalog:
    for entry in [*catalog, *catalog.obsolete.values()]:
        if entry.id:
            previous, entry.user_comments = _previous(entry.user_comments)
            entry.previous_id = [previous] if previous is not None else []
            _without_format_flags(entry)
    return catalog


def loads(text: str) -> Catalog:
    joined = _PREVIOUS_CONTINUED.sub(" ", text)
    return _with_previous_ids(read_po(io.StringIO(joined), locale=None, abort_invalid=True))


def read(path: Path) -> Catalog:
    return loads(path.read_text(encoding="utf-8"))


def _previous_lines(entry: Message) -> str:
    return f"#| msgid {normalize(entry.previous_id[0], prefix='#| ', width=0)}\n"


def dumps(catalog: Catalog) -> str:
    """The ``.po`` text; a fuzzy entry's previous msgid just above its msgctxt, as GNU does."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_previous=False, no_location=True)
    text = buffer.getvalue().decode("utf-8")
    for entry in catalog:
        if entry.id and entry.previous_id:  # (context, msgid) is unique in a catalogue
            block = (f"\nmsgctxt {normalize(entry.context, width=0)}\n"
                     f"msgid {normalize(entry.id, width=0)}\n")
            text = text.replace(block, "\n" + _previous_lines(entry) + block[1:], 1)
    return text


def write(catalog: Catalog, path: Path) -> bool:
    """Write ``catalog`` at ``path`` if its text changed; whether it did."""
    text = dumps(catalog)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True
