"""Chapter 6, pitfalls and debugging: one public check per exercise.

Six exercises repair a broken snippet; ``compare_<exercise>(fn, *example)``
calls the student's repaired function on one example, asks torch for the truth
(``_oracle``) and raises ``Mismatch`` with a small counterexample when
they disagree. The seventh, ``predict_verdicts``, is graded claim group by
claim group against the installed torch (``_claims``). The hidden
checks (``grader/hidden/pitfalls/test.py``) reuse these functions on
hypothesis-generated inputs, so public and hidden checks cannot drift apart.

The repairs of flatten_scores, masked_mean, linear_on_pixels and swish_grads
are their own truth: their comparisons take it as ``truth=``, from
``grader.hidden.pitfalls.oracles`` in the judge and stored with the public
examples at release in the student's kernel (``stored=True``).
"""

import torch

from ...givens.pitfalls import CLAIMS, GROUPS, WARM_UP
from ...givens.variants import your_items
from .._compare import as_plain, describe_tensor, expect_float, expect_tensor, is_tensor, tolerance
from .._digests import is_right
from .._registry import Mismatch, public_check
from .._test_cell import fill, translate
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
    return translate("; ", "checks").join(describe_tensor(t) for t in tensors)


def _expect_close(call: str, result, truth: torch.Tensor, rtol=None) -> None:
    """The inputs' device is the answer's (a meta input has a meta answer); values within
    the tolerance of torch's dtype."""
    expect_tensor(call, result, truth, device=True, **tolerance(truth.dtype, rtol))


@public_check("flatten_scores", image_examples, stored=True)
def compare_flatten_scores(fn, images, weight, *, truth):
    """``truth``: each image's score, by the repaired code."""
    call = fill(translate("{call} for images of {images}", "checks"),
                call="flatten_scores(images, weight)", images=describe_tensor(images))
    _expect_close(call, fn(images, weight), truth)


@public_check("masked_mean", masked_examples, stored=True)
def compare_masked_mean(fn, x, lengths, *, truth):
    """``truth``: the masked mean, on x's device and in its dtype."""
    call = fill(translate("{call} for x of {x}, lengths {lengths}", "checks"),
                call="masked_mean(x, lengths)", x=describe_tensor(x), lengths=_inputs(lengths))
    _expect_close(call, fn(x, lengths), truth)


@public_check("linear_on_pixels", pixel_examples, stored=True)
def compare_linear_on_pixels(fn, pixels, weight, bias, *, truth):
    """``truth``: the layer on the centred pixels, in the layer's dtype."""
    call = fill(translate("{call} for {inputs}", "checks"),
                call="linear_on_pixels(pixels, weight, bias)", inputs=_inputs(pixels, weight, bias))
    result = fn(pixels, weight, bias)
    _expect_close(call, result, truth)


@public_check("swish_grads", swish_examples, stored=True)
def compare_swish_grads(fn, x, w, *, truth):
    """``truth``: ``(loss, grad of x, grad of w)`` for ``sum(silu(relu(x @ w)))``."""
    call = fill(translate("{call} for x of {x}, w of {w}", "checks"), call="swish_grads(x, w)",
                x=describe_tensor(x), w=describe_tensor(w))
    result = fn.harness(swish_harness, x, w)
    if not isinstance(result, (tuple, list)) or len(result) != 3:
        raise Mismatch(fill(translate("{call} returned {kind}; expected a triple (loss, grad_x, "
                                      "grad_w)", "checks"), call=call, kind=type(result).__name__))
    for what, mine, true_value in zip(("loss", "grad_x", "grad_w"), result, truth):
        _expect_close(fill(translate("{call}, {part}", "checks"), call=call, part=what), mine,
                      true_value)


def _expect_no_history(call: str, facts: dict, name: str) -> None:
    nodes = facts.get(f"{name}_nodes", 0)
    if nodes:
        said = translate("{call}: the loss you return still has a graph behind it ({nodes} "
                         "autograd nodes kept alive); it should have no history", "checks") \
            if name == "loss" else \
            translate("{call}: the weights you return still has a graph behind it ({nodes} "
                      "autograd nodes kept alive); it should have no history", "checks")
        raise Mismatch(fill(said, call=call, nodes=nodes))


def _loss_value(call: str, facts: dict, truth: float) -> float:
    loss = facts.get("loss")
    plain = as_plain(loss) if is_tensor(loss) else None
    if plain is not None and plain.numel() == 1 and plain.is_floating_point():
        if facts.get("loss_requires_grad"):
            raise Mismatch(fill(translate("{call}: the mean loss requires grad, so it holds on to "
                                          "the graphs of the batches; return a plain number",
                                          "checks"), call=call))
        loss = plain.item() if plain.device.type != "meta" else loss
    return expect_float(call, loss, truth, rtol=1e-4, atol=1e-4, ints=True,
                        what=translate("the mean loss", "checks"),
                        why=fill(translate("torch gets {truth:.6g} (the mean of the batch losses, "
                                           "each before its step)", "checks"), truth=truth))


@public_check("train_epoch", epoch_examples)
def compare_train_epoch(fn, w, batches, lr):
    call = fill(translate("{call} for w of {w} and {count} batch(es)", "checks"),
                call=f"train_epoch(w, batches, lr={lr})", w=describe_tensor(w),
                count=len(batches))
    true_w, true_loss = torch_train_epoch(w, batches, lr)
    facts = fn.harness(training_harness, w, batches, lr)
    if facts.get("kind") != "pair":
        raise Mismatch(fill(translate("{call} returned a {kind}; expected a pair (w, loss)",
                                      "checks"), call=call, kind=facts.get("kind")))
    _expect_no_history(call, facts, "loss")
    _loss_value(call, facts, true_loss)
    _expect_close(fill(translate("{call}, trained weights", "checks"), call=call),
                  facts.get("weights"), true_w)
    _expect_no_history(call, facts, "weights")
    if not facts.get("weights_requires_grad"):
        raise Mismatch(fill(translate("{call}: the trained weights do not require grad; training "
                                      "could not go on from them", "checks"), call=call))


@public_check("bce_loss", bce_examples)
def compare_bce_loss(fn, probs, targets):
    call = fill(translate("{call} for {inputs}", "checks"), call="bce_loss(probs, targets)",
                inputs=_inputs(probs, targets))
    # rtol 1e-3 also accepts clamping probs at exp(-100) (a subnormal in float32).
    _expect_close(call, fn(probs, targets), torch_bce_loss(probs, targets), rtol=1e-3)


def _warm_up_groups():
    # The student's own claims of each warm-up group where a variant was published beside
    # the notebook (the grader grades the variant of the id that submits:
    # grader/bridge/_variants.py); all three of each where none was.
    yours = your_items("predict_verdicts", list(CLAIMS), quiet=True)
    return [(tuple(claim for claim in GROUPS[group] if claim in yours),) for group in WARM_UP]


@public_check("predict_verdicts", _warm_up_groups)
def compare_predict_verdicts(fn, claims, truths: dict | None = None):
    """The verdicts on ``claims`` (one group's, of the student's variant). ``truths``
    (claim -> verdict) come from torch where the judge decided them; in the student's
    kernel each warm-up verdict is checked against its salted digest instead."""
    answers = fn()
    if not isinstance(answers, dict):
        raise Mismatch(fill(translate("{call} returned {kind}; expected a dict", "checks"),
                            call="predict_verdicts()", kind=type(answers).__name__))
    for claim in claims:
        answer = answers.get(claim)
        if not isinstance(answer, bool):
            raise Mismatch(fill(translate("{item} is {answer}; expected True or False", "checks"),
                                item=f"predict_verdicts()[{claim!r}]", answer=f"{answer!r:.40}"))
        truth = str(truths[claim]) if truths is not None else None
        if not is_right("predict_verdicts", claim, str(answer), truth):
            # The claim's statement stays as the notebook prints CLAIMS: English, like its code.
            raise Mismatch(fill(translate("your verdict on {claim!r} is wrong on torch {version}: "
                                          "{statement}", "checks"),
                                claim=claim, version=torch.__version__.split('+')[0],
                                statement=CLAIMS[claim]))
