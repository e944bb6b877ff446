"""Collecting hand-ins that students wrote, trusting nothing in them.

``SafeCollect`` replaces nbgrader's exchange collect (``c.ExchangeFactory.collect``):
a submission folder counts only if it belongs to the student it names, nothing in it
that is not a plain file of theirs is ever followed or read, and its time is what the
student cannot set back.
"""

from ._exchange import SafeCollect
from ._zip_extract import SafeZipExtractor  # zip_collect (an LMS zip)
from ._zip_names import LmsNameCollector

__all__ = ["LmsNameCollector", "SafeCollect", "SafeZipExtractor"]
