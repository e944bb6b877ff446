"""A feedback page's verdicts, rendered from the data in each test cell.

The autograded notebook keeps each test cell's verdict as data (``grader._verdict``);
its English lines there are for the instructor in the formgrader, and nothing reads
them back. ``VerdictsOnThePage`` (after nbgrader's ``GetGrades``, which puts the
gradebook's score in each graded cell's metadata) writes every test cell's outputs
anew from that data: the verdict in the language the student worked in
(``_feedback_language.language_of``), with the gradebook's score, and where an
instructor changed the autograded score in the formgrader, from what; and that score
as the cell's result.
"""

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from grader import _notebook
from grader._verdict import verdict_of
from grader.bridge._feedback_language import language_of
from grader.bridge._verdict_text import verdict_outputs

__all__ = ["VerdictsOnThePage"]


class VerdictsOnThePage(Preprocessor):
    """Every judged test cell: its verdict in the student's language, the gradebook's score."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        language = language_of(nb)
        for name, cell in _notebook.exercise_cells(nb).items():
            verdict = verdict_of(cell)
            if verdict is None:  # unjudged: ``missing_verdicts`` fails the grading run
                self.log.warning("test cell %s carries no verdict", name)
                continue
            given = _notebook.nbgrader_metadata(cell).get("score")
            cell.outputs = verdict_outputs(verdict, language,
                                           None if given is None else float(given))
        return nb, resources
