"""Chapter 3, shape ops and broadcasting: the rules of its four puzzles.

A puzzle's function may use only what its rules list (``RULES``);
``show_rules`` prints them and ``check_rules`` checks a function's source
against them (nothing is run). The hidden checks enforce the same rules on
the submitted code.
"""

from .._errors import Mismatch
from ._puzzle_rules import Rules, source_of, violations

__all__ = ["RULES", "check_rules", "show_rules"]

RULES = {
    "batched_matmul": Rules(
        one_line=True,
        torch_functions=frozenset({"sum", "unsqueeze"}),
        methods=frozenset({"sum", "unsqueeze", "transpose", "mT"}),
        operators=frozenset({"*"}),
    ),
    "stable_softmax": Rules(
        one_line=False,
        torch_functions=frozenset({"exp", "amax", "max", "sum", "where", "zeros_like",
                                   "empty_like"}),
        methods=frozenset({"exp", "amax", "max", "values", "sum", "size", "shape", "dim",
                           "numel", "clone", "new_zeros", "new_empty"}),
        operators=frozenset({"-", "/", "+", "*"}),
        basic_indexing=False,
    ),
    "one_hot": Rules(
        one_line=True,
        torch_functions=frozenset({"arange"}),
        methods=frozenset({"unsqueeze", "long", "to", "dtype", "device"}),
        operators=frozenset(),
    ),
    "last_tokens": Rules(
        one_line=True,
        torch_functions=frozenset({"gather"}),
        methods=frozenset({"gather", "unsqueeze", "squeeze", "expand", "view", "reshape",
                           "size", "shape"}),
        operators=frozenset({"-", "+"}),
    ),
}


def show_rules(name: str) -> None:
    """Print the rules of puzzle ``name``."""
    print(f"Rules for {name}:")
    for line in RULES[name].describe():
        print(f"  - {line}")


def check_rules(answer) -> None:
    """Check a puzzle's function against its rules, on its source (nothing is run).

    Prints a one-line success, or raises ``AssertionError`` saying which line
    breaks which rule. Grading checks the same rules on your submitted code.
    """
    name = getattr(answer, "__name__", None)
    if name not in RULES:
        raise LookupError(f"{name!r} has no rules; puzzles: {sorted(RULES)}")
    problem = violations(source_of(answer), name, RULES[name])
    if problem:
        raise Mismatch(problem)
    print(f"✓ {name} follows the rules")
