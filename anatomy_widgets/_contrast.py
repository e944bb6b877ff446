"""Colours the widgets draw with, and the WCAG contrast of every text on them.

Text must keep a contrast of at least 4.5:1 with what is behind it (WCAG 2.x,
level AA for normal text). Ink is not chosen by eye: for each fill the darker or
lighter ink is picked by computing both ratios, so no shade of the palette can
fall between them (``tests/widgets/test_widget_layout.py`` checks every pair in use).
"""

from __future__ import annotations

__all__ = [
    "AA",
    "BACKGROUND",
    "INK",
    "ERROR_INK",
    "UNREAD",
    "UNREAD_INK",
    "relative_luminance",
    "contrast_ratio",
    "ink_on",
    "colour",
]

AA = 4.5
BACKGROUND = "#ffffff"  # each picture paints its own, so a dark theme cannot sit behind its text
INK = "#000000"
ERROR_INK = "#b00020"
UNREAD = "#eeeeee"  # a storage cell no drawn element reads
UNREAD_INK = "#595959"  # the lightest grey that keeps 4.5:1 on UNREAD is about #5e5e5e
_LIGHT_INK = "#ffffff"
_VIRIDIS = (
    (68, 1, 84), (71, 45, 123), (59, 82, 139), (44, 114, 142), (33, 145, 140),
    (40, 174, 128), (94, 201, 98), (173, 220, 48), (253, 231, 37),
)  # fmt: skip


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance of an sRGB colour such as ``"#1f3a93"`` (0 black, 1 white)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (none) to 21 (black on white); symmetric."""
    a, b = relative_luminance(foreground), relative_luminance(background)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (never below 4.58:1, where they tie)."""
    dark, light = contrast_ratio(INK, fill), contrast_ratio(_LIGHT_INK, fill)
    return INK if dark >= light else _LIGHT_INK


def _viridis(t: float) -> tuple[str, str]:
    scaled = t * (len(_VIRIDIS) - 1)
    low = min(int(scaled), len(_VIRIDIS) - 2)
    frac = scaled - low
    rgb = [round(a + (b - a) * frac) for a, b in zip(_VIRIDIS[low], _VIRIDIS[low + 1])]
    fill = "#{:02x}{:02x}{:02x}".format(*rgb)
    return fill, ink_on(fill)


# 256 shades are more than an eye tells apart; computing them once keeps redraws fast.
_PALETTE = tuple(_viridis(k / 255) for k in range(256))


def colour(rank: int, count: int) -> tuple[str, str]:
    """Fill and text colours for the ``rank``-th of ``count`` storage positions (viridis)."""
    return _PALETTE[rank * 255 // (count - 1) if count > 1 else 0]
