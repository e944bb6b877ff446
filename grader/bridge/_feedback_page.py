"""The feedback page: nbconvert's HTML exporter, as nbgrader's ``GenerateFeedback`` uses it.

Every Markdown cell and HTML output goes through ``clean_html`` (``_sanitize_html``);
the page's labels are written in the student's language (``_feedback_language``).
"""

import jinja2
from nbconvert.exporters import HTMLExporter
from traitlets import Bool, Dict

from grader.bridge._sanitize_html import SAFE_PAGE

__all__ = ["FeedbackExporter"]


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
    """nbconvert's HTML exporter, compiling its templates once per process, not per notebook;
    the page's labels in the student's language (``_feedback_language``).

    The exporter rebuilds its Jinja environment for every notebook (it registers
    filters per notebook), so each feedback page compiled nine templates anew.
    Every Markdown cell and HTML output goes through ``clean_html`` (``_sanitize_html``).
    """

    sanitize_html = Bool(SAFE_PAGE["sanitize_html"]).tag(config=True)
    filters = Dict(SAFE_PAGE["filters"]).tag(config=True)

    def _create_environment(self):
        environment = super()._create_environment()
        environment.bytecode_cache = _COMPILED_TEMPLATES
        return environment

    def from_notebook_node(self, nb, resources=None, **kw):
        from grader.bridge._feedback_language import language_of, page_in_language

        html, resources = super().from_notebook_node(nb, resources, **kw)
        return page_in_language(html, language_of(nb)), resources
