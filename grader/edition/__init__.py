"""``make student-edition OUT=DIR [LANGUAGE=zh-CN]``: the course as students get it, with no
answer in it, for students of one language.

Runs on the instructor's machine and writes ``DIR``, a git repository that
students clone: the lessons (``course/``, with their outputs), the released
assignments (``exercises/``, no outputs), the widgets, the public side of
``grader`` with the public examples its checks try (``grader/checks/public_examples``:
fixed inputs and the answers stored for them at release) and a README, Makefile
and requirements of its own (``_files``).

The public side of ``grader`` is found, not listed: the modules that the
public checks, the givens and the widgets import (``public_modules``). Left
out, by construction: ``solutions/``, the hidden checks and their
strategies, the judge, the grading command, the tests, the instructor folder,
and the answer digests of finite exercises: a digest of a two-way answer is
the answer to anyone who hashes both (so the edition's public checks of those
exercises check an answer's form only, ``grader.checks._digests``).
"""

import ast
import json
import shutil
import subprocess
from pathlib import Path

from grader._course import Course
from grader._language import ENGLISH
from grader.checks import _digests, _public_examples
from grader.edition import _files

__all__ = ["build", "public_modules"]

_COPIED = ("course", "exercises", "anatomy_widgets")
_IGNORED = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "*.pyc")


def _module_file(root: Path, module: str) -> Path | None:
    """The file of ``grader...`` module ``module`` under ``root``, if it is one."""
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(root: Path, path: Path) -> set[str]:
    """Every module of ``grader`` that ``path`` imports, at the top or inside a function."""
    package = ".".join(path.relative_to(root).with_suffix("").parts)
    package = package.removesuffix(".__init__") if path.name == "__init__.py" \
        else package.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
            stem = ".".join(filter(None, [base, node.module or ""]))
            found |= {stem} | {f"{stem}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] == "grader"}


def public_modules(root: Path) -> list[Path]:
    """Files of ``grader`` that the student's kernel or Jupyter server can import: from
    the public checks, every chapter's, the givens and ``grader.lab``, what they import
    (followed to the end, imports inside functions too), with every package
    ``__init__`` on the way; relative to ``root``."""
    start = [root / "grader" / "__init__.py", root / "grader" / "lab" / "__init__.py",
             *sorted(root.glob("grader/givens/*.py")),
             *sorted(root.glob("grader/checks/[!_]*/__init__.py")),
             root / "grader" / "checks" / "__init__.py"]
    seen, todo = set(), list(start)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imported(root, path):
            found = _module_file(root, name)
            if found is not None:
                todo.append(found)
    relative = {path.relative_to(root) for path in seen}
    inits = {parent / "__init__.py" for path in relative for parent in path.parents
             if parent.parts[:1] == ("grader",)}
    return sorted(relative | inits)


def _git(out: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=out, check=True, capture_output=True)


def build(course: Course, out: Path, commit: bool = True,
          language: str = ENGLISH) -> list[Path]:
    """Write the student edition for students of ``language`` at ``out`` (a new or empty
    folder); the files written."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty: the student edition goes in a new folder")
    missing = [path for path in (course.root / _files.start_page(language),
                                 course.root / "exercises" / language)
               if language != ENGLISH and not path.exists()]
    if missing:
        raise FileNotFoundError(f"no {language} edition without {missing[0]}: run `python -m "
                                f"grader.translation build` (it writes both)")
    for name in _COPIED:
        shutil.copytree(course.root / name, out / name, ignore=_IGNORED)
    for relative in public_modules(course.root):
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(course.root / relative, out / relative)
    # What the stored checks try (answers to fixed inputs only: nothing that computes one).
    examples = Path("grader", "checks", _public_examples.EXAMPLES_DIR.name)
    shutil.copytree(course.root / examples, out / examples, ignore=_IGNORED)
    # The finite exercises by name only: which they are, not their answers.
    withheld = out / "grader" / "checks" / _digests.DIGESTS_FILE.name
    withheld.write_text(json.dumps({"withheld": sorted(_digests.finite_exercises())},
                                   indent=1) + "\n", encoding="utf-8")
    for name, text in _files.edition_files(course, language).items():
        (out / name).write_text(text, encoding="utf-8")
    if commit:
        _git(out, "init", "-q")
        _git(out, "add", "-A")
        _git(out, "-c", "user.name=Tensor Anatomy", "-c", "user.email=course@localhost",
             "commit", "-q", "-m", "Tensor Anatomy, student edition"
             + ("" if language == ENGLISH else f" ({language})"))
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file()
                  and ".git" not in p.relative_to(out).parts)
