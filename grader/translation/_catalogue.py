"""What a lesson has to translate, and what its catalogue lacks.

One entry per Markdown cell with text: msgctxt the cell id (nbformat 4.5 ids
are unique and stable, so an entry survives cells moving), msgid the cell's
English source, msgstr its translation. The navigation cell is not among
them: the generator writes it (``_generate``), since its links depend on the
folder and on which translated lessons exist.
"""

from dataclasses import dataclass

from babel.messages.catalog import Catalog, Message

from grader._navigation import NAVIGATION_ID

__all__ = ["Problems", "problems", "source", "translatable", "translations"]


def source(cell: dict) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def translatable(nb: dict) -> dict[str, str]:
    """cell id → English source, for each Markdown cell to translate, in notebook order."""
    return {cell["id"]: source(cell) for cell in nb["cells"]
            if cell["cell_type"] == "markdown" and source(cell).strip()
            and cell["id"] != NAVIGATION_ID}


def translations(catalog: Catalog) -> dict[str, Message]:
    """cell id → its active entry (a babel ``Message``); the header is none."""
    return {m.context: m for m in catalog if m.id and m.context}


@dataclass(frozen=True)
class Problems:
    """Cell ids whose entry is empty (missing), translates another English text or is
    marked fuzzy (stale), or names no cell (orphan)."""

    missing: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    orphan: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.missing or self.stale or self.orphan)

    def __str__(self) -> str:
        kinds = [f"{len(ids)} {kind} ({', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''})"
                 for kind, ids in vars(self).items() if ids]
        return "; ".join(kinds) or "complete"


def problems(nb: dict, catalog: Catalog) -> Problems:
    """What keeps ``catalog`` from translating ``nb`` as it is now."""
    cells, entries = translatable(nb), translations(catalog)
    missing = [i for i in cells if i not in entries or not entries[i].string]
    stale = [i for i in cells if i in entries and entries[i].string
             and (entries[i].id != cells[i] or entries[i].fuzzy)]
    orphan = [i for i in entries if i not in cells]
    return Problems(tuple(missing), tuple(stale), tuple(orphan))
