"""Torch's answers to the finite exercises, and the digests made of them.

Three exercises answer a fixed list (``view_or_copy``, ``factory_results``,
``predict_verdicts``). The judge asks torch here at grading time; release
(``python -m grader.cli release``) hashes the same answers into
``answer_digests.json`` for the public checks. No public check imports this
module, so the student's kernel never loads a function that computes them.
"""

import json
import secrets
import warnings

import numpy as np
import torch

from ..givens.creating_tensors import EXPRESSIONS
from ..givens.pitfalls import GROUPS, WARM_UP
from ..givens.storage_strides import OPERATIONS
from . import _digests
from ._compare import shares_storage
from .pitfalls._claims import verdict

__all__ = ["torch_view_or_copy", "torch_factory_result", "verdict", "digests", "truths", "write"]


def torch_view_or_copy(operation: str) -> str:
    """Run ``operation`` on a fresh ``x`` and see whether the result uses x's storage."""
    x = torch.arange(12.0).reshape(3, 4)
    result = eval(operation, {"torch": torch, "x": x})  # our own strings, never student input
    return "view" if shares_storage(result, x) else "copy"


def torch_factory_result(expression: str) -> tuple[torch.dtype, tuple[int, ...]]:
    """Evaluate one of our own factory expressions; its dtype and shape."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.random.fork_rng():  # the judge's global RNG stays untouched
            result = eval(expression, {"torch": torch, "np": np})  # our strings only
    return result.dtype, tuple(result.shape)


def _factory_truths() -> dict[str, str]:
    truths = {}
    for expression in EXPRESSIONS:
        dtype, shape = torch_factory_result(expression)
        dtype_item, shape_item = _digests.factory_items(expression)
        truths[dtype_item], truths[shape_item] = str(dtype), str(tuple(shape))
    return truths


def truths() -> dict[str, dict[str, str]]:
    """Exercise -> item -> torch's answer, as the text the public check hashes."""
    return {
        "view_or_copy": {op: torch_view_or_copy(op) for op in OPERATIONS},
        "factory_results": _factory_truths(),
        "predict_verdicts": {claim: str(verdict(claim))
                             for group in WARM_UP for claim in GROUPS[group]},
    }


def digests(salt: str) -> dict:
    return {"torch": torch.__version__.split("+")[0], "salt": salt, "digests": {
        exercise: {item: _digests.digest(salt, exercise, item, answer)
                   for item, answer in items.items()}
        for exercise, items in truths().items()}}


def write() -> None:
    """(Re)write the digests, keeping the salt of the file already there."""
    path = _digests.DIGESTS_FILE
    salt = json.loads(path.read_text())["salt"] if path.exists() else secrets.token_hex(16)
    path.write_text(json.dumps(digests(salt), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
