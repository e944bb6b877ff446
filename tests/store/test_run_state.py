"""A grading run's state stays with its run: no module holds a submission, and the verdict
store has one writer (issue 32, part 1).

The restored notebooks travel from the run's judging to nbgrader's sanitize step in the
run's own ``RestoredAhead``, on a preprocessor class made for that run (nbgrader deep-copies
its config's values; a class survives that as itself). Every verdict the grader stores goes
through ``verdict_for``, whichever lane judged it.
"""

import ast
import copy
import json
import os
from pathlib import Path

from support import ROOT
from traitlets.config import Config

from grader.bridge import _nbgrader
from grader.bridge._structure import RestoredAhead
from grader.store import _verdicts

GRADER = ROOT / "grader"
# Where a grading run's state would sit: the run, nbgrader's lane, the store.
RUN_TIERS = ("batch", "bridge", "store")
_EMPTY_CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Lock",
                     "RLock"}


def _empty_container(value: ast.expr | None) -> bool:
    """``{}``, ``[]``, ``set()``, ``collections.defaultdict(list)``, a lock: what a cache
    filled at run time starts as (a constant table starts full)."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set)):
        return not (getattr(value, "keys", None) or getattr(value, "elts", None))
    if isinstance(value, ast.Call):
        name = value.func.attr if isinstance(value.func, ast.Attribute) else \
            getattr(value.func, "id", "")
        return name in _EMPTY_CONTAINERS
    return False


def _module_caches(path: Path) -> list[str]:
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if targets and _empty_container(node.value):
            found += [f"{path.relative_to(GRADER)}:{node.lineno}  {ast.unparse(t)}"
                      for t in targets]
    return found


def test_no_module_of_the_run_holds_state_filled_at_run_time():
    found = [cache for tier in RUN_TIERS for path in sorted((GRADER / tier).glob("*.py"))
             for cache in _module_caches(path)]
    assert found == []


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


def _submission(tmp_path: Path) -> Path:
    path = tmp_path / "submitted" / "ada" / "01_storage_strides" / "a.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}), encoding="utf-8")
    return path


def test_a_restored_notebook_is_taken_from_its_own_run_only(tmp_path):
    path, release = _submission(tmp_path), {"cells": [], "metadata": {}}
    mine, another = RestoredAhead(), RestoredAhead()
    restored, _ = mine.restore(path, release)
    assert another.take(path) is None
    assert mine.take(path) == (restored, [])
    assert mine.take(path) is None  # once


def test_the_run_s_restored_notebooks_survive_nbgrader_s_config_copy():
    ahead = RestoredAhead()
    config = Config()
    config.Autograde.sanitize_preprocessors = _nbgrader.sanitize_pipeline(ahead)
    restore = copy.deepcopy(config).Autograde.sanitize_preprocessors[0]
    assert issubclass(restore, _nbgrader.RestoreStructure) and restore.ahead is ahead
    assert _nbgrader.sanitize_pipeline()[0].ahead is None  # stock nbgrader: restores itself


def test_nbgrader_s_steps_take_the_run_s_restored_notebooks(tmp_path, monkeypatch):
    from grader._course import Course
    from grader.bridge._steps import NbgraderSteps

    monkeypatch.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(tmp_path))
    monkeypatch.delenv("TENSOR_ANATOMY_DB_URL", raising=False)
    monkeypatch.setenv("PATH", os.environ["PATH"])  # the steps put their scripts first on it
    ahead = RestoredAhead()
    steps = NbgraderSteps(Course.find(), tmp_path / "release", ahead=ahead)
    assert steps.api.config.Autograde.sanitize_preprocessors[0].ahead is ahead
