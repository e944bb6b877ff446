"""Chapter 2, creating tensors: one public check per exercise.

Each ``compare_<exercise>(fn, *example)`` calls the student's ``fn`` on one
example, asks torch for the truth, and raises ``Mismatch`` with a small
counterexample when they disagree. The hidden checks
(``grader/hidden/creating_tensors/test.py``) reuse these same functions on
hypothesis-generated inputs, so public and hidden checks cannot drift apart.

seeded_init's truth is the exercise itself (one private generator, one draw per
shape): its comparison takes it as ``truth=``, from
``grader.hidden.creating_tensors.oracles`` in the judge and stored with the
public examples at release in the student's kernel (``stored=True``).
"""

import torch

from ..._errors import StudentRaised
from ...givens.creating_tensors import EXPRESSIONS, as_numpy
from ...givens.variants import your_items
from .._compare import expect_tensor, shares_storage
from .._digests import factory_items, is_right
from .._registry import Mismatch, public_check
from .._test_cell import fill, translate
from ._oracle import (
    describe_array,
    describe_input,
    torch_coo_to_dense,
    torch_from_numpy_shares,
    torch_infer_dtype,
)

__all__ = [
    "sample_tensor",
    "compare_infer_dtype",
    "compare_factory_results",
    "compare_share_or_copy",
    "compare_seeded_init",
    "compare_coo_to_dense",
]



def sample_tensor(shape, stride, dtype=torch.int64) -> torch.Tensor:
    """A tensor with this layout (storage offset 0) over a storage holding 0, 1, 2, ...

    Used by ``share_or_copy``'s examples; booleans alternate False, True.
    """
    extent = 1 + sum((n - 1) * s for n, s in zip(shape, stride)) if 0 not in shape else 1
    storage = torch.arange(extent)
    storage = storage % 2 if dtype == torch.bool else storage
    return storage.to(dtype).as_strided(shape, stride)


# --- 1. infer_dtype -------------------------------------------------------------------


def _infer_dtype_examples():
    return [
        ([1, 2, 3],),
        ([1.0, 2.0],),  # Python floats: the default dtype, float32
        ([True, False],),
        ([1, 2.5],),  # mixed: the widest kind wins
        ([True, 2],),
        ([[True], [0.5]],),
        (7,),  # a single number is a 0-d tensor
        (2.5,),
        (False,),
        ([],),  # no numbers at all
        ([[], []],),
        (((1, 2), (3, 4)),),  # tuples count as lists
        ([[1, 2], [3]],),  # ragged: lengths differ
        ([[1], []],),
        ([[], [1]],),  # an empty first list: no values, torch looks no further
        ([[1, 2], 3],),  # ragged: a number where a list should be
        ([1, [2]],),  # ragged: a list where a number should be
    ]


def _infer_dtype_redrawn(example, rng):
    # Each number a new one of its kind, a list of numbers shuffled (the kinds in another
    # order); lists of lists kept in order: the order is the example ([[1], []] raises
    # ValueError, [[], [1]] is an empty tensor: torch reads the first list's length).
    return (_renumbered(example[0], rng),)


def _renumbered(data, rng):
    if isinstance(data, (list, tuple)):
        items = [_renumbered(item, rng) for item in data]
        if not any(isinstance(item, (list, tuple)) for item in items):
            rng.shuffle(items)
        return type(data)(items)
    if type(data) is bool:  # before int: a bool is an int to isinstance
        return rng.random() < 0.5
    return rng.randint(-9, 9) if type(data) is int else round(rng.uniform(-9, 9), 2)


@public_check("infer_dtype", _infer_dtype_examples, redraw=_infer_dtype_redrawn)
def compare_infer_dtype(fn, data):
    truth = torch_infer_dtype(data)
    call = f"infer_dtype({data!r})"
    raises = isinstance(truth, tuple)
    try:
        result = fn(data)
    except StudentRaised as err:
        if raises and err.type_name == truth[0]:
            return
        if raises:
            raise Mismatch(fill(translate("{call} raised {kind}; torch.tensor raises {error} "
                                          "({message})", "checks"),
                                call=call, kind=err.type_name, error=truth[0],
                                message=truth[1])) from None
        raise
    if raises:
        raise Mismatch(fill(translate("{call} returned {result!r}; torch.tensor raises {error} "
                                      "({message})", "checks"),
                            call=call, result=result, error=truth[0], message=truth[1]))
    if not isinstance(result, torch.dtype):
        raise Mismatch(fill(translate("{call} returned {result!r} ({kind}); expected a "
                                      "torch.dtype such as torch.float32", "checks"),
                            call=call, result=result, kind=type(result).__name__))
    if result != truth:
        raise Mismatch(fill(translate("{call} returned {result}; torch.tensor makes {truth}",
                                      "checks"), call=call, result=result, truth=truth))


# --- 2. factory_results ---------------------------------------------------------------


def _factory_results_examples():
    # The student's own variant where one was published beside the notebook (the grader
    # grades the variant of the id that submits: grader/bridge/_variants.py).
    return [(expression,) for expression in your_items("factory_results", EXPRESSIONS,
                                                       quiet=True)]


@public_check("factory_results", _factory_results_examples)
def compare_factory_results(fn, expression, truth: tuple | None = None):
    """``truth`` is torch's (dtype, shape) where the judge computed it; in the student's
    kernel each half is checked against its salted digest instead (``_digests``)."""
    answers = fn()
    if not isinstance(answers, dict):
        raise Mismatch(fill(translate("{call} returned {kind}; expected a dict", "checks"),
                            call="factory_results()", kind=type(answers).__name__))
    answer = answers.get(expression)
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise Mismatch(fill(translate("{item} is {answer!r}; expected a pair (dtype, shape)",
                                      "checks"),
                            item=f"factory_results()[{expression!r}]", answer=answer))
    dtype, shape = answer
    if not isinstance(dtype, torch.dtype):
        raise Mismatch(fill(translate("factory_results() says {expression} has dtype {dtype!r}; "
                                      "expected a torch.dtype such as torch.float32", "checks"),
                            expression=expression, dtype=dtype))
    if not isinstance(shape, (tuple, list)) or not all(type(n) is int for n in shape):
        raise Mismatch(fill(translate("factory_results() says {expression} has shape {shape!r}; "
                                      "expected a tuple of ints", "checks"),
                            expression=expression, shape=shape))
    said = (str(dtype), str(tuple(shape)))
    told = (str(truth[0]), str(tuple(truth[1]))) if truth is not None else (None, None)
    for part, answer, item, true in zip(("dtype", "shape"), said, factory_items(expression), told):
        if not is_right("factory_results", item, answer, true):
            # part: "dtype" or "shape", words of the catalogue (grader.checks._compare marks them)
            raise Mismatch(fill(translate("factory_results() says {expression} has {part} "
                                          "{answer}; not on torch {version} (run it and see)",
                                          "checks"),
                                expression=expression, part=translate(part, "checks"),
                                answer=answer, version=torch.__version__.split('+')[0]))


# --- 3. share_or_copy -----------------------------------------------------------------


def _share_or_copy_examples():
    grid = sample_tensor((3, 4), (4, 1))
    return [  # (x, steps, readonly)
        (grid, (1, 1), False),  # the whole array: share
        (grid, (2, 1), False),  # every other row: still a strided view, share
        (sample_tensor((4, 3), (1, 4), torch.float32), (1, 2), False),  # transposed
        (sample_tensor((2, 3), (0, 1), torch.float64), (1, 1), False),  # broadcast rows
        (grid, (-1, 1), False),  # rows reversed: a negative stride
        (sample_tensor((5,), (1,), torch.int16), (-2,), False),
        (sample_tensor((1, 3), (3, 1)), (-1, 1), False),  # reversing a single row
        (grid, (1, 1), True),  # read-only
        (sample_tensor((2, 2), (2, 1), torch.bool), (1, 1), False),
        (sample_tensor((6,), (1,), torch.uint8), (3,), True),
    ]


@public_check("share_or_copy", _share_or_copy_examples)
def compare_share_or_copy(fn, x, steps, readonly):
    array = as_numpy(x, steps, readonly)
    call = fill(translate("{call} for x = {x}", "checks"),
                call=f"share_or_copy(x, {steps}, {readonly})", x=describe_input(x))
    truth = torch.from_numpy(array.copy())
    can_share = torch_from_numpy_shares(array)
    result = fn(x, steps, readonly)
    if not isinstance(result, tuple) or len(result) != 2:
        raise Mismatch(fill(translate("{call} returned {kind}; expected a pair (tensor, shared)",
                                      "checks"), call=call, kind=type(result).__name__))
    tensor, shared = result
    tensor = expect_tensor(call, tensor, truth, what=translate("the tensor", "checks"))
    if not isinstance(shared, bool):
        raise Mismatch(fill(translate("{item} is {answer}; expected True or False", "checks"),
                            item=fill(translate("{call}: shared", "checks"), call=call),
                            answer=repr(shared)))
    why = translate("torch.from_numpy takes it as it is", "checks") if can_share else \
        translate("torch.from_numpy refuses it or warns about it", "checks")
    if shared != can_share:
        raise Mismatch(fill(translate("{call}: shared={shared}, but the NumPy array is an "
                                      "{array}, and {why}", "checks"),
                            call=call, shared=shared, array=describe_array(array), why=why))
    if shares_storage(tensor, x) != can_share:
        said = translate("{call}: says shared={shared}, but the tensor shares x's memory; the "
                         "NumPy array is an {array}", "checks") if shares_storage(tensor, x) \
            else translate("{call}: says shared={shared}, but the tensor does not share x's "
                           "memory; the NumPy array is an {array}", "checks")
        raise Mismatch(fill(said, call=call, shared=shared, array=describe_array(array)))


# --- 4. seeded_init -------------------------------------------------------------------


def _seeded_init_examples():
    return [  # (shapes, seed, dtype)
        ([(2, 3)], 0, torch.float32),
        ([(2, 3), (3,)], 0, torch.float32),  # drawn one after the other
        ([(4, 5), (5,)], 7, torch.float32),  # a draw of 20 numbers is not two of 10
        ([(3,)], 1, torch.float64),  # drawn in float64, not drawn in float32 and cast
        ([(), (0, 2), (2,)], 3, torch.float32),  # a scalar, and a draw of nothing
        ([(8, 2)], 42, torch.bfloat16),
    ]


def _seeded_init_redrawn(example, rng):
    # Another seed in [0, 2**31); shapes and dtype kept (a scalar, a draw of nothing, one
    # of 16 numbers or more, which torch draws another way: the edge cases).
    shapes, _, dtype = example
    return shapes, rng.randrange(2**31), dtype


def _describe_params(params) -> str:
    shape = translate("shape {shape}", "checks")
    return "[" + ", ".join(fill(shape, shape=tuple(p.shape)) for p in params) + "]"


@public_check("seeded_init", _seeded_init_examples, stored=True, redraw=_seeded_init_redrawn)
def compare_seeded_init(fn, shapes, seed, dtype, *, truth, rtol=0.0, atol=0.0):
    """``truth``: torch's draws, one tensor per shape. Exact by default: the judge draws
    on the student's own machine. The public examples were drawn at release, maybe on
    another CPU, whose vectorised ``randn`` may round the last bits otherwise (AVX2 or
    not): they are stored with ``rtol`` and ``atol`` of a few units in the last place."""
    call = f"seeded_init({shapes}, {seed}, {dtype})"
    result = fn(shapes, seed, dtype)
    if not isinstance(result, (list, tuple)) or len(result) != len(truth):
        raise Mismatch(fill(translate("{call} returned {result!r:.200}; expected a list of "
                                      "{count} tensors: {shapes}", "checks"),
                            call=call, result=result, count=len(truth),
                            shapes=_describe_params(truth)))
    for k, (param, true_param) in enumerate(zip(result, truth)):
        expect_tensor(fill(translate("{call}, parameter {k}", "checks"), call=call, k=k), param,
                      true_param, rtol=rtol, atol=atol)


# --- 5. coo_to_dense ------------------------------------------------------------------


def _coo_to_dense_examples():
    return [  # (indices, values, size)
        ([(0, 2), (1, 0), (1, 2)], [3.0, 4.0, 5.0], (2, 3)),
        ([(0,), (3,)], [1.5, -2.0], (5,)),
        ([(0, 1), (0, 1)], [1.0, 2.0], (2, 2)),  # a repeated index: values add up
        ([(1, 1), (0, 0), (1, 1), (1, 1)], [1.0, 2.0, 3.0, -0.5], (2, 2)),
        ([(0, 0, 1), (1, 2, 0)], [7.0, 0.0], (2, 3, 2)),  # a stored zero is fine
        ([], [], (3, 4)),  # no entries at all
        ([], [], (0, 4)),
    ]


def _coo_to_dense_redrawn(example, rng):
    # Each dim's indices renamed by a permutation of its range (still in range; a repeated
    # index still repeats, so its values still add up), new values, the entries shuffled.
    indices, values, size = example
    if not indices:
        return None  # no entries: nothing to vary
    renames = [rng.sample(range(n), n) for n in size]
    entries = [(tuple(renames[d][i] for d, i in enumerate(index)), round(rng.uniform(-9, 9), 2))
               for index in indices]
    rng.shuffle(entries)
    return [index for index, _ in entries], [value for _, value in entries], size


@public_check("coo_to_dense", _coo_to_dense_examples, redraw=_coo_to_dense_redrawn)
def compare_coo_to_dense(fn, indices, values, size):
    truth = torch_coo_to_dense(indices, values, size)
    expect_tensor(f"coo_to_dense({indices}, {values}, {size})", fn(indices, values, size), truth)
