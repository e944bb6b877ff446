"""The examples ``check()`` tries for chapter 4 (devices), and the namedtuples batches use.

Batches hold namedtuples of the types below; across the wire a namedtuple
arrives as a fresh namedtuple of the same name and fields. Every example is
built lazily and deterministically.
"""

from collections import namedtuple

import torch

from ...givens.devices import ALIGN
from .._redraw import new_values

__all__ = [
    "NAMEDTUPLES",
    "Batch",
    "sample",
    "to_device_examples",
    "causal_mask_examples",
    "time_device_work_examples",
    "time_device_work_redrawn",
    "pack_examples",
    "pack_redrawn",
    "unpack_examples",
    "unpack_redrawn",
]

Batch = namedtuple("Batch", ["inputs", "targets"])
Pair = namedtuple("Pair", ["first", "second"])
Sample = namedtuple("Sample", ["image", "label", "id"])
NAMEDTUPLES = (Batch, Pair, Sample)

CPU, META = torch.device("cpu"), torch.device("meta")


def sample(shape, dtype=torch.float32, device="cpu") -> torch.Tensor:
    """A tensor of ``shape`` holding 0, 1, 2, ... (bools alternate), contiguous."""
    values = torch.arange(torch.Size(shape).numel())
    values = values % 2 if dtype == torch.bool else values
    return values.to(dtype).reshape(shape).to(device)


def to_device_examples():
    x, y = sample((2, 3)), sample((4,), torch.int64)
    on_meta = sample((3,), device="meta")
    return [  # (batch, device)
        (x, META),
        ({"x": x, "y": y, "name": "a"}, META),
        ([x.t(), 3, None, "label"], CPU),  # already there: no copy
        (Batch(inputs=x, targets=y), META),  # rebuild a namedtuple field by field
        ((x, [y, {"mask": sample((2, 2), torch.bool)}]), META),
        ({"pair": Pair(x[:, ::2], 1.5), "flags": (None, True)}, CPU),
        ([on_meta, y.expand(2, 4)], META),
        ("just a string", META),
        (7, CPU),
        ({}, META),
        ((), CPU),
        (Sample(image=x, label=[2, y], id="s1"), META),
    ]


def causal_mask_examples():
    return [  # (scores,)
        (sample((4, 3, 3)) / 10,),
        (sample((2, 4)),),  # fewer queries than keys
        (sample((4, 2)),),  # more queries than keys
        (sample((2, 8, 5, 5), torch.float16, "meta"),),  # built where scores live
        (sample((3, 3), torch.float64),),
        (sample((1, 2, 3), torch.bfloat16),),
        ((sample((3, 3)) / 10).requires_grad_(True),),  # a mask is a constant
        (sample((3, 5)).t(),),  # transposed scores
        (sample((2, 0, 3)),),
    ]


def time_device_work_examples():
    cuda = torch.device("cuda")
    return [  # (device, repeats, tick, what is_available says)
        (CPU, 3, 0.25, []),
        (cuda, 5, 0.125, ["cuda"]),
        (torch.device("mps"), 2, 1.5, ["mps"]),
        (torch.device("cuda:1"), 4, 0.5, ["cuda"]),  # not the current device
        (CPU, 2, 0.75, ["cuda"]),  # CPU work on a machine that has a GPU
        (torch.device("cuda:0"), 1, 2.0, ["cuda"]),
    ]


def time_device_work_redrawn(example, rng):
    # Another count of timed calls (at least 1) and tick (k/8 s: exact in binary, as the
    # fake clock's readings then are); the device and what is available kept.
    device, _, _, available = example
    return device, rng.randint(1, 6), rng.randint(1, 16) / 8, available


def _mixed():
    return [sample((3,)), sample((2, 2), torch.int64), sample((5,), torch.bool),
            sample((), torch.float16)]


def pack_examples():
    x = sample((3, 4))
    return [  # (tensors,)
        ([x],),
        (_mixed(),),  # slots start at multiples of 16 bytes
        ([x.t(), x[:, ::2], x[1:, 1:]],),  # not contiguous: their elements, in row order
        ([sample((3,), torch.int8).expand(2, 3), sample((2,), torch.complex64)],),
        ([sample((0, 3)), sample((2,), torch.float64), sample((0,), torch.int16)],),
        ([sample((2, 3), torch.bfloat16, "meta"), sample((5,), torch.int32, "meta")],),
        ([sample((1,), torch.uint8), sample((1,), torch.complex128)],),
    ]


def pack_redrawn(example, rng):
    # The tensors shuffled (the slots move) over new values of their dtypes (any bytes
    # pack alike); layouts, dtypes and the one device kept.
    tensors = [new_values(tensor, rng) for tensor in example[0]]
    rng.shuffle(tensors)
    return (tensors,)


def unpack_examples():
    return [  # (tensors, lead): the buffer starts `lead` bytes into its storage
        ([sample((3, 4))], 0),
        (_mixed(), 0),
        (_mixed(), 32),
        ([sample((2, 3), torch.complex128), sample((), torch.int8)], 16),
        ([sample((0, 2)), sample((3,), torch.float64)], 0),
        ([sample((2, 3), torch.bfloat16, "meta"), sample((5,), torch.int32, "meta")], 16),
    ]


def unpack_redrawn(example, rng):
    # pack's rule, and the buffer another multiple of ALIGN bytes into its storage.
    return *pack_redrawn(example[:1], rng), ALIGN * rng.randint(0, 3)
