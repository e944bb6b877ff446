"""Images a student embedded in Markdown, bounded before any page or notebook keeps them.

A ``data:`` URL or a cell attachment is written whole into the autograded notebook,
then into the feedback page and the formgrader's: a 50 MB image in one Markdown
cell made each of them 50 MB. ``BoundEmbeddedData`` keeps, per Markdown or raw
cell, embedded data up to ``DATA_BUDGET`` characters in all (``data:`` URLs in
the order written, then attachments); the rest is removed, and so is every
reference to an attachment the cell no longer holds (nbconvert stops the whole
page at a missing one).
"""

import re

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from grader import _notebook
from grader.bridge._sanitize_html import DATA_BUDGET

__all__ = ["BoundEmbeddedData", "bounded_source"]

# A data: URL ends where Markdown or HTML would end it: a quote, bracket, space or '>'.
_DATA_URL = re.compile(r"(?i)data:[^\s\"'()<>]*")
_ATTACHMENT = re.compile(r"attachment:([^\s\"'()<>]*)")


def bounded_source(source: str, budget: int = DATA_BUDGET) -> tuple[str, int]:
    """``source`` with the ``data:`` URLs past ``budget`` removed, and what is left of it."""
    def keep_or_drop(match: re.Match) -> str:
        nonlocal budget
        if len(match.group(0)) <= budget:
            budget -= len(match.group(0))
            return match.group(0)
        return ""

    return _DATA_URL.sub(keep_or_drop, source), budget


def _attachment_size(bundle) -> int:
    if not isinstance(bundle, dict):
        return DATA_BUDGET + 1  # not what nbformat allows: never kept
    return sum(len(v if isinstance(v, str) else "".join(map(str, v))) for v in bundle.values())


def _bounded_attachments(attachments, budget: int) -> dict:
    kept = {}
    for name, bundle in (attachments or {}).items() if isinstance(attachments, dict) else ():
        size = _attachment_size(bundle)
        if size <= budget:
            kept[name], budget = bundle, budget - size
    return kept


class BoundEmbeddedData(Preprocessor):
    """Each Markdown or raw cell keeps at most ``DATA_BUDGET`` characters of embedded data."""

    enabled = Bool(True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type not in ("markdown", "raw"):
            return cell, resources
        text = _notebook.source(cell)
        text, left = bounded_source(text)
        kept = _bounded_attachments(cell.get("attachments"), left)
        cell.pop("attachments", None)
        if kept:
            cell["attachments"] = kept
        cell.source = _ATTACHMENT.sub(
            lambda m: m.group(0) if m.group(1) in kept else "", text)
        return cell, resources
