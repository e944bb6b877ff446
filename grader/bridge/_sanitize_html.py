"""Nothing a student wrote runs in the page that shows it.

A student's Markdown cell (raw HTML, a ``javascript:`` link) and a cell's rich
outputs reach two pages: the formgrader's view of the autograded notebook, which
the instructor opens with a session that may write files and start kernels, and
the student's feedback page. nbconvert passes both to the browser as they are.

* ``clean_html``: nh3 (ammonia) with an allow-list: the lessons' formatting
  (headings, lists, tables, code, images), nbconvert's code highlighting classes
  and heading anchors, and the MathML our feedback pages draw maths with; no
  script, style, event handler, frame or form; links to ``http(s)``, ``mailto``
  or this page's ``#anchors`` only; images from ``http(s)`` or a ``data:image``
  URL, at most ``DATA_BUDGET`` characters of ``data:`` per call (per cell).
  It replaces nbconvert's ``clean_html`` filter, which the templates apply to
  HTML and Markdown outputs once ``sanitize_html`` is on, and runs after each
  Markdown cell is rendered (``markdown2html``: nbgrader's ``formgrade`` and
  ``feedback`` templates render cells without ``clean_html``) (``SAFE_PAGE``).
  It must run on the rendered HTML, never on Markdown source:
  Markdown inside a raw HTML block is left raw, so no splitting of the source
  into code, maths and prose can tell what the browser will get.
* ``SanitizeOutputs``: a cell's outputs keep text, PNG and JPEG; HTML and
  Markdown go through ``clean_html``; JavaScript, widgets, SVG and every other
  type are dropped (the templates write them unsanitized).
"""

import functools
import re

import jinja2
import nh3
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown import markdown2html as _plain_markdown2html
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

__all__ = ["DATA_BUDGET", "SAFE_PAGE", "SanitizeOutputs", "clean_html", "markdown2html"]

# A small screenshot fits; a 50 MB image does not reach any page.
DATA_BUDGET = 512 * 1024

_MATHML = {"math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "mfrac", "msqrt", "mroot",
           "msub", "msup", "msubsup", "munder", "mover", "munderover", "mtable", "mtr", "mtd",
           "mstyle", "mpadded", "mphantom", "menclose", "semantics", "annotation"}
_TAGS = nh3.ALLOWED_TAGS | _MATHML
_ATTRIBUTES = {
    **{tag: set(names) for tag, names in nh3.ALLOWED_ATTRIBUTES.items()},
    # Classes only style (highlighting, MathML's own); ids only on headings, for anchors.
    "*": {"class", "title"},
    **{f"h{level}": {"id"} for level in range(1, 7)},
    "math": {"display", "xmlns"},
    "mo": {"stretchy", "fence", "separator", "lspace", "rspace", "largeop", "movablelimits"},
    "mstyle": {"displaystyle", "scriptlevel"},
    "mtable": {"columnalign", "rowspacing", "columnspacing"},
    "mspace": {"width"},
    "mpadded": {"width", "lspace", "voffset"},
    "menclose": {"notation"},
    "annotation": {"encoding"},
}
_WEB = re.compile(r"(?i)^(https?:|mailto:)")
_DATA_IMAGE = re.compile(r"(?i)^data:image/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$")

# nbconvert's templates clean with the filter named clean_html once sanitize_html is on.
SAFE_PAGE = {"sanitize_html": True,
             "filters": {name: f"grader.bridge._sanitize_html.{name}"
                         for name in ("clean_html", "markdown2html")}}


def _same_page(url: str) -> str | None:
    """A relative URL is kept only as an anchor in this page: a relative link is served
    by the formgrader from the student's own autograded folder, where they put files."""
    return url if url.startswith("#") else None


def _url_filter():
    """nh3's attribute filter for one call: web links, and ``data:`` images within budget."""
    spent = 0

    def keep(tag: str, attribute: str, value: str) -> str | None:
        nonlocal spent
        if attribute not in ("href", "src") or value.startswith("#") or _WEB.match(value):
            return value
        if tag == "img" and attribute == "src" and _DATA_IMAGE.match(value) \
                and spent + len(value) <= DATA_BUDGET:
            spent += len(value)
            return value
        return None

    return keep


def clean_html(html) -> str:
    """``html`` with only what the allow-list keeps (see the module's docstring)."""
    if isinstance(html, bytes):  # nbconvert's SVG block hands bytes
        html = html.decode("utf-8", "replace")
    return nh3.clean(str(html), tags=_TAGS, attributes=_ATTRIBUTES,
                     url_schemes={"http", "https", "mailto", "data"},
                     url_relative=_same_page, attribute_filter=_url_filter(),
                     strip_comments=True)


@functools.cache
def _renderer() -> HTMLExporter:
    return HTMLExporter()


@jinja2.pass_context
def markdown2html(context, source: str) -> str:
    """nbconvert's rendering of a Markdown cell (its attachments, anchors), then ``clean_html``."""
    return clean_html(_renderer().markdown2html(context, source))


_KEPT_AS_IS = {"text/plain", "image/png", "image/jpeg"}


def _bounded_image(value) -> bool:
    return len(value if isinstance(value, str) else "".join(value)) <= DATA_BUDGET


def safe_data(data: dict) -> dict:
    """A display's data, keeping only what no page runs."""
    kept = {}
    for mime, value in data.items():
        text = value if isinstance(value, str) else "".join(value)
        if mime == "text/plain" or (mime in _KEPT_AS_IS and _bounded_image(value)):
            kept[mime] = value
        elif mime == "text/html":
            kept[mime] = clean_html(text)
        elif mime == "text/markdown":  # rendered here: Markdown shown as HTML, cleaned
            kept["text/html"] = clean_html(_plain_markdown2html(text))
    return kept


class SanitizeOutputs(Preprocessor):
    """Every output of every cell keeps only text, bounded images and cleaned HTML.

    In the autograded notebook (after ``JudgeHiddenChecks``, whose outputs are text)
    and first in the feedback pipeline, before our own trusted pictures are added.
    """

    enabled = Bool(True)

    def preprocess_cell(self, cell, resources, index):
        for output in cell.get("outputs", []):
            if "data" in output:
                output["data"] = safe_data(output["data"])
        return cell, resources
