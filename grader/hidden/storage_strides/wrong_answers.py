"""Plausible wrong answers for chapter 1 (storage and strides).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment.
"""

WRONG_ANSWERS: dict[str, list[str]] = {
    "contiguous_strides": [
        """
def contiguous_strides(shape):
    # Mistake: column-major (Fortran) order, the first dim gets stride 1.
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
""",
        """
import math

def contiguous_strides(shape):
    # Mistake: a plain product of the later sizes, so a size-0 dim zeroes the strides
    # before it (torch counts it as 1).
    return tuple(math.prod(shape[d + 1:]) for d in range(len(shape)))
""",
        """
def contiguous_strides(shape):
    # Mistake: builds the strides from the last dim but forgets to reverse them.
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
""",
    ],
    "storage_position": [
        """
def storage_position(index, shape, stride, storage_offset):
    # Mistake: forgets the storage offset.
    position = 0
    for i, size, step in zip(index, shape, stride):
        if not -size <= i < size:
            raise IndexError(f"index {i} out of range")
        position += (i % size) * step
    return position
""",
        """
def storage_position(index, shape, stride, storage_offset):
    # Mistake: negative indices are used as they are, not counted from the end.
    position = storage_offset
    for i, size, step in zip(index, shape, stride):
        if i >= size:
            raise IndexError(f"index {i} out of range")
        position += i * step
    return position
""",
        """
def storage_position(index, shape, stride, storage_offset):
    # Mistake: no bounds check, so out-of-range indices give a position.
    position = storage_offset
    for i, size, step in zip(index, shape, stride):
        position += (i % size if size else i) * step
    return position
""",
        """
def storage_position(index, shape, stride, storage_offset):
    # Mistake: assumes the tensor is contiguous and ignores the given strides.
    position, step = storage_offset, 1
    for i, size in reversed(list(zip(index, shape))):
        if not -size <= i < size:
            raise IndexError(f"index {i} out of range")
        position += (i % size) * step
        step *= max(size, 1)
    return position
""",
    ],
    "view_or_copy": [
        """
from grader.givens.storage_strides import OPERATIONS

def view_or_copy():
    # Mistake: "PyTorch never copies unless asked": everything is a view.
    return {operation: "view" for operation in OPERATIONS}
""",
        """
from grader.givens.storage_strides import OPERATIONS

def view_or_copy():
    # Mistake: only clone() and contiguous() copy; reshape, flatten and indexing view.
    return {
        operation: "copy" if "clone" in operation or "contiguous" in operation else "view"
        for operation in OPERATIONS
    }
""",
        """
from grader.givens.storage_strides import OPERATIONS

def view_or_copy():
    # Mistake: "reshape and flatten always copy; slicing and t() view".
    copies = ("reshape", "flatten", "clone", "contiguous", "[[", ">")
    return {
        operation: "copy" if any(word in operation for word in copies) else "view"
        for operation in OPERATIONS
    }
""",
    ],
    "diagonal_view": [
        """
def diagonal_view(x):
    # Mistake: right values, but a copy that does not share x's storage.
    return x.diagonal().clone()
""",
        """
def diagonal_view(x):
    # Mistake: assumes x is contiguous and starts at storage position 0.
    n = min(x.shape)
    return x.as_strided((n,), (x.shape[1] + 1,), 0)
""",
        """
def diagonal_view(x):
    # Mistake: uses x's strides but forgets its storage offset.
    n = min(x.shape)
    return x.as_strided((n,), (x.stride(0) + x.stride(1),), 0)
""",
        """
def diagonal_view(x):
    # Mistake: assumes a square matrix, so the length is the number of rows.
    n = x.shape[0]
    return x.as_strided((n,), (x.stride(0) + x.stride(1),), x.storage_offset())
""",
    ],
    "sliding_windows": [
        """
import torch

def sliding_windows(x, size, step):
    # Mistake: right values, but stacking slices makes a copy.
    starts = range(0, len(x) - size + 1, step)
    return torch.stack([x[start:start + size] for start in starts])
""",
        """
def sliding_windows(x, size, step):
    # Mistake: assumes x has stride 1 (contiguous).
    n_windows = (len(x) - size) // step + 1
    return x.as_strided((n_windows, size), (step, 1), x.storage_offset())
""",
        """
def sliding_windows(x, size, step):
    # Mistake: off by one in the number of windows.
    n_windows = (len(x) - size) // step
    (s,) = x.stride()
    return x.as_strided((n_windows, size), (step * s, s), x.storage_offset())
""",
        """
def sliding_windows(x, size, step):
    # Mistake: forgets x's storage offset.
    n_windows = (len(x) - size) // step + 1
    (s,) = x.stride()
    return x.as_strided((n_windows, size), (step * s, s), 0)
""",
    ],
    "can_view": [
        """
def can_view(shape, stride, new_shape):
    # Mistake: "view works iff the tensor is contiguous".
    expected, step = [], 1
    for size in reversed(shape):
        expected.append(step)
        step *= max(size, 1)
    return tuple(stride) == tuple(reversed(expected))
""",
        """
def can_view(shape, stride, new_shape):
    # Mistake: "same number of elements, so view always works".
    return True
""",
        """
def can_view(shape, stride, new_shape):
    # Mistake: size-1 dims keep their strides, so they can break a chunk.
    if 0 in shape:
        return True
    chunks = []
    for d, (n, s) in enumerate(zip(shape, stride)):
        if d and stride[d - 1] == n * s:
            chunks[-1] *= n
        else:
            chunks.append(n)
    sizes = iter(n for n in new_shape if n != 1)
    for chunk in chunks:
        product = 1
        while product < chunk:
            product *= next(sizes)
        if product != chunk:
            return False
    return True
""",
        """
def can_view(shape, stride, new_shape):
    # Mistake: the chunk rule, but tensors with no elements are not special-cased.
    dims = [(n, s) for n, s in zip(shape, stride) if n != 1]
    chunks = []
    for d, (n, s) in enumerate(dims):
        if d and dims[d - 1][1] == n * s:
            chunks[-1] *= n
        else:
            chunks.append(n)
    sizes = iter(n for n in new_shape if n != 1)
    for chunk in chunks:
        product = 1
        while product < chunk:
            product *= next(sizes)
        if product != chunk:
            return False
    return True
""",
    ],
    "strided_sum": [
        """
def strided_sum(storage, shape, stride, offset, dim):
    # Mistake: forgets the storage offset, so it starts reading at storage[0].
    dim = dim % len(shape)
    kept = [d for d in range(len(shape)) if d != dim]

    def fill(level, position):
        if level == len(kept):
            return sum(storage[position + k * stride[dim]] for k in range(shape[dim]))
        d = kept[level]
        return [fill(level + 1, position + i * stride[d]) for i in range(shape[d])]

    return fill(0, 0)
""",
        """
def strided_sum(storage, shape, stride, offset, dim):
    # Mistake: ignores the given strides and uses a contiguous tensor's, as if every
    # layout were row-major.
    dim = dim % len(shape)
    stride, step = [0] * len(shape), 1
    for d in reversed(range(len(shape))):
        stride[d] = step
        step *= max(shape[d], 1)
    kept = [d for d in range(len(shape)) if d != dim]

    def fill(level, position):
        if level == len(kept):
            return sum(storage[position + k * stride[dim]] for k in range(shape[dim]))
        d = kept[level]
        return [fill(level + 1, position + i * stride[d]) for i in range(shape[d])]

    return fill(0, offset)
""",
        """
def strided_sum(storage, shape, stride, offset, dim):
    # Mistake: sums the storage slice the tensor spans, one element after another
    # (step 1), instead of stepping by the summed dim's stride.
    dim = dim % len(shape)
    kept = [d for d in range(len(shape)) if d != dim]

    def fill(level, position):
        if level == len(kept):
            return sum(storage[position + k] for k in range(shape[dim]))
        d = kept[level]
        return [fill(level + 1, position + i * stride[d]) for i in range(shape[d])]

    return fill(0, offset)
""",
        """
def strided_sum(storage, shape, stride, offset, dim):
    # Mistake: keeps the summed dim as a dimension of size 1 (like keepdim=True).
    dim = dim % len(shape)

    def fill(d, position):
        if d == len(shape):
            return storage[position]
        if d == dim:
            return [sum_over(d + 1, position)]
        return [fill(d + 1, position + i * stride[d]) for i in range(shape[d])]

    def sum_over(d, position):
        # the summed dim's elements, each the rest of the tensor at that index
        total = None
        for k in range(shape[dim]):
            part = fill(d, position + k * stride[dim])
            total = part if total is None else add(total, part)
        return total if total is not None else zeros(d)

    def add(a, b):
        return [add(x, y) for x, y in zip(a, b)] if isinstance(a, list) else a + b

    def zeros(d):
        return [zeros(d + 1) for _ in range(shape[d])] if d < len(shape) else 0

    return fill(0, offset)
""",
        """
import torch

def strided_sum(storage, shape, stride, offset, dim):
    # Mistake: the right numbers, but from torch.as_strided, which the rule (no torch) forbids.
    return torch.as_strided(torch.tensor(storage), shape, stride, offset).sum(dim).tolist()
""",
    ],
}
