"""``update``: a catalogue brought up to date with its English lesson, as msgmerge would.

The one rule: no translation is ever lost. A cell whose English changed keeps
its translation, marked fuzzy, with the English it translated as previous
msgid (a second change keeps the first previous msgid: that is still what the
translation says). A new cell gets an empty entry, or the translation of an
entry with exactly its English whose cell is gone (a cell re-made under a new
id). Any other translated entry whose cell is gone becomes obsolete (``#~``),
kept for reuse; an obsolete entry whose cell comes back is active again.

A printed template's entry (msgctxt ``<cell id>:say``) is keyed by its English, so a
changed template is a new entry: it takes the translation of the most similar template
that its cell no longer prints (msgmerge's fuzzy match), marked fuzzy with that
template as previous msgid; else an exact template's settled translation from another
cell; else it starts empty.
"""

from difflib import SequenceMatcher

from babel.messages.catalog import Catalog, Message

from . import _pofile
from ._catalogue import is_said, printed, translatable, wanted

# How alike two templates must be (difflib's ratio) for one's translation to start the
# other's, fuzzy: about msgmerge's threshold; "took {ms} ms" and "took {s} s" are alike.
SIMILAR = 0.6

__all__ = ["merged", "merged_lines"]


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


def _markdown(nb: dict, every: list[Message], adopted: set) -> tuple[dict, list]:
    """cell id → its entry now, for each Markdown cell; and the entries of no cell."""
    cells = translatable(nb)
    known = {m.context: m for m in every if m.context}  # an active entry wins over a #~ one
    # Every entry that translates no cell now, a #~ one shadowed by an active one too.
    gone = [m for m in every if m.context not in cells or known[m.context] is not m]
    donors = _donors(gone)
    entries = {}
    for cell_id, english in cells.items():
        if cell_id in known:
            entry = _changed(known[cell_id], english)
        elif english in donors:
            donor = donors[english]
            adopted.add(id(donor))
            entry = _pofile.message(cell_id, english, donor.string, comments=donor.user_comments)
        else:
            entry = _pofile.message(cell_id, english)
        entries[cell_id] = entry
    return entries, gone


def _closest(context: str, template: str, gone: list[Message], adopted: set) -> Message | None:
    """The translated entry of ``context`` that prints no template now most like
    ``template``, if one is alike enough."""
    scored = [(SequenceMatcher(None, m.id, template).ratio(), -k, m) for k, m in enumerate(gone)
              if m.context == context and m.string and id(m) not in adopted]
    best = max(scored, key=lambda s: s[:2], default=None)
    return best[2] if best and best[0] >= SIMILAR else None


def _keyed(lines: list[tuple[str, str]], every: list[Message],
           adopted: set) -> tuple[dict, list]:
    """(context, English) → its entry now, for each of ``lines`` (a lesson's printed
    templates, or the runtime's words); and the entries of none of them."""
    known = {(m.context, m.id): m for m in every}  # an active entry wins over a #~ one
    gone = [m for m in every
            if (m.context, m.id) not in set(lines) or known[m.context, m.id] is not m]
    donors = _donors(gone)
    entries = {}
    for context, template in lines:
        if (context, template) in known:
            entry = known[context, template]
        elif (like := _closest(context, template, gone, adopted)) is not None:
            adopted.add(id(like))
            previous = like.previous_id[0] if like.fuzzy and like.previous_id else like.id
            entry = _pofile.message(context, template, like.string, fuzzy=True,
                                    previous=previous, comments=like.user_comments)
        elif template in donors:
            donor = donors[template]
            adopted.add(id(donor))
            entry = _pofile.message(context, template, donor.string,
                                    comments=donor.user_comments)
        else:
            entry = _pofile.message(context, template)
        entries[context, template] = entry
    return entries, gone


def merged(nb: dict, catalog: Catalog) -> Catalog:
    """``catalog`` with one entry per translatable cell and printed template of ``nb``, in
    notebook order."""
    every = [m for m in [*catalog.obsolete.values(), *catalog] if m.id]
    adopted = set()
    markdown, gone = _markdown(nb, [m for m in every if not is_said(m)], adopted)
    spoken, unsaid = _keyed(printed(nb), [m for m in every if is_said(m)], adopted)
    fresh = _empty_like(catalog)
    for context, english in wanted(nb):
        entry = spoken[context, english] if (context, english) in spoken else markdown[context]
        fresh[entry.id] = entry
    for entry in [*gone, *unsaid]:
        if entry.string and id(entry) not in adopted:
            fresh.obsolete[(entry.id, entry.context)] = entry
    return fresh


def merged_lines(lines: list[tuple[str, str]], catalog: Catalog) -> Catalog:
    """``catalog`` with one entry per ``(context, English)`` of ``lines``, in their order:
    the runtime catalogue (``_runtime``), merged as a lesson's templates are."""
    every = [m for m in [*catalog.obsolete.values(), *catalog] if m.id]
    adopted = set()
    entries, gone = _keyed(lines, every, adopted)
    fresh = _empty_like(catalog)
    for key in lines:
        fresh[entries[key].id] = entries[key]
    for entry in gone:
        if entry.string and id(entry) not in adopted:
            fresh.obsolete[(entry.id, entry.context)] = entry
    return fresh
