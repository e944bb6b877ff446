"""Plausible wrong answers for chapter 4 (devices).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment.
"""

WRONG_ANSWERS: dict[str, list[str]] = {
    "to_device": [
        """
import torch

def to_device(batch, device):
    # Mistake: rebuilds every tuple from a generator, which a namedtuple's constructor refuses.
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(item, device) for item in batch)
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    return batch
""",
        """
import torch

def to_device(batch, device):
    # Mistake: plain tuples come back as lists.
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, tuple) and hasattr(type(batch), "_fields"):
        return type(batch)(*(to_device(item, device) for item in batch))
    if isinstance(batch, (list, tuple)):
        return [to_device(item, device) for item in batch]
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    return batch
""",
        """
import torch

def to_device(batch, device):
    # Mistake: clones "to be safe", so a tensor already on the device is copied anyway.
    if isinstance(batch, torch.Tensor):
        return batch.clone().to(device)
    if isinstance(batch, tuple) and hasattr(type(batch), "_fields"):
        return type(batch)(*(to_device(item, device) for item in batch))
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(item, device) for item in batch)
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    return batch
""",
        """
import torch

def to_device(batch, device):
    # Mistake: moves the tensors of the outer container only, not of nested ones.
    def move(value):
        return value.to(device) if isinstance(value, torch.Tensor) else value

    if isinstance(batch, dict):
        return {key: move(value) for key, value in batch.items()}
    if isinstance(batch, tuple) and hasattr(type(batch), "_fields"):
        return type(batch)(*(move(item) for item in batch))
    if isinstance(batch, (list, tuple)):
        return type(batch)(move(item) for item in batch)
    return move(batch)
""",
    ],
    "causal_mask": [
        """
import torch

def causal_mask(scores):
    # Mistake: made with the default dtype on the default device, not like scores.
    queries, keys = scores.shape[-2:]
    return torch.full((queries, keys), float("-inf")).triu(1)
""",
        """
import torch

def causal_mask(scores):
    # Mistake: the boolean mask is made on the CPU and used on scores' device.
    queries, keys = scores.shape[-2:]
    above = torch.ones(queries, keys, dtype=torch.bool).triu(1)
    return scores.new_zeros(queries, keys).masked_fill(above, float("-inf"))
""",
        """
import torch

def causal_mask(scores):
    # Mistake: hides the diagonal too, so a query cannot see its own key.
    queries, keys = scores.shape[-2:]
    mask = torch.full((queries, keys), float("-inf"), dtype=scores.dtype, device=scores.device)
    return mask.triu(0)
""",
        """
import torch

def causal_mask(scores):
    # Mistake: the most negative finite number instead of -inf.
    queries, keys = scores.shape[-2:]
    lowest = torch.finfo(scores.dtype).min
    mask = torch.full((queries, keys), lowest, dtype=scores.dtype, device=scores.device)
    return mask.triu(1)
""",
        """
import torch

def causal_mask(scores):
    # Mistake: built out of the scores (0 * scores), so it requires grad when they do.
    queries, keys = scores.shape[-2:]
    zeros = (scores * 0).flatten(0, -3).sum(0) if scores.dim() > 2 else scores * 0
    above = torch.ones(queries, keys, dtype=torch.bool, device=scores.device).triu(1)
    return zeros.masked_fill(above, float("-inf"))
""",
    ],
    "time_device_work": [
        """
import time
import torch

def time_device_work(work, device, repeats):
    # Mistake (forged): the right calls in the right order, then NaN for the time.
    def wait_for_device():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        elif device.type == "mps":
            torch.mps.synchronize()
    work()
    wait_for_device()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    wait_for_device()
    time.perf_counter() - start
    return float("nan")
""",
        """
import time

def time_device_work(work, device, repeats):
    # Mistake: never synchronises, so on a GPU it times the launches only.
    work()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    return (time.perf_counter() - start) / repeats
""",
        """
import time
import torch

def time_device_work(work, device, repeats):
    # Mistake: synchronises only at the end; the warm-up may still run when the clock starts.
    work()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()
    return (time.perf_counter() - start) / repeats
""",
        """
import time
import torch

def time_device_work(work, device, repeats):
    # Mistake: no warm-up, so the first call's one-off costs are timed.
    def wait():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        elif device.type == "mps":
            torch.mps.synchronize()

    wait()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    wait()
    return (time.perf_counter() - start) / repeats
""",
        """
import time
import torch

def time_device_work(work, device, repeats):
    # Mistake: torch.cuda.synchronize() waits for the current GPU, not the work's.
    def wait():
        if device.type == "cuda":
            torch.cuda.synchronize()
        elif device.type == "mps":
            torch.mps.synchronize()

    work()
    wait()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    wait()
    return (time.perf_counter() - start) / repeats
""",
        """
import time
import torch

def time_device_work(work, device, repeats):
    # Mistake: decides by what the machine has, not by where the work runs.
    def wait():
        if torch.cuda.is_available():
            torch.cuda.synchronize()

    work()
    wait()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    wait()
    return (time.perf_counter() - start) / repeats
""",
    ],
    "pack": [
        """
import torch

def pack(tensors):
    # Mistake: no padding, so slots do not start at multiples of 16 bytes.
    pieces, meta, offset = [], [], 0
    for t in tensors:
        data = t.contiguous().reshape(-1).view(torch.uint8)
        pieces.append(data)
        meta.append((t.dtype, tuple(t.shape), offset))
        offset += data.numel()
    return torch.cat(pieces), meta
""",
        """
import torch

ALIGN = 16

def pack(tensors):
    # Mistake: copies each tensor's whole storage, not its elements in row-major order.
    pieces, meta, offset = [], [], 0
    for t in tensors:
        data = torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage())
        data = data[:t.numel() * t.element_size()]
        padding = -data.numel() % ALIGN
        pieces += [data, data.new_zeros(padding)]
        meta.append((t.dtype, tuple(t.shape), offset))
        offset += data.numel() + padding
    return torch.cat(pieces), meta
""",
        """
import torch

ALIGN = 16

def pack(tensors):
    # Mistake: .to(torch.uint8) converts each element to a byte; it does not give its bytes.
    pieces, meta, offset = [], [], 0
    for t in tensors:
        data = t.contiguous().reshape(-1).to(torch.uint8)
        data = data.repeat_interleave(t.element_size())
        padding = -data.numel() % ALIGN
        pieces += [data, data.new_zeros(padding)]
        meta.append((t.dtype, tuple(t.shape), offset))
        offset += data.numel() + padding
    return torch.cat(pieces), meta
""",
        """
import torch

ALIGN = 16

def pack(tensors):
    # Mistake: the padding is made on the CPU, whatever the tensors' device.
    pieces, meta, offset = [], [], 0
    for t in tensors:
        data = t.contiguous().reshape(-1).view(torch.uint8)
        padding = -data.numel() % ALIGN
        pieces += [data, torch.zeros(padding, dtype=torch.uint8)]
        meta.append((t.dtype, tuple(t.shape), offset))
        offset += data.numel() + padding
    return torch.cat(pieces), meta
""",
    ],
    "unpack": [
        """
import torch

def unpack(buffer, meta):
    # Mistake: .to(dtype) converts each byte to a number instead of reading the bytes.
    tensors = []
    for dtype, shape, offset in meta:
        numel = torch.Size(shape).numel()
        tensors.append(buffer[offset:offset + numel].to(dtype).reshape(shape))
    return tensors
""",
        """
import torch

def unpack(buffer, meta):
    # Mistake: clones each slot "to be safe": copies, not views of the buffer.
    tensors = []
    for dtype, shape, offset in meta:
        nbytes = torch.Size(shape).numel() * dtype.itemsize
        tensors.append(buffer[offset:offset + nbytes].clone().view(dtype).view(shape))
    return tensors
""",
        """
import torch

def unpack(buffer, meta):
    # Mistake: ignores the offsets and assumes the slots are packed without padding.
    tensors, start = [], 0
    for dtype, shape, _ in meta:
        nbytes = torch.Size(shape).numel() * dtype.itemsize
        tensors.append(buffer[start:start + nbytes].view(dtype).view(shape))
        start += nbytes
    return tensors
""",
    ],
}
