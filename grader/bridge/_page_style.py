"""Feedback pages whose long lines wrap instead of running off the page.

A verdict line names an input and both results; nbconvert's classic template
shows outputs in a ``<pre>`` that clips it at the page's edge. ``WrapLongLines``
(after nbconvert's ``CSSHTMLHeaderPreprocessor``, which starts the page's list
of inline styles) adds one rule: output text wraps, keeping its indentation.
"""

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

__all__ = ["WRAP_OUTPUTS", "WrapLongLines"]

WRAP_OUTPUTS = ".output_text pre, .output_subarea pre " \
               "{ white-space: pre-wrap; overflow-wrap: anywhere; }"


class WrapLongLines(Preprocessor):
    """The page's outputs wrap at its edge."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        resources.setdefault("inlining", {}).setdefault("css", []).append(WRAP_OUTPUTS)
        return nb, resources
