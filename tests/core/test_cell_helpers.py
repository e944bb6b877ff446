"""A cell's source and its nbgrader metadata have one reader each (``grader._notebook``)."""

import ast
from pathlib import Path

import pytest
from support import ROOT

from grader._notebook import nbgrader_metadata, source


@pytest.mark.parametrize("cell, text", [
    ({"source": ["a = 1\n", "b = 2"]}, "a = 1\nb = 2"),  # as a notebook file keeps it
    ({"source": "a = 1"}, "a = 1"),                      # as nbformat gives it
    ({}, ""),
])
def test_a_cells_source_is_one_string(cell, text):
    assert source(cell) == text


def test_a_cells_nbgrader_metadata_is_a_dict():
    assert nbgrader_metadata({"metadata": {"nbgrader": {"grade_id": "f"}}}) == {"grade_id": "f"}
    assert nbgrader_metadata({"metadata": {}}) == nbgrader_metadata({}) == {}


def _own_copies(path: Path) -> list[str]:
    """``"".join(...source...)`` and ``.get("nbgrader", ...)`` written out in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        text = ast.unparse(node) if isinstance(node, ast.Call) else ""
        if text.startswith("''.join(") and "source" in text or \
                ".get('nbgrader'" in text and not text.startswith(("{", "[")):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}  {text[:70]}")
    return found


# Modules that ask another question of a submitted cell, and so read it themselves.
OTHER_QUESTIONS = {
    "grader/_notebook.py": "the helpers themselves",
    "grader/bridge/_structure.py": "is the nbgrader metadata present, absent or forged?",
    "grader/batch/_triage.py": "are the source and the metadata of the types nbformat allows?",
}


def test_no_other_module_keeps_its_own_copy():
    """Before: fourteen modules joined a cell's source or dug out its nbgrader metadata
    themselves, in four spellings (issue 32)."""
    copies = [line for path in sorted((ROOT / "grader").rglob("*.py"))
              if str(path.relative_to(ROOT)) not in OTHER_QUESTIONS
              for line in _own_copies(path)]
    assert not copies, "use grader._notebook.source / nbgrader_metadata:\n" + "\n".join(copies)
