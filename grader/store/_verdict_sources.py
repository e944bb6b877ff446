"""The grader's files a verdict of one assignment depends on, so that a regrade after a
change judges again only the assignments the change can touch.

Every file of the grader counts (the judge, the sandbox, the public checks of every
chapter, which ``grader.checks`` loads all at once, the shared oracles and strategies),
except another chapter's own: its folder of the judge's side (``hidden/<chapter>/``, all
of it: hidden checks, strategies, oracles, named wrong answers) and its givens
(``givens/<chapter>.py``). Those count too where a file that counts imports them,
read with ``ast`` (imports inside functions as well) until nothing new is imported: a
chapter's checks may import another's. The only imports by name in what a judge runs
(``grader.checks`` loading every chapter's checks, ``named_wrong_answers`` loading the
assignment's own chapter) load files that count anyway (``tests/store/test_verdict_cache.py``).
"""

import ast
import functools
from pathlib import Path

__all__ = ["verdict_sources"]

_SUFFIXES = (".py", ".json", ".ini")


def _chapters(grader: Path) -> list[str]:
    """Every chapter: each folder of ``hidden`` is one (``hidden/<chapter>/``)."""
    return sorted(path.name for path in (grader / "hidden").iterdir()
                  if path.is_dir() and path.name != "__pycache__")


def _own_files(grader: Path, chapter: str, every: set[Path]) -> set[Path]:
    """``chapter``'s own files: whatever its folder holds, and its givens."""
    folder, givens = grader / "hidden" / chapter, grader / "givens" / f"{chapter}.py"
    return {path for path in every if path.is_relative_to(folder)} | {givens}


def _module(grader: Path, path: Path) -> list[str]:
    """``path``'s module name as parts (``grader/hidden/devices/__init__.py``:
    grader, hidden, devices)."""
    parts = [grader.name, *path.relative_to(grader).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imported(grader: Path, path: Path) -> frozenset[str]:
    """Every module name ``path`` may import: ``from a import b`` may be ``a`` or ``a.b``."""
    here = _module(grader, path)
    return _imports_in(path.read_bytes(), tuple(here if path.name == "__init__.py" else here[:-1]))


@functools.cache
def _imports_in(source: bytes, package: tuple[str, ...]) -> frozenset[str]:
    """The module names ``source`` (a file of ``package``) may import. Cached by content:
    the grading command asks for every assignment, and parsing the grader's 170 files
    six times cost 1.2 s of CPU, once 0.2 s."""
    names = set()
    for node in _statements(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join(base + (node.module.split(".") if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(names)


def _statements(tree: ast.Module):
    """Every statement of ``tree``, nested ones too. An import is always a statement, so
    the expressions, nine nodes in ten of the grader's files, are not walked (``ast.walk``
    over all of them was 0.36 s of the 0.64 s spent reading imports)."""
    unread = [tree]
    while unread:
        node = unread.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):  # a lambda's body is an expression
                unread.extend(block)


def _file_of(grader: Path, module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != grader.name:
        return None
    base = grader.joinpath(*parts[1:])
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def verdict_sources(grader: Path, assignment: str) -> list[Path]:
    """The files of ``grader`` (the package's folder) a verdict of ``assignment`` depends on."""
    every = {path for path in grader.rglob("*")
             if path.suffix in _SUFFIXES and "__pycache__" not in path.parts}
    own = assignment.split("_", 1)[-1]  # 01_storage_strides: storage_strides
    others = set().union(*(_own_files(grader, chapter, every) for chapter in _chapters(grader)
                           if chapter != own)) & every
    counted, unread = every - others, sorted(p for p in every - others if p.suffix == ".py")
    while unread:
        for module in _imported(grader, unread.pop()):
            found = _file_of(grader, module)
            if found in others and found not in counted:
                counted.add(found)
                unread.append(found)
    return sorted(counted)
