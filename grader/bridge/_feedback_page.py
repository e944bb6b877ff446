"""The feedback page: nbconvert's HTML exporter, as nbgrader's ``GenerateFeedback`` uses it.

Every Markdown cell and HTML output goes through ``clean_html`` (``_sanitize_html``);
the page's labels are written in the student's language (``_feedback_language``).

Every picture on the page has alternative text in that language. nbconvert's
``HTMLExporter`` gives each image without any a generic English one by parsing the
rendered page again with BeautifulSoup (and gives JupyterLab's cells a tabindex,
which nbgrader's classic-based template has none of). That pass was a fifth of
nbgrader's lane under cProfile (30 pages of some 1,850 tags each); without it, ``make
bench``'s feedback phase took 0.19 core-seconds per notebook instead of 0.30. Here the
words come with the data instead: ``DescribedPictures`` gives each picture output
its own (``DrawFailingInputs`` writes what it drew) or the page's "no description",
which the template ``templates/feedback_page.html.j2`` writes as ``alt``; an image in a
Markdown cell without ``alt`` gets the same words, from that cell's HTML alone.
"""

import functools
from pathlib import Path

import jinja2
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter, TemplateExporter
from nbconvert.exporters.html import WidgetsDataTypeFilter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Dict, default

from grader._language import localized, marked
from grader.bridge._sanitize_html import SAFE_PAGE, markdown2html

__all__ = ["DescribedPictures", "FeedbackExporter", "NO_DESCRIPTION"]

# nbconvert's words for an image without alternative text.
NO_DESCRIPTION = marked("No description has been provided for this image", "page")
_PICTURES = {"image/svg+xml", "image/png", "image/jpeg"}  # the outputs drawn as <img>
_TEMPLATES = Path(__file__).with_name("templates")


def _language(nb) -> str:
    from grader.bridge._feedback_language import language_of

    return language_of(nb)


class DescribedPictures(Preprocessor):
    """Every picture output keeps its alternative text, or gets the page's "no description"."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        words = localized(NO_DESCRIPTION, "page", _language(nb))
        for cell in nb.cells:
            for output in cell.get("outputs", []):
                for mime in _PICTURES & set(output.get("data", {})):
                    told = output.setdefault("metadata", {}).setdefault(mime, {})
                    if not isinstance(told.get("alt"), str) or not told["alt"].strip():
                        told["alt"] = words
        return nb, resources


def _with_alt(html: str, words: str) -> str:
    """``html`` (a cleaned fragment), each ``img`` without ``alt`` given ``words``."""
    if "<img" not in html:  # most cells: nothing to parse
        return html
    soup = BeautifulSoup(html, "html.parser")
    for image in soup.select("img:not([alt])"):
        image["alt"] = words
    return str(soup)


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates, kept for the life of the process.

    Jinja checks each one against its template's source before use, so an
    edited template is compiled again.
    """

    def __init__(self):
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED_TEMPLATES = _CompiledTemplates()


class FeedbackExporter(HTMLExporter):
    """nbconvert's HTML exporter with nbgrader's feedback template, compiling its templates
    once per process, not per notebook; the page's labels in the student's language
    (``_feedback_language``), every picture described (see the module's docstring).

    The exporter rebuilds its Jinja environment for every notebook (it registers
    filters per notebook), so each feedback page compiled nine templates anew.
    """

    sanitize_html = Bool(SAFE_PAGE["sanitize_html"]).tag(config=True)
    filters = Dict(SAFE_PAGE["filters"]).tag(config=True)

    @default("extra_loaders")
    def _our_templates(self):
        return [jinja2.FileSystemLoader(_TEMPLATES)]

    @default("template_file")
    def _our_page(self):
        return "feedback_page.html.j2"  # it extends the template named (nbgrader's)

    def _create_environment(self):
        environment = super()._create_environment()
        environment.bytecode_cache = _COMPILED_TEMPLATES
        return environment

    def from_notebook_node(self, nb, resources=None, **kw):
        """The page as ``HTMLExporter`` renders it (the two filters it registers per
        notebook, nbconvert 7.17), less its BeautifulSoup pass over the whole page."""
        from grader.bridge._feedback_language import page_in_language

        language = _language(nb)
        code = nb.metadata.get("language_info", {})  # the kernel's, for highlighting
        self.register_filter("highlight_code", self.filters.get("highlight_code", Highlight2HTML(
            pygments_lexer=code.get("pygments_lexer", code.get("name")), parent=self)))
        resources = self._init_resources(resources)
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources))
        self.register_filter("markdown2html", _described_markdown(
            localized(NO_DESCRIPTION, "page", language)))
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        return page_in_language(html, language), resources


@functools.cache
def _described_markdown(words: str):
    """The safe ``markdown2html`` filter, each image it renders without ``alt`` given ``words``."""

    @jinja2.pass_context
    def described(context, source: str) -> str:
        return _with_alt(markdown2html(context, source), words)

    return described
