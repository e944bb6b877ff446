"""Rules for chapter 3's puzzles (no loops, only listed functions), checked on the code.

A puzzle's rules say what its function may be made of. They are enforced by
reading the function's source with ``ast`` (nothing is executed) against an
*allowlist*: every statement, operator, name and attribute must be one the
rules list. Whatever is not listed (``for``, a comprehension, ``getattr``,
``torch.softmax``, ``@``, ...) is a violation.

Where it counts (hidden checks), the judge reads the ``def`` out of the
submitted notebook, vets it, and runs *only* ``import torch`` plus the vetted
definitions (rebuilt from the checked syntax tree, annotations and decorators
dropped) in a fresh worker. Nothing else from the notebook runs there, so no
other cell can patch torch, rebind a name or swap the function afterwards:
the code that answers is the code that was checked. The same check gives
students instant feedback in their kernel (``check_rules``).
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
from dataclasses import dataclass

__all__ = ["Rules", "violations", "vetted_source", "find_definition", "source_of"]

_DTYPES = frozenset({"long", "int64", "float", "float32", "float64", "double", "bool"})
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_UNARY = (ast.USub, ast.UAdd)

_OPERATOR_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}


@dataclass(frozen=True)
class Rules:
    """What a puzzle's function may contain.

    ``one_line``: the body is one ``return`` (after an optional docstring);
    otherwise assignments and ``if`` are allowed too. Never loops,
    comprehensions, lambdas, imports, nested functions or try/with.
    ``torch_functions``: ``torch.<name>`` it may use (dtypes are always allowed).
    ``methods``: ``<tensor>.<name>`` it may use (methods and attributes).
    ``operators``: arithmetic operators, as symbols (``"*"``, ``"-"``...);
    comparisons (``==``, ``<``...) are always allowed.
    ``basic_indexing``: subscripts hold only constants, ``:``, ``None`` and
    ``...`` (no index tensors, no masks).
    """

    one_line: bool
    torch_functions: frozenset[str]
    methods: frozenset[str]
    operators: frozenset[str]
    basic_indexing: bool = True

    def describe(self) -> list[str]:
        shape = ("one `return` statement (a docstring before it is fine)" if self.one_line
                 else "assignments, `if` and `return`")
        lines = [f"body: {shape}; no loops, comprehensions, lambdas, imports or helpers"]
        if self.torch_functions:
            lines.append("torch functions: " + ", ".join(
                f"torch.{name}" for name in sorted(self.torch_functions))
                + " (and dtypes such as torch.long)")
        if self.methods:
            lines.append("tensor methods and attributes: " + ", ".join(
                f".{name}" for name in sorted(self.methods)))
        operators = " ".join(sorted(self.operators)) or "none"
        lines.append(f"arithmetic operators: {operators}; comparisons: == != < <= > >=")
        if self.basic_indexing:
            lines.append("indexing: only with integers, `:`, `None` and `...`")
        lines.append("names: the function's parameters, its own variables, and `torch`")
        return lines


class _Violation(Exception):
    def __init__(self, node: ast.AST, message: str):
        super().__init__(f"line {getattr(node, 'lineno', '?')}: {message}")


class _Vetter:
    def __init__(self, rules: Rules, params: set[str]):
        self.rules = rules
        self.names = set(params)  # readable names: parameters, then assigned locals

    # --- statements -------------------------------------------------------------------

    def body(self, statements: list[ast.stmt], top: bool) -> None:
        if top and self.rules.one_line:
            if len(statements) != 1 or not isinstance(statements[0], ast.Return):
                node = statements[-1] if statements else None
                raise _Violation(node or ast.Pass(), "the body must be a single `return`")
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Return):
            if node.value is None:
                raise _Violation(node, "`return` needs a value")
            self.expr(node.value)
        elif isinstance(node, ast.Assign) and not self.rules.one_line:
            self.expr(node.value)
            for target in node.targets:
                self.target(target)
        elif isinstance(node, ast.AugAssign) and not self.rules.one_line:
            self.operator(node, node.op)
            if not isinstance(node.target, ast.Name) or node.target.id not in self.names:
                raise _Violation(node, "augmented assignment only to a variable set before")
            self.expr(node.value)
        elif isinstance(node, ast.If) and not self.rules.one_line:
            self.expr(node.test)
            self.body(node.body, top=False)
            self.body(node.orelse, top=False)
        else:
            raise _Violation(node, f"`{_statement_name(node)}` is not allowed here")

    def target(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name):
            if node.id == "torch":
                raise _Violation(node, "do not rebind `torch`")
            self.names.add(node.id)
        elif isinstance(node, ast.Tuple):
            for item in node.elts:
                self.target(item)
        else:
            raise _Violation(node, "assign only to plain variable names")

    # --- expressions ------------------------------------------------------------------

    def expr(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, bool, type(None), type(Ellipsis))):
                raise _Violation(node, f"the constant {node.value!r} is not allowed")
        elif isinstance(node, ast.Name):
            if node.id != "torch" and node.id not in self.names:
                raise _Violation(node, f"the name `{node.id}` is not allowed")
        elif isinstance(node, ast.Attribute):
            self.attribute(node)
        elif isinstance(node, ast.Call):
            self.expr(node.func)
            for arg in node.args:
                if isinstance(arg, ast.Starred):
                    raise _Violation(arg, "`*args` in a call is not allowed")
                self.expr(arg)
            for keyword in node.keywords:
                if keyword.arg is None:
                    raise _Violation(keyword.value, "`**kwargs` in a call is not allowed")
                self.expr(keyword.value)
        elif isinstance(node, ast.BinOp):
            self.operator(node, node.op)
            self.expr(node.left)
            self.expr(node.right)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNARY):
                raise _Violation(node, "only unary `-` and `+` are allowed")
            self.expr(node.operand)
        elif isinstance(node, ast.Compare):
            if not all(isinstance(op, _COMPARISONS) for op in node.ops):
                raise _Violation(node, "only the comparisons == != < <= > >= are allowed")
            self.expr(node.left)
            for item in node.comparators:
                self.expr(item)
        elif isinstance(node, ast.BoolOp) and not self.rules.one_line:
            for item in node.values:
                self.expr(item)
        elif isinstance(node, ast.IfExp):
            for item in (node.test, node.body, node.orelse):
                self.expr(item)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for item in node.elts:
                if isinstance(item, ast.Starred):
                    raise _Violation(item, "`*` unpacking is not allowed")
                self.expr(item)
        elif isinstance(node, ast.Subscript):
            self.expr(node.value)
            self.index(node.slice)
        else:
            raise _Violation(node, f"{_expression_name(node)} is not allowed")

    def attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if name.startswith("_"):
            raise _Violation(node, f"`.{name}` is not allowed")
        if isinstance(node.value, ast.Name) and node.value.id == "torch":
            if name not in self.rules.torch_functions and name not in _DTYPES:
                raise _Violation(node, f"`torch.{name}` is not one of the listed functions")
            return
        if name not in self.rules.methods:
            raise _Violation(node, f"`.{name}` is not one of the listed methods")
        self.expr(node.value)

    def operator(self, node: ast.AST, op: ast.operator) -> None:
        symbol = _OPERATOR_SYMBOLS.get(type(op), type(op).__name__)
        if symbol not in self.rules.operators:
            raise _Violation(node, f"the operator `{symbol}` is not allowed")

    def index(self, node: ast.expr) -> None:
        if not self.rules.basic_indexing:
            if isinstance(node, ast.Slice):
                for part in (node.lower, node.upper, node.step):
                    if part is not None:
                        self.expr(part)
            elif isinstance(node, ast.Tuple):
                for item in node.elts:
                    self.index(item)
            else:
                self.expr(node)
            return
        if isinstance(node, ast.Tuple):
            for item in node.elts:
                self.index(item)
        elif isinstance(node, ast.Slice):
            for part in (node.lower, node.upper, node.step):
                if part is not None and not _is_int_constant(part):
                    raise _Violation(part, "slice bounds must be integer constants")
        elif not (_is_int_constant(node) or (isinstance(node, ast.Constant)
                                             and node.value in (None, Ellipsis))):
            raise _Violation(node, "index only with integers, `:`, `None` and `...`")


def _is_constant(node: ast.expr) -> bool:
    """A literal number, bool, None or ``...``, possibly with a sign (``-1``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARY):
        node = node.operand
        return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
    return isinstance(node, ast.Constant) and isinstance(
        node.value, (int, float, bool, type(None), type(Ellipsis)))


def _is_int_constant(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARY):
        node = node.operand
    return (isinstance(node, ast.Constant) and isinstance(node.value, int)
            and not isinstance(node.value, bool))


def _statement_name(node: ast.stmt) -> str:
    names = {ast.For: "for", ast.AsyncFor: "for", ast.While: "while", ast.Import: "import",
             ast.ImportFrom: "import", ast.FunctionDef: "def", ast.AsyncFunctionDef: "def",
             ast.ClassDef: "class", ast.Try: "try", ast.With: "with", ast.Global: "global",
             ast.Nonlocal: "nonlocal", ast.Assign: "=", ast.AugAssign: "augmented assignment",
             ast.If: "if", ast.Raise: "raise", ast.Delete: "del", ast.Assert: "assert"}
    return names.get(type(node), type(node).__name__)


def _expression_name(node: ast.expr) -> str:
    names = {ast.Lambda: "`lambda`", ast.ListComp: "a comprehension",
             ast.SetComp: "a comprehension", ast.DictComp: "a comprehension",
             ast.GeneratorExp: "a generator expression", ast.NamedExpr: "`:=`",
             ast.JoinedStr: "an f-string", ast.Dict: "a dict", ast.Set: "a set",
             ast.BoolOp: "`and`/`or`", ast.Starred: "`*` unpacking"}
    return names.get(type(node), f"`{type(node).__name__}`")


def _params(fn: ast.FunctionDef) -> set[str]:
    args = fn.args
    if args.vararg or args.kwarg:
        raise _Violation(fn, "no *args or **kwargs parameters")
    for default in [*args.defaults, *args.kw_defaults]:
        if default is not None and not _is_constant(default):
            raise _Violation(default, "parameter defaults must be constants")
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    if "torch" in names:
        raise _Violation(fn, "do not name a parameter `torch`")
    return names


def _strip_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return body[1:]
    return body


def _check(fn: ast.FunctionDef, rules: Rules) -> ast.FunctionDef:
    """The definition rebuilt from what was checked: no docstring, decorators or annotations."""
    if not isinstance(fn, ast.FunctionDef):
        raise _Violation(fn, "define it with a plain `def`")
    if fn.decorator_list:
        raise _Violation(fn.decorator_list[0], "no decorators")
    params = _params(fn)
    body = _strip_docstring(fn.body)
    if len(body) == 1 and isinstance(body[0], ast.Raise):
        raise _Violation(body[0], "not written yet: it only raises")
    _Vetter(rules, params).body(body, top=True)
    clean = copy.deepcopy(fn)
    clean.decorator_list, clean.returns, clean.body = [], None, copy.deepcopy(body)
    if hasattr(clean, "type_params"):  # Python 3.12+: def f[T](...)
        clean.type_params = []
    for arg in [*clean.args.posonlyargs, *clean.args.args, *clean.args.kwonlyargs]:
        arg.annotation = None
    return ast.fix_missing_locations(clean)


def violations(fn: ast.FunctionDef | None, name: str, rules: Rules) -> str | None:
    """Why ``fn`` (a parsed ``def``) breaks ``rules``, or None if it follows them."""
    if fn is None:
        return f"no `def {name}(...)` found at the top level of a code cell"
    try:
        _check(fn, rules)
    except _Violation as err:
        return f"{name} breaks the rules: {err}"
    return None


def vetted_source(fn: ast.FunctionDef, rules: Rules) -> str:
    """Source of ``fn`` rebuilt from its checked syntax tree (call ``violations`` first)."""
    return ast.unparse(_check(fn, rules))


def _parse(source: str) -> ast.Module | None:
    # Any length: triage bounds a notebook's code (``_triage.MAX_CODE_CHARACTERS``).
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def find_definition(cells: list[str], name: str) -> ast.FunctionDef | None:
    """The last top-level ``def name`` in ``cells`` (sources in notebook order)."""
    found = None
    for source in cells:
        tree = _parse(source)
        for node in tree.body if tree else ():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                found = node
    return found


def source_of(fn) -> ast.FunctionDef | None:
    """The parsed ``def`` of a function object from the student's kernel, if readable."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    return find_definition([source], getattr(fn, "__name__", ""))
