"""Plausible wrong answers for chapter 3 (shape operations, indexing, broadcasting).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment. For the puzzles,
some answers compute the right values but break the rules: the hidden
checks read the code, so those must lose points too.
"""

WRONG_ANSWERS: dict[str, list[str]] = {
    "broadcast_shape": [
        """
def broadcast_shape(*shapes):
    # Mistake: aligns the shapes from the left (pads missing dims at the end).
    ndim = max((len(s) for s in shapes), default=0)
    padded = [tuple(s) + (1,) * (ndim - len(s)) for s in shapes]
    result = []
    for sizes in zip(*padded):
        distinct = set(sizes) - {1}
        if len(distinct) > 1:
            raise RuntimeError("shapes do not broadcast")
        result.append(distinct.pop() if distinct else 1)
    return tuple(result)
""",
        """
def broadcast_shape(*shapes):
    # Mistake: takes the largest size per dim and never checks for a clash.
    ndim = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    return tuple(max(sizes) for sizes in zip(*padded))
""",
        """
def broadcast_shape(*shapes):
    # Mistake: the largest size wins, so 1 and 0 give 1 (torch: 0) and 0 never clashes.
    ndim = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    result = []
    for sizes in zip(*padded):
        big = max(sizes)
        if any(n not in (1, big) and n != 0 for n in sizes):
            raise RuntimeError("shapes do not broadcast")
        result.append(big)
    return tuple(result)
""",
        """
def broadcast_shape(*shapes):
    # Mistake: raises ValueError; torch raises RuntimeError.
    ndim = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    result = []
    for sizes in zip(*padded):
        distinct = set(sizes) - {1}
        if len(distinct) > 1:
            raise ValueError("shapes do not broadcast")
        result.append(distinct.pop() if distinct else 1)
    return tuple(result)
""",
    ],
    "source_index": [
        """
def source_index(out_index, in_shape, out_shape):
    # Mistake: keeps the output's index in stretched dims (should read index 0 there).
    lead = len(out_shape) - len(in_shape)
    return tuple(out_index[lead:])
""",
        """
def source_index(out_index, in_shape, out_shape):
    # Mistake: aligns from the left, taking the first len(in_shape) indices.
    return tuple(0 if n == 1 else i for i, n in zip(out_index, in_shape))
""",
        """
def source_index(out_index, in_shape, out_shape):
    # Mistake: pads the input shape with leading 1s and returns an index that long.
    padded = (1,) * (len(out_shape) - len(in_shape)) + tuple(in_shape)
    return tuple(0 if n == 1 else i for i, n in zip(out_index, padded))
""",
    ],
    "unbroadcast": [
        """
def unbroadcast(grad, shape):
    # Mistake: sums away the leading dims only; the size-1 dims are left at full size.
    lead = grad.dim() - len(shape)
    return grad.sum(dim=tuple(range(lead))) if lead else grad
""",
        """
def unbroadcast(grad, shape):
    # Mistake: sums the size-1 dims without keepdim, so they disappear.
    lead = grad.dim() - len(shape)
    ones = tuple(lead + d for d, n in enumerate(shape) if n == 1)
    dims = tuple(range(lead)) + ones
    return grad.sum(dim=dims) if dims else grad
""",
        """
def unbroadcast(grad, shape):
    # Mistake: averages instead of summing (each copy of x contributed in full).
    lead = grad.dim() - len(shape)
    dims = tuple(range(lead)) + tuple(lead + d for d, n in enumerate(shape) if n == 1)
    return grad.mean(dim=dims, keepdim=True).reshape(shape) if dims else grad
""",
        """
def unbroadcast(grad, shape):
    # Mistake: returns a float32 result whatever the gradient's dtype.
    lead = grad.dim() - len(shape)
    dims = tuple(range(lead)) + tuple(lead + d for d, n in enumerate(shape) if n == 1)
    summed = grad.sum(dim=dims, keepdim=True) if dims else grad
    return summed.reshape(shape).float()
""",
    ],
    "batched_matmul": [
        """
def batched_matmul(a, b):
    # Mistake (rules): the right values, but with `@`, which the rules forbid.
    return a @ b
""",
        """
import torch

def batched_matmul(a, b):
    # Mistake (rules): the right values, but a loop over the inner dimension.
    total = a[..., :, 0:1] * b[..., 0:1, :]
    for j in range(1, a.shape[-1]):
        total = total + a[..., :, j:j + 1] * b[..., j:j + 1, :]
    return total if a.shape[-1] else torch.matmul(a, b)
""",
        """
def batched_matmul(a, b):
    # Mistake: sums over the wrong dim of the (..., n, k, m) products.
    return (a.unsqueeze(-1) * b.unsqueeze(-3)).sum(-1)
""",
        """
def batched_matmul(a, b):
    # Mistake: pairs a's rows with b's rows (b used as if already transposed).
    return (a.unsqueeze(-2) * b.unsqueeze(-3)).sum(-1)
""",
    ],
    "stable_softmax": [
        """
def stable_softmax(x, dim):
    # Mistake: the textbook formula: exp(1000) is inf, inf / inf is nan.
    e = x.exp()
    return e / e.sum(dim, keepdim=True)
""",
        """
def stable_softmax(x, dim):
    # Mistake: subtracts the global max, not each slice's: far-below slices underflow to 0 / 0.
    if x.numel() == 0:
        return x.clone()
    e = (x - x.max()).exp()
    return e / e.sum(dim, keepdim=True)
""",
        """
def stable_softmax(x, dim):
    # Mistake: forgets empty tensors: amax over a zero-size dim raises.
    e = (x - x.amax(dim, keepdim=True)).exp()
    return e / e.sum(dim, keepdim=True)
""",
        """
import torch

def stable_softmax(x, dim):
    # Mistake (rules): calls torch.softmax, which the rules forbid.
    return torch.softmax(x, dim)
""",
    ],
    "one_hot": [
        """
import torch

def one_hot(labels, num_classes):
    # Mistake: no new dim for the classes: broadcasts (n,) against (C,) position by position.
    return (labels == torch.arange(num_classes)).long()
""",
        """
import torch

def one_hot(labels, num_classes):
    # Mistake: classes first, shape (C, *labels.shape) instead of (*labels.shape, C).
    return (labels.unsqueeze(0) == torch.arange(num_classes).unsqueeze(-1)).long()
""",
        """
import torch

def one_hot(labels, num_classes):
    # Mistake: returns booleans; F.one_hot gives int64.
    return labels.unsqueeze(-1) == torch.arange(num_classes)
""",
        """
import torch.nn.functional as F

def one_hot(labels, num_classes):
    # Mistake (rules): calls F.one_hot, which the rules forbid.
    return F.one_hot(labels, num_classes)
""",
    ],
    "last_tokens": [
        """
def last_tokens(x, lengths):
    # Mistake: takes the last position of every sequence, ignoring lengths.
    return x[:, -1]
""",
        """
def last_tokens(x, lengths):
    # Mistake: no expand: gather's index has 1 feature, so only feature 0 comes back.
    return x.gather(1, (lengths - 1).view(-1, 1, 1)).squeeze(1)
""",
        """
import torch

def last_tokens(x, lengths):
    # Mistake (rules): the right values, with advanced indexing, which the rules forbid.
    return x[torch.arange(x.shape[0]), lengths - 1]
""",
        """
def last_tokens(x, lengths):
    # Mistake: off by one: a length is not an index (gather fails at length T).
    return x.gather(1, lengths.view(-1, 1, 1).expand(-1, 1, x.size(2))).squeeze(1)
""",
    ],
    "add_at_": [
        """
def add_at_(target, index, values):
    # Mistake: advanced-index += keeps one update per repeated row, not their sum.
    target[index] += values
    return target
""",
        """
def add_at_(target, index, values):
    # Mistake: not in place: a new tensor comes back and target is unchanged.
    return target.index_add(0, index, values)
""",
        """
def add_at_(target, index, values):
    # Mistake: a non-contiguous target is copied by contiguous(), so the sums land in the copy.
    dense = target.contiguous()
    return dense.index_add_(0, index, values)
""",
        """
def add_at_(target, index, values):
    # Mistake: right values in target, but returns a copy instead of target itself.
    target.index_add_(0, index, values)
    return target.clone()
""",
        """
def add_at_(target, index, values):
    # Mistake: writes over the whole flat storage order, as if target were contiguous.
    flat = target.as_strided((target.numel(),), (1,), target.storage_offset())
    rows = target[0].numel()
    for i, row in enumerate(index.tolist()):
        flat[row * rows:(row + 1) * rows] += values[i].reshape(-1)
    return target
""",
    ],
}
