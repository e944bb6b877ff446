"""Answers other than the solution, put into a notebook: a judge's tests and the
grading runs' tests (translated, replayed, misconceptions) build their students so."""

import copy
import importlib


def with_answers(nb: dict, answers: dict[str, str]) -> dict:
    """``nb`` with the solution cell of each named exercise replaced."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if grade_id.removesuffix("_answer") in answers and grade_id.endswith("_answer"):
            cell["source"] = answers[grade_id.removesuffix("_answer")]
    return nb


def wrong_answers(assignment: str) -> dict[str, list[str]]:
    """The named wrong answers of ``assignment``'s chapter (grader/hidden/<chapter>/)."""
    chapter = assignment.split("_", 1)[1]
    return importlib.import_module(f"grader.hidden.{chapter}.wrong_answers").WRONG_ANSWERS
