"""What both widgets share: reading shapes typed by a student, and the static fallback.

A widget's live view needs a running kernel and the widget manager. Everywhere
else (a stored notebook opened without trust, nbconvert HTML, GitHub, nbval) the
output's other mime types are what is shown or compared, so each widget also
emits a deterministic ``text/plain`` line and a ``text/html`` picture: the same
SVG, as an ``<img>`` data URI because notebook sanitizers strip inline ``<svg>``
but keep images.
"""

from __future__ import annotations

import base64
import re
from html import escape

from ._contrast import BACKGROUND, ERROR_INK, INK
from ._language import translate
from ._layout import new_meta

__all__ = [
    "parse_ints", "format_ints", "offered_strides", "info_html", "static_html", "StaticFallback",
]  # fmt: skip

_SEPARATORS = re.compile(r"[\s,]+")


def parse_ints(text: str, what: str) -> tuple[int, ...]:
    """``"3, 4"``, ``"(3, 4)"``, ``"3 4"`` or ``"[3,4]"`` → ``(3, 4)``; ``""`` → ``()``."""
    inner = text.strip().strip("()[]").strip()
    if not inner:
        return ()
    try:
        return tuple(int(part) for part in _SEPARATORS.split(inner) if part)
    except ValueError:
        raise ValueError(
            translate("{what}: expected whole numbers separated by commas, got {text!r}",
                      "widgets").format(what=what, text=text)
        ) from None


def format_ints(values) -> str:
    """The text a control shows for a tuple: ``(3, 4)`` → ``"3, 4"``, ``()`` → ``"()"``."""
    return ", ".join(str(v) for v in values) or "()"


def offered_strides(old_shape, new_shape, stride, strides_typed: bool) -> tuple[int, ...]:
    """The strides to show after the student typed ``new_shape`` in place of ``old_shape``.

    Strides the student typed themselves are kept while the rank stays (a narrower
    view with the same strides is worth seeing); otherwise a new shape comes with
    its contiguous strides (torch's), so it never leaves a stride list of the wrong length.
    """
    if strides_typed and len(new_shape) == len(old_shape) == len(stride):
        return tuple(stride)
    fresh = new_meta(new_shape)  # None past int64: strides 0, and torch refuses the layout
    return (0,) * len(new_shape) if fresh is None else tuple(fresh.stride())


def info_html(lines, error: str | None = None) -> str:
    """Explanations under a drawing; ``lines`` are plain text (escaped here)."""
    parts = [f'<div class="ta-line">{escape(line)}</div>' for line in lines]
    if error:
        parts.insert(0, f'<div class="ta-error" style="color:{ERROR_INK}">{escape(error)}</div>')
    # Own colours, not the theme's: contrast is checked against these two (4.5:1 or more).
    return (
        f'<div class="ta-info" style="font-family:monospace;font-size:12px;color:{INK};'
        f'background:{BACKGROUND}">' + "".join(parts) + "</div>"
    )


def static_html(svgs, info: str, alt: str) -> str:
    """The fallback picture: each SVG as an image, then the same explanations."""
    images = "".join(
        f'<img alt="{escape(alt)}" src="data:image/svg+xml;base64,'
        f'{base64.b64encode(svg.encode()).decode()}"/><br/>'
        for svg in svgs
    )
    return f'<div class="ta-static">{images}{info}</div>'


class StaticFallback:
    """Mixin for an ipywidgets container: adds text/plain and text/html to its output.

    The class needs ``__repr__`` (one informative, deterministic line) and
    ``static_html()``.
    """

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self.static_html()
        return bundle
