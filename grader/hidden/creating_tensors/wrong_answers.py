"""Plausible wrong answers for chapter 2 (creating tensors).

Each entry is the full source of an answer cell: it must lose points on at
least one hidden check of its exercise (and only of its exercise). Each
string names the mistake it makes in its first comment.
"""

_FACTORY_RESULTS = {
    "torch.tensor([1, 2, 3])": "(torch.int64, (3,))",
    "torch.tensor([1, 2.0, True])": "(torch.float32, (3,))",
    "torch.tensor([[True], [False]])": "(torch.bool, (2, 1))",
    "torch.tensor(3.5)": "(torch.float32, ())",
    "torch.tensor([])": "(torch.float32, (0,))",
    "torch.Tensor(2, 3)": "(torch.float32, (2, 3))",
    "torch.Tensor([2, 3])": "(torch.float32, (2,))",
    "torch.tensor(np.zeros(3))": "(torch.float64, (3,))",
    "torch.tensor([np.float64(0.5), 1.5])": "(torch.float64, (2,))",
    "torch.full((2, 2), 7)": "(torch.int64, (2, 2))",
    "torch.ones(())": "(torch.float32, ())",
    "torch.arange(5)": "(torch.int64, (5,))",
    "torch.arange(0.1, 0.4, 0.1)": "(torch.float32, (4,))",
    "torch.linspace(0, 1, 5)": "(torch.float32, (5,))",
    "torch.eye(2, 3)": "(torch.float32, (2, 3))",
    "torch.randint(10, (3,))": "(torch.int64, (3,))",
    "torch.full_like(torch.arange(3), 2.5)": "(torch.int64, (3,))",
    "torch.arange(3).new_tensor([1.5, 2.5])": "(torch.int64, (2,))",
}


def _factory_answer(mistake: str, changes: dict[str, str]) -> str:
    """A factory_results answer: the right table with ``changes`` (by expression) applied."""
    table = {**_FACTORY_RESULTS, **changes}
    assert set(table) == set(_FACTORY_RESULTS), set(table) - set(_FACTORY_RESULTS)
    rows = "\n".join(f"        {expr!r}: {answer}," for expr, answer in table.items())
    return (f"\nimport torch\n\ndef factory_results():\n    # Mistake: {mistake}\n"
            f"    return {{\n{rows}\n    }}\n")


WRONG_ANSWERS: dict[str, list[str]] = {
    "infer_dtype": [
        """
import torch

def infer_dtype(data):
    # Mistake: "Python floats are doubles, so torch.tensor makes float64".
    kinds = set()

    def walk(item):
        if isinstance(item, (list, tuple)):
            for sub in item:
                walk(sub)
        else:
            kinds.add(type(item))

    walk(data)
    if float in kinds or not kinds:
        return torch.float64
    return torch.int64 if int in kinds else torch.bool
""",
        """
import torch

def infer_dtype(data):
    # Mistake: bool is a subclass of int, so isinstance(True, int) counts bools as ints.
    kinds = set()

    def walk(item):
        if isinstance(item, (list, tuple)):
            for sub in item:
                walk(sub)
        elif isinstance(item, float):
            kinds.add("float")
        elif isinstance(item, int):
            kinds.add("int")

    walk(data)
    if "float" in kinds or not kinds:
        return torch.float32
    return torch.int64
""",
        """
import torch

def infer_dtype(data):
    # Mistake: the first number decides the dtype, as if the rest had to follow it.
    item = data
    while isinstance(item, (list, tuple)):
        if not item:
            return torch.float32
        item = item[0]
    if isinstance(item, bool):
        return torch.bool
    return torch.int64 if isinstance(item, int) else torch.float32
""",
        """
import torch

def infer_dtype(data):
    # Mistake: right dtypes, but ragged data never raises (torch.tensor cannot make it).
    kinds = set()

    def walk(item):
        if isinstance(item, (list, tuple)):
            for sub in item:
                walk(sub)
        else:
            kinds.add(type(item))

    walk(data)
    if float in kinds or not kinds:
        return torch.float32
    return torch.int64 if int in kinds else torch.bool
""",
        """
import torch

def infer_dtype(data):
    # Mistake: every ragged input raises ValueError, also a number where a list should be.
    kinds = set()

    def shape_of(item):
        shape = []
        while isinstance(item, (list, tuple)):
            shape.append(len(item))
            if not item:
                break
            item = item[0]
        return shape

    def walk(item, dim):
        if dim == len(shape):
            if isinstance(item, (list, tuple)):
                raise ValueError("a list where a number should be")
            kinds.add(type(item))
            return
        if not isinstance(item, (list, tuple)) or len(item) != shape[dim]:
            raise ValueError("ragged")
        for sub in item:
            walk(sub, dim + 1)

    shape = shape_of(data)
    walk(data, 0)
    if float in kinds or not kinds:
        return torch.float32
    return torch.int64 if int in kinds else torch.bool
""",
    ],
    "factory_results": [
        _factory_answer(
            "Python floats are doubles and the legacy torch.Tensor is torch.tensor.",
            {
                "torch.tensor([1, 2.0, True])": "(torch.float64, (3,))",
                "torch.tensor(3.5)": "(torch.float64, ())",
                "torch.Tensor(2, 3)": "(torch.int64, (2,))",
                "torch.Tensor([2, 3])": "(torch.int64, (2,))",
                "torch.linspace(0, 1, 5)": "(torch.float64, (5,))",
            },
        ),
        _factory_answer(
            "everything is float32 (the default dtype) and arange never includes its end.",
            {
                "torch.tensor([1, 2, 3])": "(torch.float32, (3,))",
                "torch.tensor([[True], [False]])": "(torch.float32, (2, 1))",
                "torch.tensor(np.zeros(3))": "(torch.float32, (3,))",
                "torch.tensor([np.float64(0.5), 1.5])": "(torch.float32, (2,))",
                "torch.full((2, 2), 7)": "(torch.float32, (2, 2))",
                "torch.arange(0.1, 0.4, 0.1)": "(torch.float32, (3,))",
                "torch.full_like(torch.arange(3), 2.5)": "(torch.float32, (3,))",
                "torch.arange(3).new_tensor([1.5, 2.5])": "(torch.float32, (2,))",
            },
        ),
    ],
    "share_or_copy": [
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: "torch.tensor always works and always copies": it refuses negative strides.
    return torch.tensor(as_numpy(x, steps, readonly)), False
""",
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: always from_numpy: fails on negative strides, shares read-only memory.
    return torch.from_numpy(as_numpy(x, steps, readonly)), True
""",
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: "from_numpy needs a C-contiguous array", so transposes and steps are copied.
    array = as_numpy(x, steps, readonly)
    if array.flags.c_contiguous and array.flags.writeable:
        return torch.from_numpy(array), True
    return torch.from_numpy(array.copy()), False
""",
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: copies reversed arrays with torch.tensor, which refuses them too.
    array = as_numpy(x, steps, readonly)
    if any(s < 0 for s in array.strides) or not array.flags.writeable:
        return torch.tensor(array), False
    return torch.from_numpy(array), True
""",
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: a read-only array only triggers a warning, so it is shared anyway.
    array = as_numpy(x, steps, readonly)
    if all(s >= 0 for s in array.strides):
        return torch.from_numpy(array), True
    return torch.from_numpy(array.copy()), False
""",
        """
import torch
from grader.givens.creating_tensors import as_numpy

def share_or_copy(x, steps, readonly):
    # Mistake: reversing a dimension of size 1 changes nothing, so it is shared.
    array = as_numpy(x, steps, readonly)
    flips = any(s < 0 and n > 1 for s, n in zip(array.strides, array.shape))
    if flips or not array.flags.writeable:
        return torch.from_numpy(array.copy()), False
    return torch.from_numpy(array), True
""",
    ],
    "seeded_init": [
        """
import torch

def seeded_init(shapes, seed, dtype):
    # Mistake: draws from the global generator without seeding it.
    return [torch.randn(shape, dtype=dtype) for shape in shapes]
""",
        """
import math
import torch

def seeded_init(shapes, seed, dtype):
    # Mistake: one big draw, split into parameters (randn of n numbers is not
    # the same as draws of the parts once n reaches 16).
    generator = torch.Generator().manual_seed(seed)
    sizes = [math.prod(shape) for shape in shapes]
    flat = torch.randn(sum(sizes), dtype=dtype, generator=generator)
    return [part.reshape(shape) for part, shape in zip(flat.split(sizes), shapes)]
""",
        """
import torch

def seeded_init(shapes, seed, dtype):
    # Mistake: draws in float32, then casts to dtype.
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=generator).to(dtype) for shape in shapes]
""",
        """
import torch

def seeded_init(shapes, seed, dtype):
    # Mistake: reseeds for every parameter, so all parameters start the same way.
    return [torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))
            for shape in shapes]
""",
    ],
    "coo_to_dense": [
        """
import torch

def coo_to_dense(indices, values, size):
    # Mistake: writes each value in turn, so a repeated index keeps only its last value.
    dense = torch.zeros(size)
    for index, value in zip(indices, values):
        dense[tuple(index)] = value
    return dense
""",
        """
import torch

def coo_to_dense(indices, values, size):
    # Mistake: torch.tensor(indices).t() has the wrong shape (and dtype) when there
    # are no entries.
    return torch.sparse_coo_tensor(torch.tensor(indices).t(), torch.tensor(values),
                                   size).to_dense()
""",
        """
import torch

def coo_to_dense(indices, values, size):
    # Mistake: values in float64 (NumPy's habit), not torch's float32.
    index = torch.tensor(indices, dtype=torch.int64).reshape(len(indices), len(size)).t()
    values = torch.tensor(values, dtype=torch.float64)
    return torch.sparse_coo_tensor(index, values, size).to_dense()
""",
    ],
}
