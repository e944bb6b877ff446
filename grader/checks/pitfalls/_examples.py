"""The examples ``check(fn)`` tries for chapter 6 (pitfalls), built fresh on each call.

Each list starts with the case the broken snippet handles and goes on to the
cases that break it: non-contiguous layouts, a batch of one, meta tensors,
other dtypes, pixels below 128, probabilities of exactly 0 and 1.
"""

import math

import torch

__all__ = [
    "image_examples",
    "masked_examples",
    "pixel_examples",
    "swish_examples",
    "epoch_examples",
    "bce_examples",
]


def _counting(*shape, dtype=torch.float32) -> torch.Tensor:
    return torch.arange(math.prod(shape)).to(dtype).reshape(shape)


def _smooth(*shape, dtype=torch.float32, shift=0.0, scale=1.0) -> torch.Tensor:
    k = torch.arange(math.prod(shape), dtype=torch.float64)
    return (torch.sin(k * 1.37 + 0.5 + shift) * scale).to(dtype).reshape(shape)


def _meta(t: torch.Tensor) -> torch.Tensor:
    return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")


def image_examples():
    def weight(features):
        return (torch.arange(features) % 5 - 2).float().reshape(features, 1)

    channels_last = _counting(2, 2, 2, 3).permute(0, 3, 1, 2)  # (B, C, H, W), C in memory last
    return [  # (images, weight)
        (_counting(2, 3, 2, 2), weight(12)),
        (channels_last, weight(12)),  # not contiguous
        (_counting(1, 3, 2, 2), weight(12)),  # a batch of one
        (_counting(1, 2, 2, 3).permute(0, 3, 1, 2), weight(12)),
        (_counting(3, 2, 2, 4)[..., ::2], weight(8)),  # every other column
        (_counting(3, 1, 1, 1), weight(1)),
        (_counting(2, 3, 4, 1).transpose(1, 3), weight(3 * 3 * 4)[::3]),
    ]


def masked_examples():
    x = _counting(2, 4, 3)
    lengths = torch.tensor([4, 2])
    return [  # (x, lengths)
        (x, lengths),
        (_counting(3, 2, 4, dtype=torch.float64).transpose(1, 2), torch.tensor([1, 4, 2])),
        (_meta(x), _meta(lengths)),  # meta tensors: shapes, dtypes, devices, no values
        (_counting(2, 3, 2, dtype=torch.float16), torch.tensor([3, 1])),
        (_counting(2, 3, 2, dtype=torch.bfloat16), torch.tensor([2, 2])),
        (_meta(_counting(5, 7, 2, dtype=torch.float16)), _meta(torch.ones(5, dtype=torch.int64))),
        (_counting(0, 3, 2), torch.zeros(0, dtype=torch.int64)),
    ]


def pixel_examples():
    def weight(k, d, dtype=torch.float32):
        return ((torch.arange(k * d) % 17 - 8) / 8).to(dtype).reshape(k, d)

    def bias(k, dtype=torch.float32):
        return ((torch.arange(k) % 9 - 4) / 4).to(dtype)

    pixels = torch.tensor([[0, 100, 200, 255], [128, 127, 1, 64]], dtype=torch.uint8)
    return [  # (pixels, weight, bias)
        (pixels.to(torch.float32), weight(3, 4), bias(3)),
        (pixels, weight(3, 4), bias(3)),  # uint8: pixels below 128
        (pixels.to(torch.int64), weight(2, 4, torch.float64), bias(2, torch.float64)),
        (pixels.to(torch.float64), weight(3, 4), bias(3)),  # the model stays float32
        (pixels.t().contiguous().t(), weight(4, 4).t().contiguous().t(), bias(4)),
        (torch.zeros(0, 4, dtype=torch.uint8), weight(2, 4), bias(2)),
    ]


def swish_examples():
    def leaf(t):
        return t.requires_grad_(True)

    return [  # (x, w)
        (leaf(_smooth(3, 2)), leaf(_smooth(2, 4, shift=1.0))),
        (leaf(_smooth(2, 3, dtype=torch.float64).t()), leaf(_smooth(2, 2, dtype=torch.float64))),
        (leaf(_smooth(1, 4)), leaf(_smooth(3, 4, shift=2.0).t())),
        (leaf(_smooth(4, 3)[::2]), leaf(_smooth(3, 0))),
    ]


def epoch_examples():
    def batch(n, d, k, step):
        return _smooth(n, d, shift=step + 1.0), _smooth(n, k, shift=step + 2.0)

    return [  # (w, batches, lr)
        (_smooth(2, 1, scale=0.5).requires_grad_(True), [batch(3, 2, 1, 0)], 0.1),
        (_smooth(3, 2, scale=0.5).requires_grad_(True), [batch(4, 3, 2, s) for s in range(3)],
         0.05),
        (_smooth(2, 3, scale=0.5).t().requires_grad_(True), [batch(2, 3, 2, s) for s in range(2)],
         0.2),
    ]


def bce_examples():
    def pair(probs, targets, dtype=torch.float32):
        return torch.tensor(probs, dtype=dtype), torch.tensor(targets, dtype=dtype)

    return [  # (probs, targets)
        pair([0.9, 0.2, 0.5], [1.0, 0.0, 1.0]),
        pair([[0.0, 1.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]),  # sure, right and wrong
        pair([0.0, 1.0, 0.0], [0.5, 0.5, 0.25]),  # soft targets
        pair([1e-44, 1e-30, 1.0 - 1e-8], [1.0, 1.0, 0.0]),  # tiny: log below -100
        pair([1e-50, 1e-20, 1.0 - 1e-17], [1.0, 1.0, 0.0], torch.float64),
        (torch.tensor([[0.0, 0.3], [0.7, 1.0]]).t(), torch.tensor([[1.0, 0.0], [1.0, 0.0]])),
    ]
