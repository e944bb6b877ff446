"""``update``: a catalogue brought up to date with its English lesson, as msgmerge would.

The one rule: no translation is ever lost. A cell whose English changed keeps
its translation, marked fuzzy, with the English it translated as previous
msgid (a second change keeps the first previous msgid: that is still what the
translation says). A new cell gets an empty entry, or the translation of an
entry with exactly its English whose cell is gone (a cell re-made under a new
id). Any other translated entry whose cell is gone becomes obsolete (``#~``),
kept for reuse; an obsolete entry whose cell comes back is active again.
"""

from babel.messages.catalog import Catalog, Message

from . import _pofile
from ._catalogue import translatable

__all__ = ["merged"]


def _changed(entry: Message, english: str) -> Message:
    """``entry`` for a cell whose English is now ``english``."""
    if entry.id == english:
        return entry
    if not entry.string:
        return _pofile.message(entry.context, english, comments=entry.user_comments)
    previous = entry.previous_id[0] if entry.fuzzy and entry.previous_id else entry.id
    return _pofile.message(entry.context, english, entry.string, fuzzy=True,
                           previous=previous, comments=entry.user_comments)


def _donors(entries: list[Message]) -> dict[str, Message]:
    """English source → a settled translation of it (the first), for re-keyed cells."""
    found = {}
    for entry in entries:
        if entry.string and not entry.fuzzy:
            found.setdefault(entry.id, entry)
    return found


def _empty_like(catalog: Catalog) -> Catalog:
    """A catalogue with ``catalog``'s header and no entry."""
    fresh = Catalog(locale=catalog.locale, header_comment=catalog.header_comment, fuzzy=False)
    fresh.mime_headers = catalog.mime_headers
    return fresh


def merged(nb: dict, catalog: Catalog) -> Catalog:
    """``catalog`` with one entry per translatable cell of ``nb``, in notebook order."""
    cells = translatable(nb)
    every = [m for m in [*catalog.obsolete.values(), *catalog] if m.id]
    known = {m.context: m for m in every if m.context}  # an active entry wins over a #~ one
    # Every entry that translates no cell now, a #~ one shadowed by an active one too.
    gone = [m for m in every if m.context not in cells or known[m.context] is not m]
    donors = _donors(gone)
    fresh, adopted = _empty_like(catalog), set()
    for cell_id, english in cells.items():
        if cell_id in known:
            entry = _changed(known[cell_id], english)
        elif english in donors:
            donor = donors[english]
            adopted.add(id(donor))
            entry = _pofile.message(cell_id, english, donor.string, comments=donor.user_comments)
        else:
            entry = _pofile.message(cell_id, english)
        fresh[entry.id] = entry
    for entry in gone:
        if entry.string and id(entry) not in adopted:
            fresh.obsolete[(entry.id, entry.context)] = entry
    return fresh
