"""Chapter 1, storage and strides: what its exercises hand the student."""

__all__ = ["OPERATIONS"]

# Exercise 3: expressions on x = torch.arange(12.).reshape(3, 4). Half make views,
# half copies (torch decides, on the judge's side); the notebook imports this list.
OPERATIONS = [
    "x.t()",
    "x.t().reshape(12)",
    "x[:, 1]",
    "x[[0, 2]]",
    "x[::2]",
    "x[x > 5]",
    "x.flatten()",
    "x.t().flatten()",
    "x.narrow(1, 1, 2)",
    "x.clone()",
    "x.expand(2, 3, 4)",
    "x.expand(2, 3, 4).reshape(24)",
    "x.contiguous()",
    "x.t().contiguous()",
    "x.t().reshape(2, 2, 3)",
    "x[:, 1:3].reshape(6)",
]

