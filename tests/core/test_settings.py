"""One reader of the environment (``grader._settings``), and every setting explained.

What an instructor sets is read in one place, typed, with its help; every other module
asks ``Settings.from_environment()``. Found by reading the code (ast), not by running it.
"""

import ast
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from support import ROOT

from grader._settings import Settings, judge_variables, variable
from grader.student import _sandbox

SETTINGS = ROOT / "grader" / "_settings.py"
PREFIX = "TENSOR_ANATOMY_"

def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            if node.body and isinstance(node.body[0], ast.Expr) and \
                    isinstance(node.body[0].value, ast.Constant):
                found.add(id(node.body[0].value))
    return found


def _environment_reads(tree: ast.AST) -> list[ast.AST]:
    """``os.environ.get(...)``, ``os.getenv(...)``, ``os.environ[...]`` read, and
    ``os.environ`` walked whole (``.items()``)."""
    reads = []
    for node in ast.walk(tree):
        text = ast.unparse(node) if isinstance(node, (ast.Call, ast.Subscript)) else ""
        if isinstance(node, ast.Call) and text.startswith(("os.environ.get(", "os.getenv(")):
            reads.append(node)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
                text.startswith("os.environ["):
            reads.append(node)
    return reads


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    file, docstrings = str(path.relative_to(ROOT)), _docstrings(tree)
    named = [node for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and re.search(f"{PREFIX}[A-Z]", node.value)
             and id(node) not in docstrings]
    names = (PREFIX, "variable(", "_VARIABLE", "ENVIRONMENT")  # a name from the settings
    reads = [node for node in _environment_reads(tree)
             if any(name in ast.unparse(node) for name in names)]
    return [f"{file}:{node.lineno}  {ast.unparse(node)[:80]}" for node in named + reads]


def test_the_settings_module_is_the_graders_only_reader_of_its_variables():
    """No other module names a ``TENSOR_ANATOMY_*`` variable in its code (its docstrings
    may), nor reads one by a name it got from the settings. Writing one for a process
    started after is not reading (``os.environ[variable("instructor_dir")] = ...`` in
    grader/cli.py, a notebook's ``%env`` line): that process reads it through Settings."""
    offences = [line for path in sorted((ROOT / "grader").rglob("*.py"))
                if path != SETTINGS for line in _offences(path)]
    assert not offences, "read the setting through grader._settings:\n" + "\n".join(offences)


def test_the_settings_command_lists_every_setting_with_its_help():
    done = subprocess.run([sys.executable, "-m", "grader", "settings"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "TENSOR_ANATOMY_CALL_TIMEOUT": "3",
                               "TENSOR_ANATOMY_DB_URL": "postgresql://me:secret@db/x"})
    assert done.returncode == 0, done.stderr
    for each in fields(Settings):
        assert f"\n{variable(each.name)}=" in f"\n{done.stdout}", each.name
        assert f"    {each.metadata['help']}\n" in done.stdout, each.name
    assert "TENSOR_ANATOMY_CALL_TIMEOUT=3\n" in done.stdout
    assert "secret" not in done.stdout  # the gradebook's URL may hold a password


@pytest.mark.parametrize("raw, value", [("", 10.0), ("2.5", 2.5), ("7", 7.0)])
def test_a_setting_is_typed_and_unset_or_empty_is_its_default(raw, value):
    assert Settings.from_environment({"TENSOR_ANATOMY_CALL_TIMEOUT": raw}).call_timeout == value


def test_a_malformed_setting_names_its_variable():
    with pytest.raises(ValueError, match="TENSOR_ANATOMY_CELL_TIMEOUT='soon'"):
        Settings.from_environment({"TENSOR_ANATOMY_CELL_TIMEOUT": "soon"})


def test_a_judge_is_given_the_settings_it_reads_and_not_the_gradebooks_url(monkeypatch):
    for each in fields(Settings):
        monkeypatch.setenv(variable(each.name), "1")
    given = _sandbox.judge_environment()
    assert {name for name in given if name.startswith(PREFIX)} == set(judge_variables())
    assert variable("db_url") not in given
    assert {variable(f.name) for f in fields(Settings) if f.metadata["verdict"]} <= set(given)


def test_the_kernels_language_variable_is_the_settings_one():
    """The student's kernel reads its language itself (the widgets run without the grader),
    and the settings name the same variable without importing the widgets."""
    from anatomy_widgets._language import ENVIRONMENT

    assert variable("language") == ENVIRONMENT
