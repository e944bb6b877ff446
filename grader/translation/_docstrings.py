"""The docstrings of an answer cell: what a translation changes in an exercise's code.

An answer cell's code is the same in every language; its docstrings are the
student's instructions, so they are translated. A docstring is taken as
written between its quotes (indentation, ``backticks`` and doctest lines
included), so that putting a translation back changes those characters and
no other. Only the docstrings the student is given count: one inside a
``### BEGIN SOLUTION`` region is part of the answer, which no catalogue may hold.
"""

import ast
import re

__all__ = ["docstrings", "with_docstrings"]

_REGION = re.compile(r"^[ \t]*### BEGIN SOLUTION[ \t]*$.*?^[ \t]*### END SOLUTION[ \t]*$",
                     re.M | re.S)
_QUOTES = re.compile(r"^([rRuU]?)(\"\"\"|'''|\"|')")


def _solution_lines(source: str) -> set[int]:
    """The 1-based numbers of the lines inside a solution region, markers included."""
    lines = set()
    for region in _REGION.finditer(source):
        first = source.count("\n", 0, region.start()) + 1
        lines.update(range(first, first + region[0].count("\n") + 1))
    return lines


def _offset(lines: list[str], lineno: int, byte_column: int) -> int:
    """The character offset in the source of a node position (ast counts UTF-8 bytes)."""
    line = lines[lineno - 1]
    return sum(map(len, lines[:lineno - 1])) + len(line.encode()[:byte_column].decode())


def _literals(source: str) -> dict[str, tuple[int, int]]:
    """qualified name → (start, end) of the text between its docstring's quotes, for each
    function or class given to the student, in source order."""
    hidden, lines = _solution_lines(source), source.splitlines(keepends=True)
    found = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, prefix)
                continue
            name = prefix + child.name
            first = child.body[0] if child.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str) and first.lineno not in hidden:
                start = _offset(lines, first.lineno, first.col_offset)
                end = _offset(lines, first.end_lineno, first.end_col_offset)
                prefix_and_quotes = _QUOTES.match(source[start:end])
                if prefix_and_quotes is None:  # an implicit concatenation: left as it is
                    continue
                opening = len(prefix_and_quotes[0])
                found[name] = (start + opening, end - len(prefix_and_quotes[2]))
            visit(child, name + ".")

    visit(ast.parse(source), "")
    return found


def docstrings(source: str) -> dict[str, str]:
    """qualified name (``LogSumExp.forward``) → its docstring as written, for each function
    or class of ``source`` whose docstring the student is given."""
    return {name: source[start:end] for name, (start, end) in _literals(source).items()}


def with_docstrings(source: str, translated: dict[str, str]) -> str:
    """``source`` with the docstring of each name in ``translated`` replaced by its text."""
    spans = sorted(((span, translated[name]) for name, span in _literals(source).items()
                    if name in translated), reverse=True)
    for (start, end), text in spans:
        source = source[:start] + text + source[end:]
    return source
