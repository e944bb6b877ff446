"""Torch's answer to chapter 4's pack: the judge's side only (``grader.hidden.oracles``).

The packing algorithm (slots padded to ``ALIGN`` bytes, each tensor's elements
in row-major order) is the exercise itself. ``unpack``'s input is what ``pack``
makes, so its check takes this same truth. Moved here from
``grader/checks/devices/_oracle.py``.
"""

import torch

from grader.givens.devices import ALIGN

from .._oracle_registry import oracle

__all__ = ["slot_bytes", "torch_pack_meta", "torch_pack", "torch_unpack_truth"]


def slot_bytes(nbytes: int) -> int:
    """A tensor's slot in a packed buffer: its bytes, padded up to a multiple of ALIGN."""
    return -(-nbytes // ALIGN) * ALIGN


def torch_pack_meta(tensors) -> list[tuple]:
    """``(dtype, shape, byte offset)`` per tensor; computed without reading any data."""
    meta, offset = [], 0
    for t in tensors:
        meta.append((t.dtype, tuple(t.shape), offset))
        offset += slot_bytes(t.numel() * t.element_size())
    return meta


@oracle("pack")
def torch_pack(tensors) -> tuple[torch.Tensor, list[tuple]]:
    """The packed buffer (on the tensors' device) and its meta, element by element."""
    meta = torch_pack_meta(tensors)
    size = meta[-1][2] + slot_bytes(tensors[-1].numel() * tensors[-1].element_size())
    buffer = torch.zeros(size, dtype=torch.uint8, device=tensors[0].device)
    for t, (_, _, offset) in zip(tensors, meta):
        data = t.detach().contiguous().reshape(-1).view(torch.uint8)
        buffer[offset:offset + data.numel()] = data
    return buffer, meta


@oracle("unpack")
def torch_unpack_truth(tensors, lead: int) -> tuple[torch.Tensor, list[tuple]]:
    """unpack's input is what pack makes, placed ``lead`` bytes into its storage: the
    truth it is checked against is pack's, whatever the lead."""
    return torch_pack(tensors)
