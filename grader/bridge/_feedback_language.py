"""A feedback page in the language the student worked in.

nbgrader grades every submission in the English release's shape: it puts back the
locked cells from the gradebook, and the verdicts' text there is English, for the
instructor in the formgrader. So the autograded notebook is English whatever the
student read. ``RestoreStructure`` records the submission's language in the
autograded notebook's metadata (``grader._language.notebook_language``: the release
whose text the submission's cells hold), and for a language other than English the
feedback is turned back into it:

* ``InStudentLanguage`` (a feedback preprocessor, before ``MathAsMathML``) puts back
  each Markdown cell of the release in that language (same cell ids; a Markdown answer
  is the student's and stays) and writes the structure note from the changes it keeps
  (``_structure.note_in_language``);
* ``_feedback_verdict.VerdictsOnThePage`` writes each test cell's verdict from its data
  in that language;
* ``page_in_language`` (``FeedbackExporter``, after nbconvert renders the page) writes
  the labels of nbgrader's feedback template in that language, and the page's
  ``lang``.

An English submission's page is left exactly as it was. Nothing is added that the
student was not given: the Markdown comes from their own language's release, and
every verdict line says what the English line says.
"""

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from anatomy_widgets._language import is_wide
from grader import _language, _notebook
from grader._course import Course
from grader._language import ENGLISH, KEY, localized, marked
from grader.bridge._structure import NOTE_ID, note_in_language

__all__ = ["InStudentLanguage", "language_of", "page_in_language", "with_language"]


def language_of(nb) -> str:
    """The language an autograded notebook's student worked in (English if unrecorded)."""
    told = nb.get("metadata", {}).get(KEY, {})
    return _language.named(told.get("language")) or ENGLISH if isinstance(told, dict) \
        else ENGLISH


def with_language(nb: dict, language: str) -> dict:
    """``nb`` (a restored submission) recording ``language`` for its feedback page; an
    English one unchanged."""
    if language != ENGLISH:
        meta = nb.setdefault("metadata", {})
        meta[KEY] = {**meta.get(KEY, {}), "language": language}
    return nb


def _is_answer(cell) -> bool:
    return bool(_notebook.nbgrader_metadata(cell).get("solution"))


class InStudentLanguage(Preprocessor):
    """The page's Markdown and structure note in the student's language."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        language = language_of(nb)
        if language == ENGLISH:
            return nb, resources
        assignment = resources["nbgrader"]["assignment"]
        release = _language.releases(Course.find(), assignment).get(language)
        given = {c.get("id"): c for c in (release or {}).get("cells", [])
                 if c.get("cell_type") == "markdown"}
        for cell in nb.cells:
            if cell.get("id") == NOTE_ID:
                cell.source = note_in_language(cell, language)
            elif cell.cell_type == "markdown" and cell.get("id") in given \
                    and not _is_answer(cell):
                cell.source = _notebook.source(given[cell.id])
        return nb, resources


# The labels nbgrader's feedback template writes (nbgrader/server_extensions/formgrader/
# templates/feedback/index.html.j2), each as the page holds it: HTML text between tags.
_LABELS = (marked("Student's answer", "page"), marked("Test cell", "page"),
           marked("(Top)", "page"), marked("Comments:", "page"),
           marked("Late submission penalty", "page"))
_SCORE = marked("Score:", "page")  # "(Score: 2.0 / 2.0)", "Score: 2.0 / 2.0 <a ..."
_GRADE_CELL = marked("Grade cell:", "page")


def _before_a_value(label: str, language: str) -> str:
    """``label`` (it ends in a colon) translated, with the space English puts after it; a
    full-width colon (``得分：``) has its own."""
    said = localized(label, "page", language)
    return said if is_wide(said[-1]) else said + " "


def page_in_language(html: str, language: str) -> str:
    """A feedback page rendered by nbgrader's template, its labels in ``language``."""
    if language == ENGLISH:
        return html
    for label in _LABELS:  # as a tag's whole text, or before its score: "... penalty (Score:"
        said = localized(label, "page", language)
        html = html.replace(f">{label}<", f">{said}<").replace(f">{label} (", f">{said} (")
    score = _before_a_value(_SCORE, language)
    html = html.replace(f"({_SCORE} ", f"({score}").replace(f"\n      {_SCORE} ",
                                                            f"\n      {score}")
    html = html.replace(f'"nbgrader-label">{_GRADE_CELL} ',
                        f'"nbgrader-label">{_before_a_value(_GRADE_CELL, language)}')
    return html.replace("<html>", f'<html lang="{language}">', 1)
