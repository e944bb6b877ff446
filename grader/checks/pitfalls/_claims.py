"""Claims of exercise ``predict_verdicts``: torch deciding them, on the judge's side.

None of them is tested in the lesson: the student predicts each verdict, then
may run it. Every verdict is computed here, on the judge's side, by the
installed torch (``verdict(claim_id)``), never stored. Claims come in groups;
each group is one hidden check, so a partly right answer earns partial credit.
"""

import math

import torch

__all__ = ["verdict"]


def _raises(call) -> bool:
    try:
        call()
    except (RuntimeError, ValueError, IndexError, TypeError):
        return True
    return False


# --- promotion ------------------------------------------------------------------------


def _int_true_division():
    return (torch.tensor([3, 4]) / torch.tensor([2, 2])).dtype == torch.int64


def _zero_dim_float64():
    return (torch.ones(2) + torch.tensor(1.0, dtype=torch.float64)).dtype == torch.float64


def _uint8_plus_int8():
    return (torch.ones(2, dtype=torch.uint8) + torch.ones(2, dtype=torch.int8)).dtype \
        == torch.int16


# --- copies and views -----------------------------------------------------------------


def _contiguous_is_self():
    x = torch.zeros(2, 3)
    return x.contiguous() is x


def _clone_is_contiguous():
    return torch.zeros(2, 3).t().clone().is_contiguous()


def _expand_allocates():
    expanded = torch.zeros(3, 1).expand(3, 1000)
    return expanded.untyped_storage().nbytes() >= 3000 * 4


# --- autograd -------------------------------------------------------------------------


def _grad_fills_dot_grad():
    w = torch.ones(3, requires_grad=True)
    torch.autograd.grad((w * w).sum(), w)
    return w.grad is not None


def _second_backward_raises():
    def twice(make_loss):
        w = torch.ones(3, requires_grad=True)
        loss = make_loss(w)
        loss.backward()
        return _raises(loss.backward)

    return all(twice(f) for f in (lambda w: (w * w).sum(), lambda w: (w + 1).sum()))


def _max_ties_split():
    x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    x.max().backward()
    return torch.equal(x.grad, torch.tensor([0.0, 0.5, 0.5]))


# --- NaN and division -----------------------------------------------------------------


def _max_skips_nan():
    return torch.tensor([1.0, math.nan, 3.0]).max().item() == 3.0


def _sort_nan_last():
    values = torch.tensor([3.0, math.nan, -math.inf, 1.0, math.inf]).sort().values
    return bool(values[-1].isnan()) and not values[:-1].isnan().any()


def _int_div_zero_raises():
    return _raises(lambda: torch.tensor([1]) // 0) and \
        torch.isinf(torch.tensor([1.0]) / 0).all().item()


# --- shapes ---------------------------------------------------------------------------


def _squeeze_non_one_raises():
    return _raises(lambda: torch.zeros(3, 2).squeeze(0))


def _cat_skips_empty_1d():
    try:
        return torch.cat([torch.zeros(2, 3), torch.zeros(0)]).shape == (2, 3)
    except RuntimeError:
        return False


def _unsqueeze_minus_one():
    return torch.zeros(2, 3).unsqueeze(-1).shape == (2, 1, 3)


# id -> how torch decides it (the statements are in grader/givens/pitfalls.py)
_DECIDERS = {
    "int_true_division": _int_true_division,
    "zero_dim_float64": _zero_dim_float64,
    "uint8_plus_int8": _uint8_plus_int8,
    "contiguous_is_self": _contiguous_is_self,
    "clone_is_contiguous": _clone_is_contiguous,
    "expand_allocates": _expand_allocates,
    "grad_fills_dot_grad": _grad_fills_dot_grad,
    "second_backward_raises": _second_backward_raises,
    "max_ties_split": _max_ties_split,
    "max_skips_nan": _max_skips_nan,
    "sort_nan_last": _sort_nan_last,
    "int_div_zero_raises": _int_div_zero_raises,
    "squeeze_non_one_raises": _squeeze_non_one_raises,
    "cat_skips_empty_1d": _cat_skips_empty_1d,
    "unsqueeze_minus_one": _unsqueeze_minus_one,
}


def verdict(claim: str) -> bool:
    """Whether ``claim`` holds on the installed torch, decided now."""
    return bool(_DECIDERS[claim]())
