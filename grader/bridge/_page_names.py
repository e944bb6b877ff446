"""A student's name on the formgrader's page is text, never markup.

The formgrader renders a submission through nbconvert's HTML exporter, whose
``formgrade`` template writes ``resources.first_name``, ``last_name`` and
``student`` into the page unescaped. Names come from a roster or an LMS, where a
student may have typed them, and from the gradebook, which the formgrader and
``nbgrader db`` edit at any time: so they are escaped where the page is made,
whenever that is, and the page shows each name exactly as it was typed. (The
formgrader's other pages insert names with jQuery's ``.text``: already text.)
"""

import html

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

__all__ = ["NamesAsText"]

NAMED = ("first_name", "last_name", "student")


class NamesAsText(Preprocessor):
    """The page's student names and id, HTML-escaped (configured on ``HTMLExporter``)."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        for key in NAMED:
            if isinstance(resources.get(key), str):
                resources[key] = html.escape(resources[key])
        return nb, resources
