"""A grading run's state stays with its run: the verdict store has one writer (issue 32,
part 1). Every verdict the grader stores goes through ``verdict_for``, whichever lane
judged it.
"""

import ast
from pathlib import Path

from grader.store import _verdicts

GRADER = Path(__file__).resolve().parents[1] / "grader"


def _names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [alias.name.rpartition(".")[2] for alias in node.names]
    return []


def _store_writes(path: Path) -> list[str]:
    """Each place in ``path`` that names the store's write function, by its function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    function = {child: node.name for node in ast.walk(tree)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                for child in ast.walk(node)}  # outer first: an inner function's overwrites
    return [f"{path.relative_to(GRADER)} in {function.get(node, '<module>')}"
            for node in ast.walk(tree) if "store_verdict" in _names(node)]


def test_only_the_store_writes_a_verdict():
    writes = [write for path in sorted(GRADER.rglob("*.py")) for write in _store_writes(path)]
    assert writes == ["store/_verdicts.py in verdict_for"]


def test_the_store_judges_only_what_it_lacks(tmp_path):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1"}]}
    judged = []

    def judge_now():
        judged.append(1)
        return {"assignment": "01_storage_strides", "exercises": {}}

    first = _verdicts.verdict_for(tmp_path, nb, "01_storage_strides", judge_now)
    again = _verdicts.verdict_for(tmp_path, nb, "01_storage_strides", judge_now)
    assert first == again == _verdicts.stored_verdict(tmp_path, nb, "01_storage_strides")
    assert len(judged) == 1
