"""The feedback's verdict says the gradebook's points, manual changes included.

Autograding writes "→ 1 / 2 points" into a test cell. An instructor may change
that score in the formgrader afterwards; nbgrader's ``GetGrades`` then puts the
gradebook's score in the cell's metadata, and the page's header shows it, while
the verdict still said the autograded one. ``VerdictScoreFromGradebook`` (after
``GetGrades``) writes the gradebook's score into the verdict, and says when it
was changed.
"""

import re

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from grader import _notebook
from grader.bridge._verdict_text import CHANGED

__all__ = ["VerdictScoreFromGradebook", "with_score"]

_POINTS = re.compile(r"→ (?P<auto>[\d.]+) / (?P<max>[\d.]+) points(?: \(.*\))?$", re.M)


def with_score(text: str, score: float) -> str:
    """``text`` with its verdict's points set to ``score``."""
    def replace(match: re.Match) -> str:
        auto = float(match["auto"])
        said = f"→ {score:g} / {match['max']} points"
        return said if abs(auto - score) < 0.005 else said + CHANGED.format(auto=f"{auto:g}")
    return _POINTS.sub(replace, text, count=1)


class VerdictScoreFromGradebook(Preprocessor):
    """Every graded test cell's verdict and result: the gradebook's score."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        for cell in _notebook.exercise_cells(nb).values():
            score = cell.metadata.get("nbgrader", {}).get("score")
            if score is None:
                continue
            for output in cell.get("outputs", []):
                if output.get("output_type") == "stream":
                    output["text"] = with_score("".join(output["text"]), float(score))
                elif output.get("output_type") == "execute_result":
                    output.setdefault("data", {})["text/plain"] = f"{float(score):g}"
        return nb, resources
