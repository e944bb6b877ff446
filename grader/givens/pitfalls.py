"""Chapter 6, pitfalls: the claims of exercise ``predict_verdicts``, as statements only.

Torch decides each claim on the judge's side, at grading time; nothing here
says which are true. Claims come in groups; each group is one hidden check.
"""

__all__ = ["CLAIMS", "GROUPS", "WARM_UP"]

# id -> (group, statement)
_STATEMENTS = {
    "int_true_division": ("promotion", (
        "`torch.tensor([3, 4]) / torch.tensor([2, 2])` is an int64 tensor.")),
    "zero_dim_float64": ("promotion", (
        "Adding a 0-d float64 tensor, `torch.tensor(1.0, dtype=torch.float64)`, to a "
        "float32 tensor gives a float64 tensor.")),
    "uint8_plus_int8": ("promotion", (
        "Adding a uint8 tensor and an int8 tensor gives an int16 tensor.")),
    "contiguous_is_self": ("copies", (
        "On a tensor that is already contiguous, `x.contiguous()` returns the very "
        "same object (`x.contiguous() is x`).")),
    "clone_is_contiguous": ("copies", (
        "`x.t().clone()` is contiguous (for a 2x3 tensor x).")),
    "expand_allocates": ("copies", (
        "`torch.zeros(3, 1).expand(3, 1000)` allocates memory for 3000 floats.")),
    "grad_fills_dot_grad": ("autograd", (
        "`torch.autograd.grad(loss, w)` also stores the gradient in `w.grad`.")),
    "second_backward_raises": ("autograd", (
        "Calling `loss.backward()` a second time on the same graph always raises.")),
    "max_ties_split": ("autograd", (
        "When several elements tie for the maximum, `x.max().backward()` splits the "
        "gradient evenly among them.")),
    "max_skips_nan": ("nan", (
        "`torch.tensor([1.0, float('nan'), 3.0]).max()` ignores the NaN and returns "
        "3.")),
    "sort_nan_last": ("nan", (
        "`torch.sort` (ascending) puts NaN after every number, `inf` included.")),
    "int_div_zero_raises": ("nan", (
        "`torch.tensor([1]) // 0` raises, while `torch.tensor([1.0]) / 0` gives inf.")),
    "squeeze_non_one_raises": ("shapes", (
        "`x.squeeze(0)` raises when dim 0 of x has size 3.")),
    "cat_skips_empty_1d": ("shapes", (
        "`torch.cat([torch.zeros(2, 3), torch.zeros(0)])` works: the empty 1-D tensor"
        " is skipped.")),
    "unsqueeze_minus_one": ("shapes", (
        "`torch.zeros(2, 3).unsqueeze(-1)` has shape (2, 1, 3).")),
}

CLAIMS: dict[str, str] = {claim: statement for claim, (_, statement) in _STATEMENTS.items()}


def _by_group() -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for claim, (group, _) in _STATEMENTS.items():
        groups.setdefault(group, []).append(claim)
    return groups


GROUPS = _by_group()  # group -> its claims, in the order above
WARM_UP = list(GROUPS)[:2]  # groups the public check covers; the rest only at grading
