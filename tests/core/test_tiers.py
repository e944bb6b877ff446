"""The grader's tiers: every import points down, and no two tiers import each other.

A tier is a package under ``grader/`` (``grader/judge/``, ``grader/checks/``...); the
top-level modules are one more, ``core``, which imports no package. The tiers'
order is declared once (``LEVELS``), top to bottom, with the process that runs
each: a module may import its own tier and the tiers below its own, never one
above or beside it. Every import counts, at the top of a file or inside a
function (an import deferred to keep a process's memory small is still an
arrow). On failure every offending arrow is printed as ``file:line  a -> b``.
"""

import ast
from pathlib import Path

from support import ROOT

GRADER = ROOT / "grader"

# Top to bottom; a tuple is one level whose tiers must not import one another.
LEVELS = (
    # The instructor's shell: ``python -m grader.cli`` (grader/cli.py, grader/__main__.py).
    ("command",),
    # The instructor's other commands, each run by the command line in its process:
    # the student edition, a new exercise's stubs, the lessons in other languages.
    ("edition", "scaffold", "translation"),
    # The grading command's process: the grading run (triage, judging, stored verdicts,
    # reports, export) and collecting submissions.
    ("batch", "collect"),
    # The grading command's process too, below the run: everything that touches nbgrader.
    ("bridge",),
    # The grading command's process: the verdict store, which the run and nbgrader's lane
    # both read and write (in the instructor folder, where no student can).
    ("store",),
    # A judge process (trusted): runs the hidden checks through its one pytest plugin.
    ("judge",),
    # The judge process: the hidden checks its pytest collects, their strategies,
    # oracles and named wrong answers.
    ("hidden",),
    # checks: the student's kernel (public checks) and the judge; student: the zygote
    # and the confined student's process. Side by side: what both need (the wire's
    # protocol, errors) is in core.
    ("checks", "student"),
    # lab: the student's Jupyter server; givens: the student's kernel and the graded
    # student's process (the only part of the course it can read).
    ("lab", "givens"),
    # Wherever it is imported: settings, notebooks, ids, errors, the wire's protocol.
    ("core",),
)
LEVEL = {tier: depth for depth, tiers in enumerate(LEVELS) for tier in tiers}

# Top-level modules outside ``core``: the command line, and the package's face
# (``from grader import check`` in a lesson is the public checks, re-exported).
TOP_LEVEL = {"grader.cli": "command", "grader.__main__": "command", "grader": "checks"}

# Known wrong arrows, (importing file, imported module); nothing else may point up or
# sideways. An entry whose import is gone matches nothing: delete it then.
ALLOWED: set[tuple[str, str]] = set()


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def tier(module: str) -> str:
    """The tier of a module of ``grader`` (``grader.judge._remote`` -> ``judge``)."""
    if module in TOP_LEVEL:
        return TOP_LEVEL[module]
    parts = module.split(".")
    return parts[1] if (GRADER / parts[1]).is_dir() else "core"


def _imported(path: Path, node: ast.AST) -> list[str]:
    """The modules of ``grader`` one import statement names: ``from a import b`` is the
    module ``a.b`` where ``b`` is one, else ``a``."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        stem = node.module or ""
        if node.level:
            package = _module(path).split(".")
            if path.name != "__init__.py":
                package = package[:-1]
            stem = ".".join(package[:len(package) - node.level + 1] + ([stem] if stem else []))
        names = [f"{stem}.{a.name}" if _is_module(f"{stem}.{a.name}") else stem
                 for a in node.names]
    else:
        return []
    return sorted({name for name in names if name.split(".")[0] == "grader"})


def arrows() -> list[tuple[str, int, str, str]]:
    """Every import from one tier into another: (file, line, importer, imported)."""
    found = []
    for path in sorted(GRADER.rglob("*.py")):
        importer, file = _module(path), str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for imported in _imported(path, node):
                if tier(imported) != tier(importer):
                    found.append((file, node.lineno, importer, imported))
    return found


def _upward(arrow) -> bool:
    _, _, importer, imported = arrow
    return LEVEL[tier(imported)] <= LEVEL[tier(importer)]


def _summary(found) -> str:
    tiers = {tier(_module(p)) for p in GRADER.rglob("*.py")}
    upward = [a for a in found if _upward(a)]
    pairs = _two_way_pairs(found)
    return (f"{len(tiers)} tiers, {len(found)} arrows between tiers, "
            f"{len(upward)} upward or sideways "
            f"({len([a for a in upward if (a[0], a[3]) not in ALLOWED])} not allowed), "
            f"two-way pairs: {sorted(pairs)}")


def _two_way_pairs(found) -> set[tuple[str, str]]:
    directed = {(tier(a[2]), tier(a[3])) for a in found}
    return {tuple(sorted(pair)) for pair in directed if pair[::-1] in directed}


def test_every_module_belongs_to_a_declared_tier():
    tiers = {tier(_module(path)) for path in GRADER.rglob("*.py")}
    assert tiers <= set(LEVEL), f"tiers missing from LEVELS: {sorted(tiers - set(LEVEL))}"


def test_core_imports_no_package():
    found = [a for a in arrows() if tier(a[2]) == "core"]
    assert not found, "\n".join(f"{f}:{n}  {a} -> {b}" for f, n, a, b in found)


def test_every_arrow_points_down():
    found = arrows()
    wrong = [a for a in found if _upward(a) and (a[0], a[3]) not in ALLOWED]
    assert not wrong, "\n".join([f"{f}:{n}  {a} -> {b}" for f, n, a, b in wrong]
                                + [_summary(found)])


def test_no_two_tiers_import_each_other():
    found = arrows()
    allowed = {(tier(_module(ROOT / f)), tier(m)) for f, m in ALLOWED}
    pairs = {pair for pair in _two_way_pairs(found)
             if pair not in {tuple(sorted(p)) for p in allowed}}
    offending = [a for a in found if tuple(sorted((tier(a[2]), tier(a[3])))) in pairs]
    assert not pairs, "\n".join([f"{f}:{n}  {a} -> {b}" for f, n, a, b in offending]
                                + [_summary(found)])
