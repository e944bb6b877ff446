"""Chapter 6, pitfalls and debugging: one public check per exercise.

Six exercises repair a broken snippet; ``compare_<exercise>(fn, *example)``
calls the student's repaired function on one example, asks torch for the truth
(``_oracle``) and raises ``Mismatch`` with a small counterexample when
they disagree. The seventh, ``predict_verdicts``, is graded claim group by
claim group against the installed torch (``_claims``). The hidden
checks (``grader/hidden/test_06_pitfalls.py``) reuse these functions on
hypothesis-generated inputs, so public and hidden checks cannot drift apart.

The repairs of flatten_scores, masked_mean, linear_on_pixels and swish_grads
are their own truth: their comparisons take it as ``truth=``, from
``grader.hidden.oracles.pitfalls`` in the judge and stored with the public
examples at release in the student's kernel (``stored=True``).
"""

import torch

from ..._compare import as_plain, describe_tensor, expect_float, expect_tensor, is_tensor, tolerance
from ...givens.pitfalls import CLAIMS, GROUPS, WARM_UP
from .._digests import is_right
from .._registry import Mismatch, public_check
from ._examples import (
    bce_examples,
    epoch_examples,
    image_examples,
    masked_examples,
    pixel_examples,
    swish_examples,
)
from ._harnesses import swish_harness, training_harness
from ._oracle import torch_bce_loss, torch_train_epoch

__all__ = [
    "compare_flatten_scores",
    "compare_masked_mean",
    "compare_linear_on_pixels",
    "compare_swish_grads",
    "compare_train_epoch",
    "compare_bce_loss",
    "compare_predict_verdicts",
]


def _inputs(*tensors) -> str:
    return "; ".join(describe_tensor(t) for t in tensors)


def _expect_close(call: str, result, truth: torch.Tensor, rtol=None) -> None:
    """The inputs' device is the answer's (a meta input has a meta answer); values within
    the tolerance of torch's dtype."""
    expect_tensor(call, result, truth, device=True, **tolerance(truth.dtype, rtol))


@public_check("flatten_scores", image_examples, stored=True)
def compare_flatten_scores(fn, images, weight, *, truth):
    """``truth``: each image's score, by the repaired code."""
    call = f"flatten_scores(images, weight) for images of {describe_tensor(images)}"
    _expect_close(call, fn(images, weight), truth)


@public_check("masked_mean", masked_examples, stored=True)
def compare_masked_mean(fn, x, lengths, *, truth):
    """``truth``: the masked mean, on x's device and in its dtype."""
    call = f"masked_mean(x, lengths) for x of {describe_tensor(x)}, lengths {_inputs(lengths)}"
    _expect_close(call, fn(x, lengths), truth)


@public_check("linear_on_pixels", pixel_examples, stored=True)
def compare_linear_on_pixels(fn, pixels, weight, bias, *, truth):
    """``truth``: the layer on the centred pixels, in the layer's dtype."""
    call = f"linear_on_pixels(pixels, weight, bias) for {_inputs(pixels, weight, bias)}"
    result = fn(pixels, weight, bias)
    _expect_close(call, result, truth)


@public_check("swish_grads", swish_examples, stored=True)
def compare_swish_grads(fn, x, w, *, truth):
    """``truth``: ``(loss, grad of x, grad of w)`` for ``sum(silu(relu(x @ w)))``."""
    call = f"swish_grads(x, w) for x of {describe_tensor(x)}, w of {describe_tensor(w)}"
    result = fn.harness(swish_harness, x, w)
    if not isinstance(result, (tuple, list)) or len(result) != 3:
        raise Mismatch(f"{call} returned {type(result).__name__}; expected a triple "
                       f"(loss, grad_x, grad_w)")
    for what, mine, true_value in zip(("loss", "grad_x", "grad_w"), result, truth):
        _expect_close(f"{call}, {what}", mine, true_value)


def _expect_no_history(call: str, facts: dict, name: str) -> None:
    nodes = facts.get(f"{name}_nodes", 0)
    if nodes:
        raise Mismatch(f"{call}: the {name} you return still has a graph behind it "
                       f"({nodes} autograd nodes kept alive); it should have no history")


def _loss_value(call: str, facts: dict, truth: float) -> float:
    loss = facts.get("loss")
    plain = as_plain(loss) if is_tensor(loss) else None
    if plain is not None and plain.numel() == 1 and plain.is_floating_point():
        if facts.get("loss_requires_grad"):
            raise Mismatch(f"{call}: the mean loss requires grad, so it holds on to the graphs "
                           f"of the batches; return a plain number")
        loss = plain.item() if plain.device.type != "meta" else loss
    return expect_float(call, loss, truth, rtol=1e-4, atol=1e-4, ints=True, what="the mean loss",
                        why=f"torch gets {truth:.6g} (the mean of the batch losses, each "
                            f"before its step)")


@public_check("train_epoch", epoch_examples)
def compare_train_epoch(fn, w, batches, lr):
    call = (f"train_epoch(w, batches, lr={lr}) for w of {describe_tensor(w)} and "
            f"{len(batches)} batch(es)")
    true_w, true_loss = torch_train_epoch(w, batches, lr)
    facts = fn.harness(training_harness, w, batches, lr)
    if facts.get("kind") != "pair":
        raise Mismatch(f"{call} returned a {facts.get('kind')}; expected a pair (w, loss)")
    _expect_no_history(call, facts, "loss")
    _loss_value(call, facts, true_loss)
    _expect_close(f"{call}, trained weights", facts.get("weights"), true_w)
    _expect_no_history(call, facts, "weights")
    if not facts.get("weights_requires_grad"):
        raise Mismatch(f"{call}: the trained weights do not require grad; training could not "
                       f"go on from them")


@public_check("bce_loss", bce_examples)
def compare_bce_loss(fn, probs, targets):
    call = f"bce_loss(probs, targets) for {_inputs(probs, targets)}"
    # rtol 1e-3 also accepts clamping probs at exp(-100) (a subnormal in float32).
    _expect_close(call, fn(probs, targets), torch_bce_loss(probs, targets), rtol=1e-3)


def _warm_up_groups():
    return [(group,) for group in WARM_UP]


@public_check("predict_verdicts", _warm_up_groups)
def compare_predict_verdicts(fn, group, truths: dict | None = None):
    """``truths`` (claim -> verdict) come from torch where the judge decided them; in the
    student's kernel each warm-up verdict is checked against its salted digest instead."""
    answers = fn()
    if not isinstance(answers, dict):
        raise Mismatch(f"predict_verdicts() returned {type(answers).__name__}; expected a dict")
    for claim in GROUPS[group]:
        answer = answers.get(claim)
        if not isinstance(answer, bool):
            raise Mismatch(f"predict_verdicts()[{claim!r}] is {answer!r:.40}; expected True "
                           f"or False")
        truth = str(truths[claim]) if truths is not None else None
        if not is_right("predict_verdicts", claim, str(answer), truth):
            raise Mismatch(f"your verdict on {claim!r} is wrong on torch "
                           f"{torch.__version__.split('+')[0]}: {CLAIMS[claim]}")
