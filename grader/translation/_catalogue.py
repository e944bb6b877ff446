"""What a lesson has to translate, and what its catalogue lacks.

One entry per Markdown cell with text: msgctxt the cell id (nbformat 4.5 ids
are unique and stable, so an entry survives cells moving), msgid the cell's
English source, msgstr its translation. The navigation cell is not among
them: the generator writes it (``_generate``), since its links depend on the
folder and on which translated lessons exist.

And one entry per template a code cell prints through ``anatomy_widgets``' ``say`` or
``words`` (its literal first argument): msgctxt ``<cell id>:say``, msgid the template,
msgstr its translation with the same ``{fields}`` (``broken`` otherwise). The code
stays English; in a translated lesson's kernel ``say`` finds the translation by the
template alone (``anatomy_widgets._language``).
"""

import ast
import string
from collections import Counter
from dataclasses import dataclass

from babel.messages.catalog import Catalog, Message

from grader._navigation import NAVIGATION_ID
from grader._notebook import source

__all__ = ["Problems", "SAYERS", "fields", "is_said", "keyed", "keyed_problems", "printed",
           "problems", "said", "say_context", "source", "templates", "translatable", "translations",
           "unliteral", "wanted"]

SAYERS = ("say", "words")  # anatomy_widgets' functions whose first argument is a template
_SAY = ":say"


def translatable(nb: dict) -> dict[str, str]:
    """cell id → English source, for each Markdown cell to translate, in notebook order."""
    return {cell["id"]: source(cell) for cell in nb["cells"]
            if cell["cell_type"] == "markdown" and source(cell).strip()
            and cell["id"] != NAVIGATION_ID}


def say_context(cell_id: str) -> str:
    return cell_id + _SAY


def is_said(message: Message) -> bool:
    """Whether ``message`` translates a printed template (else a Markdown cell)."""
    return bool(message.context) and message.context.endswith(_SAY)


def _python(cell: dict) -> ast.Module | None:
    """A code cell as Python (IPython's magics turned into calls), None if it is not."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(source(cell)))
    except SyntaxError:
        return None


def _say_calls(tree: ast.Module):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in SAYERS:
                yield node


def _code_cells(nb: dict):
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and (tree := _python(cell)) is not None:
            yield cell, tree


def templates(cell: dict) -> list[str]:
    """The templates a code cell prints (``say``/``words`` with a literal first argument),
    in the order they are written, each once."""
    tree = _python(cell) if cell["cell_type"] == "code" else None
    if tree is None:
        return []
    calls = sorted(_say_calls(tree), key=lambda c: (c.lineno, c.col_offset))
    found = [c.args[0].value for c in calls
             if isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)]
    return list(dict.fromkeys(found))


def printed(nb: dict) -> list[tuple[str, str]]:
    """``(<cell id>:say, template)`` of every printed template, in notebook order."""
    return [(say_context(cell["id"]), template) for cell in nb["cells"]
            for template in templates(cell)]


def unliteral(nb: dict) -> list[str]:
    """Cell ids with a ``say``/``words`` call whose template is no literal: no catalogue could
    hold its translation (an f-string there is a bug: its values belong in ``**values``)."""
    return [cell["id"] for cell, tree in _code_cells(nb)
            if any(not (isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str))
                   for c in _say_calls(tree))]


def wanted(nb: dict) -> list[tuple[str, str]]:
    """``(msgctxt, English)`` of every entry ``nb``'s catalogue holds, in notebook order: a
    Markdown cell's by its id, a code cell's templates by ``<cell id>:say``."""
    markdown = translatable(nb)
    found = []
    for cell in nb["cells"]:
        if cell.get("id") in markdown:
            found.append((cell["id"], markdown[cell["id"]]))
        elif cell["cell_type"] == "code":
            found += [(say_context(cell["id"]), t) for t in templates(cell)]
    return found


def translations(catalog: Catalog) -> dict[str, Message]:
    """cell id → its active entry (a babel ``Message``) of each Markdown cell; the header is
    none, nor a printed template (``said``)."""
    return {m.context: m for m in catalog if m.id and m.context and not is_said(m)}


def keyed(catalog: Catalog) -> dict[tuple[str, str], Message]:
    """``(context, English)`` → its active entry, for a catalogue of the code's strings
    (``_runtime``, ``_grading``), where one context holds many entries."""
    return {(m.context, m.id): m for m in catalog if m.id}


def said(catalog: Catalog) -> dict[tuple[str, str], Message]:
    """``(<cell id>:say, template)`` → its active entry."""
    return {(m.context, m.id): m for m in catalog if m.id and is_said(m)}


def fields(text: str) -> Counter | None:
    """The ``{fields}`` of a template, with their conversions and format specs (None when
    ``str.format`` cannot read it)."""
    try:
        return Counter((name, conversion, spec) for _, name, spec, conversion
                       in string.Formatter().parse(text) if name is not None)
    except ValueError:
        return None


@dataclass(frozen=True)
class Problems:
    """Cell ids whose entry is empty (missing), translates another English text or is
    marked fuzzy (stale), or names no cell (orphan); a printed template's entry is named
    ``<cell id>:say 'template'``, and is broken where its translation's ``{fields}`` are
    not the template's."""

    missing: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    orphan: tuple[str, ...] = ()
    broken: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.missing or self.stale or self.orphan)

    def __str__(self) -> str:
        kinds = [f"{len(ids)} {kind} ({', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''})"
                 for kind, ids in vars(self).items() if ids]
        return "; ".join(kinds) or "complete"


def _name(key: tuple[str, str]) -> str:
    return f"{key[0]} {key[1]!r}"


def keyed_problems(lines: list[tuple[str, str]], entries: dict) -> Problems:
    """What keeps ``entries`` ((context, English) → entry) from translating each of
    ``lines``: keyed by its English, a changed text is another entry."""
    missing = [_name(k) for k in lines if k not in entries or not entries[k].string]
    stale = [_name(k) for k in lines if k in entries and entries[k].string and entries[k].fuzzy]
    orphan = [_name(k) for k in entries if k not in set(lines)]
    broken = [_name(k) for k in lines if k in entries and entries[k].string
              and fields(entries[k].string) != fields(k[1])]
    return Problems(tuple(missing), tuple(stale), tuple(orphan), tuple(broken))


def problems(nb: dict, catalog: Catalog) -> Problems:
    """What keeps ``catalog`` from translating ``nb`` as it is now."""
    cells, entries = translatable(nb), translations(catalog)
    missing = [i for i in cells if i not in entries or not entries[i].string]
    stale = [i for i in cells if i in entries and entries[i].string
             and (entries[i].id != cells[i] or entries[i].fuzzy)]
    orphan = [i for i in entries if i not in cells]
    spoken = keyed_problems(printed(nb), said(catalog))
    return Problems(tuple(missing) + spoken.missing, tuple(stale) + spoken.stale,
                    tuple(orphan) + spoken.orphan, spoken.broken)
