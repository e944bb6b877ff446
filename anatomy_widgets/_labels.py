"""Text that fits its box: a width estimate, the largest font that fits, or a shorter text.

The pictures name a monospace font (DejaVu Sans Mono first), whose every glyph,
digits, arrows and ``…`` included, advances 0.602 em; 0.62 leaves a margin for a
fallback font. A Chinese character (from a fallback font: DejaVu has none) is as wide as
two of them, so widths count ``columns``, not characters. A label that cannot be read at
``MIN_FONT`` is not drawn at all: its cell's ``<title>`` (a hover tooltip, and what a
screen reader says) carries it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ._language import columns

__all__ = [
    "CHAR_EM", "MIN_FONT", "PAD", "columns", "text_width", "fit_font", "fit_text", "box_for",
    "centred_text",
]  # fmt: skip

CHAR_EM = 0.62
MIN_FONT = 7  # px; smaller digits are a blur on a 96 dpi screen
PAD = 2  # px kept clear on each side of a label inside its box


def text_width(text: str, font: int) -> float:
    """Estimated width in px of ``text`` at ``font`` px in the pictures' monospace font."""
    return columns(text) * CHAR_EM * font


@lru_cache(maxsize=1024)
def fit_font(length: int, width: int, height: int, largest: int = 12) -> int:
    """The largest font (≤ ``largest``) at which ``length`` characters fit a box; 0 if none
    readable (at least ``MIN_FONT``) does."""
    inner_w, inner_h = width - 2 * PAD, height - 2 * PAD
    font = min(largest, inner_h, math.floor(inner_w / (CHAR_EM * max(length, 1))))
    return font if font >= MIN_FONT else 0


def fit_text(text: str, width: int, height: int, largest: int = 12) -> tuple[str, int]:
    """``text`` at the largest font that fits, or cut short with ``…`` at ``MIN_FONT``.

    Only for words, never for numbers: a cut number would read as another number.
    """
    font = fit_font(columns(text), width, height, largest)
    if font:
        return text, font
    keep = math.floor((width - 2 * PAD) / (CHAR_EM * MIN_FONT)) - 1  # columns
    if keep <= 0:
        return "", 0
    cut = used = 0
    for character in text:
        used += columns(character)
        if used > keep:
            break
        cut += 1
    return text[:cut] + "…", MIN_FONT


def box_for(length: int, largest_box: int) -> int:
    """The smallest square box where ``length`` characters are readable (≤ ``largest_box``)."""
    needed = math.ceil(length * CHAR_EM * MIN_FONT) + 2 * PAD
    return min(max(needed, MIN_FONT + 2 * PAD), largest_box)


def centred_text(x: int, y: int, size: int, digits: str, ink: str) -> str:
    """A number centred in the ``size``-px square at (x, y), or "" when it cannot be read there.

    Up to 4096 calls a redraw: digits need no escaping, and the font is cached per length.
    """
    font = fit_font(len(digits), size, size)
    if not font:
        return ""
    return (
        f'<text x="{x + size // 2}" y="{y + size // 2 + font * 35 // 100}" font-size="{font}" '
        f'text-anchor="middle" fill="{ink}">{digits}</text>'
    )
