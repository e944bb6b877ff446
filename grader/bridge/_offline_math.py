"""Maths in an exported page that renders without the internet.

nbconvert's HTML loads MathJax from a CDN, so a feedback page read offline shows
raw ``$$…$$``. ``MathAsMathML`` writes each formula of a markdown cell as
MathML instead (``latex2mathml``), which browsers draw natively, with no script.
Code (fenced blocks, inline code) is left alone: a ``$`` there is not maths.
"""

import re

from latex2mathml.converter import convert
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

__all__ = ["MathAsMathML", "markdown_with_mathml"]

# Code first (left as it is), then $$display$$, then $inline$ (not "$ 5", not "\$").
_PIECES = re.compile(
    r"(?P<code>```.*?```|~~~.*?~~~|`[^`\n]+`)"
    r"|\$\$(?P<display>.+?)\$\$"
    r"|(?<![\\$])\$(?P<inline>[^$\s](?:[^$\n]*?[^$\s\\])?)\$(?!\$)",
    re.S)


def _mathml(latex: str, display: str) -> str:
    try:
        return convert(latex.strip(), display=display)
    except Exception:  # noqa: BLE001 - a formula it cannot read stays as written
        return None


def _replace(match: re.Match) -> str:
    if match.group("code") is not None:
        return match.group(0)
    display = match.group("display") is not None
    latex = match.group("display") if display else match.group("inline")
    mathml = _mathml(latex, "block" if display else "inline")
    if mathml is None:
        return match.group(0)
    # A blank line around a display formula keeps it a block of its own in markdown.
    return f"\n\n{mathml}\n\n" if display else mathml


def markdown_with_mathml(source: str) -> str:
    """``source`` with each formula outside code written as MathML."""
    return _PIECES.sub(_replace, source)


class MathAsMathML(Preprocessor):
    """Every markdown cell's maths as MathML: the exported page needs no MathJax."""

    enabled = Bool(True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            cell.source = markdown_with_mathml(cell.source)
        return cell, resources
