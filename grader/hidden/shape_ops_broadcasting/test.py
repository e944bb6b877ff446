"""Hidden checks for chapter 3, shape operations, indexing and broadcasting.

Each test grades one exercise (its ``exercise`` mark); an exercise's score is
the fraction of its tests that pass. Docstrings are shown to students as
feedback. The comparisons live in ``grader.checks.shape_ops_broadcasting``
(shared with the public ``check``); here we only choose the inputs.

The puzzles (``RULES``) are not called through the ``student`` fixture.
Their ``def`` is read out of the submitted notebook, checked against the
rules on its syntax tree, and only that checked code runs, in a worker of its
own next to ``import torch`` and nothing else (``_Vetted``). A definition that
breaks the rules fails every check of its exercise, with the reason.

In ``@given`` tests the fixtures are keyword-only: hypothesis takes a test's
first positional parameter for ``self`` and looks up attributes on it (a mock
marker, ``execute_example``...), which must never reach the student.

The truth of source_index and last_tokens is the exercise's own algorithm, never
shipped: here it comes from ``grader.hidden.shape_ops_broadcasting.oracles``
(``truth=``), on every input drawn.
"""


import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks import shape_ops_broadcasting as ch
from grader.checks._registry import Mismatch, registered
from grader.givens._puzzle_rules import (
    find_definition,
    vetted_source,
    violations,
)
from grader.givens.shape_ops_broadcasting import RULES
from grader.hidden import strategies as gs
from grader.hidden._examples import exercises_checked_by_examples
from grader.hidden.oracles import truth_for
from grader.hidden.shape_ops_broadcasting import oracles as oracle
from grader.hidden.shape_ops_broadcasting import strategies as cs

# Each call of a student's function is a round trip to another process:
# examples per test keep the whole file near 1,000 calls for a right answer.
FEW = 30


# --- the puzzles' code, vetted against their rules ----------------------------------


class _Vetted:
    """The puzzles' definitions from the notebook, checked, running in a clean worker."""

    def __init__(self, cells: list[str], start):
        self.problems, sources = {}, []
        for name, rules in RULES.items():
            fn = find_definition(cells, name)
            self.problems[name] = violations(fn, name, rules)
            if self.problems[name] is None:
                sources.append(vetted_source(fn, rules))
        self._cells, self._start, self._student = ["import torch", *sources], start, None

    def function(self, name: str):
        if self.problems[name]:
            raise Mismatch(self.problems[name])
        if self._student is None:
            # A process of its own (the plugin's start_student), closed with the session.
            self._student = self._start(self._cells)
        return getattr(self._student, name)


@pytest.fixture(scope="session")
def vetted(student_cells, start_student):
    return _Vetted(student_cells, start_student)


def _puzzle(name):
    @pytest.fixture(scope="session", name=f"puzzle_{name}")
    def fixture(vetted):
        return vetted.function(name)  # raises (every check fails) if it breaks the rules

    return fixture


puzzle_batched_matmul = _puzzle("batched_matmul")
puzzle_stable_softmax = _puzzle("stable_softmax")
puzzle_one_hot = _puzzle("one_hot")
puzzle_last_tokens = _puzzle("last_tokens")


# --- every exercise: the examples that check() tries ---------------------------------



@pytest.mark.parametrize("name", exercises_checked_by_examples(__file__))
def test_examples_from_check(name, request, student):
    """agrees with torch on every example that check() tries"""
    if name in RULES:
        fn = request.getfixturevalue(f"puzzle_{name}")
    else:
        fn = getattr(student, name)
    entry = registered()[name]
    for example in entry.examples():
        entry.compare(fn, *example, **truth_for(name, example))


# --- 1. broadcast_shape ---------------------------------------------------------------


_NONZERO = gs.shapes(min_size=1)


@pytest.mark.exercise("broadcast_shape")
@settings(max_examples=FEW)
@given(shapes=cs.compatible_shapes(2, 2, targets=_NONZERO))
def test_broadcast_shape_pairs(shapes, *, student):
    """finds the shape of two shapes that broadcast (size-1 dims, fewer dims)"""
    ch.compare_broadcast_shape(student.broadcast_shape, *shapes)


@pytest.mark.exercise("broadcast_shape")
@settings(max_examples=FEW)
@given(shapes=cs.compatible_shapes(0, 4, targets=_NONZERO))
def test_broadcast_shape_several(shapes, *, student):
    """finds the shape of zero to four shapes, scalars (shape ()) included"""
    ch.compare_broadcast_shape(student.broadcast_shape, *shapes)


@pytest.mark.exercise("broadcast_shape")
@settings(max_examples=FEW)
@given(shapes=cs.compatible_shapes(2, 3, targets=gs.with_zero_size()))
def test_broadcast_shape_zero_size(shapes, *, student):
    """treats size 0 like torch: 1 stretches to 0, and 0 is not 1"""
    ch.compare_broadcast_shape(student.broadcast_shape, *shapes)


@pytest.mark.exercise("broadcast_shape")
@settings(max_examples=FEW)
@given(shapes=cs.clashing_shapes())
def test_broadcast_shape_clash(shapes, *, student):
    """raises RuntimeError, like torch, for shapes that do not broadcast"""
    ch.compare_broadcast_shape(student.broadcast_shape, *shapes)


# --- 2. source_index ------------------------------------------------------------------


@st.composite
def _source_cases(draw, min_dims_kept):
    out_shape = draw(gs.shapes(min_dims=1, min_size=1))
    in_shape = draw(cs.broadcastable_to(out_shape, min_dims=min_dims_kept(out_shape)))
    return draw(gs.indices(out_shape)), in_shape, out_shape


@pytest.mark.exercise("source_index")
@settings(max_examples=FEW)
@given(case=_source_cases(len).filter(lambda c: 1 in c[1]))
def test_source_index_same_dims(case, *, student):
    """reads index 0 in the input's size-1 dims (input and output with as many dims)"""
    ch.compare_source_index(student.source_index, *case,
                            truth=oracle.torch_source_index(*case))


@pytest.mark.exercise("source_index")
@settings(max_examples=FEW)
@given(case=_source_cases(lambda shape: 0).filter(lambda c: len(c[1]) < len(c[2])))
def test_source_index_fewer_dims(case, *, student):
    """aligns from the right when the input has fewer dims (scalars included)"""
    ch.compare_source_index(student.source_index, *case,
                            truth=oracle.torch_source_index(*case))


@pytest.mark.exercise("source_index")
@settings(max_examples=FEW)
@given(case=_source_cases(lambda shape: 0).map(lambda c: (c[0], (1,) * len(c[1]), c[2])))
def test_source_index_all_ones(case, *, student):
    """maps every output index to (0, 0, ...) when every input dim has size 1"""
    ch.compare_source_index(student.source_index, *case,
                            truth=oracle.torch_source_index(*case))


# --- 3. unbroadcast -------------------------------------------------------------------


def _grads(shape=None, dtype=torch.float64, **flags):
    return gs.layouts(shape if shape is not None else _NONZERO, dtype=dtype, **flags)


@st.composite
def _unbroadcast_cases(draw, grads, min_dims_kept=None):
    grad = draw(grads)
    keep = min_dims_kept(grad) if min_dims_kept else 0
    return grad, draw(cs.broadcastable_to(grad.shape, min_dims=keep))


@pytest.mark.exercise("unbroadcast")
@settings(max_examples=FEW)
@given(case=_unbroadcast_cases(_grads(), lambda g: g.dim()))
def test_unbroadcast_size_one(case, *, student):
    """sums over the dims where the input had size 1, keeping them as size 1"""
    ch.compare_unbroadcast(student.unbroadcast, *case)


@pytest.mark.exercise("unbroadcast")
@settings(max_examples=FEW)
@given(case=_unbroadcast_cases(_grads(gs.shapes(min_dims=1, min_size=1)))
       .filter(lambda c: len(c[1]) < c[0].dim()))
def test_unbroadcast_leading_dims(case, *, student):
    """sums away the leading dims the input did not have (down to a scalar)"""
    ch.compare_unbroadcast(student.unbroadcast, *case)


@pytest.mark.exercise("unbroadcast")
@settings(max_examples=FEW)
@given(case=_unbroadcast_cases(_grads(permute=True, step=True, offset=True, expand=True)))
def test_unbroadcast_strided(case, *, student):
    """handles permuted, sliced, offset and expanded (stride 0) gradients"""
    ch.compare_unbroadcast(student.unbroadcast, *case)


@pytest.mark.exercise("unbroadcast")
@settings(max_examples=FEW)
@given(case=_unbroadcast_cases(_grads(gs.with_zero_size(), permute=True, expand=True)))
def test_unbroadcast_zero_size(case, *, student):
    """handles gradients with zero-size dims (sums of nothing are 0)"""
    ch.compare_unbroadcast(student.unbroadcast, *case)


@pytest.mark.exercise("unbroadcast")
@settings(max_examples=FEW)
@given(case=_unbroadcast_cases(_grads(dtype=torch.float32, step=True)))
def test_unbroadcast_float32(case, *, student):
    """keeps the gradient's dtype (float32)"""
    ch.compare_unbroadcast(student.unbroadcast, *case)


# --- 4. batched_matmul ----------------------------------------------------------------


def _batches(targets):
    return cs.compatible_shapes(2, 2, targets=targets)


_BATCH = gs.shapes(min_dims=1, max_dims=2, min_size=1, max_size=3)


@pytest.mark.exercise("batched_matmul")
@settings(max_examples=FEW)
@given(pair=cs.matmul_pairs())
def test_batched_matmul_matrices(pair, *, puzzle_batched_matmul):
    """matches torch.matmul on plain matrices"""
    ch.compare_batched_matmul(puzzle_batched_matmul, *pair)


@pytest.mark.exercise("batched_matmul")
@settings(max_examples=FEW)
@given(pair=cs.matmul_pairs(batch=_BATCH.map(lambda s: [s, s])))
def test_batched_matmul_same_batch(pair, *, puzzle_batched_matmul):
    """matches torch.matmul on stacks of matrices with the same batch shape"""
    ch.compare_batched_matmul(puzzle_batched_matmul, *pair)


@pytest.mark.exercise("batched_matmul")
@settings(max_examples=FEW)
@given(pair=cs.matmul_pairs(batch=_batches(_BATCH)).filter(lambda p: p[0].dim() != p[1].dim()
                                                          or p[0].shape[:-2] != p[1].shape[:-2]))
def test_batched_matmul_broadcast_batch(pair, *, puzzle_batched_matmul):
    """broadcasts the batch dims like torch.matmul (size-1 and missing batch dims)"""
    ch.compare_batched_matmul(puzzle_batched_matmul, *pair)


@pytest.mark.exercise("batched_matmul")
@settings(max_examples=FEW)
@given(pair=cs.matmul_pairs(batch=_batches(_BATCH), strided=True,
                            dtypes=(torch.int64, torch.float32, torch.float64)))
def test_batched_matmul_strided(pair, *, puzzle_batched_matmul):
    """matches torch.matmul on transposed, sliced and expanded inputs, any dtype"""
    ch.compare_batched_matmul(puzzle_batched_matmul, *pair)


@pytest.mark.exercise("batched_matmul")
@settings(max_examples=FEW)
@given(pair=cs.matmul_pairs(batch=_batches(gs.shapes(max_dims=2, max_size=2)),
                            sizes=st.integers(0, 3), k_sizes=st.integers(0, 3), strided=True)
       .filter(lambda p: 0 in p[0].shape or 0 in p[1].shape))
def test_batched_matmul_zero_size(pair, *, puzzle_batched_matmul):
    """matches torch.matmul with zero-size dims (an empty sum is 0)"""
    ch.compare_batched_matmul(puzzle_batched_matmul, *pair)


# --- 5. stable_softmax ----------------------------------------------------------------


@st.composite
def _softmax_cases(draw, tensors):
    x = draw(tensors)
    return x, draw(cs.dims_of(x))


def _floats(shape=None, scale=1.0, shift=0.0, dtype=torch.float64, **flags):
    tensors = gs.layouts(shape if shape is not None else _NONZERO, dtype=dtype, **flags)
    return cs.refilled(tensors, cs.normal_values(scale, shift))


_LARGE = st.sampled_from([(1e3, 0.0), (50.0, 1e3), (50.0, -1e3), (1e4, 0.0)])


@st.composite
def _large(draw):
    scale, shift = draw(_LARGE)
    return draw(_floats(gs.shapes(min_dims=1, min_size=2), scale, shift, permute=True))


@pytest.mark.exercise("stable_softmax")
@settings(max_examples=FEW)
@given(case=_softmax_cases(_floats(scale=3.0)))
def test_stable_softmax_moderate(case, *, puzzle_stable_softmax):
    """matches torch.softmax on moderate values, over any dim"""
    ch.compare_stable_softmax(puzzle_stable_softmax, *case)


@pytest.mark.exercise("stable_softmax")
@settings(max_examples=FEW)
@given(case=_softmax_cases(_large()))
def test_stable_softmax_large(case, *, puzzle_stable_softmax):
    """matches torch.softmax on values in the thousands, where exp overflows (no nan, no inf)"""
    ch.compare_stable_softmax(puzzle_stable_softmax, *case)


@pytest.mark.exercise("stable_softmax")
@settings(max_examples=FEW)
@given(case=_softmax_cases(_floats(scale=100.0, permute=True, step=True, offset=True,
                                   expand=True)))
def test_stable_softmax_strided(case, *, puzzle_stable_softmax):
    """matches torch.softmax on permuted, sliced, offset and expanded inputs"""
    ch.compare_stable_softmax(puzzle_stable_softmax, *case)


@pytest.mark.exercise("stable_softmax")
@settings(max_examples=FEW)
@given(case=_softmax_cases(st.one_of(
    _floats(gs.with_zero_size(), permute=True),
    _floats(st.just(()), scale=10.0))))
def test_stable_softmax_empty_and_scalar(case, *, puzzle_stable_softmax):
    """matches torch.softmax on tensors with zero-size dims and on scalars"""
    ch.compare_stable_softmax(puzzle_stable_softmax, *case)


@pytest.mark.exercise("stable_softmax")
@settings(max_examples=FEW)
@given(case=_softmax_cases(_floats(scale=300.0, dtype=torch.float32, step=True)))
def test_stable_softmax_float32(case, *, puzzle_stable_softmax):
    """matches torch.softmax in float32, keeping the dtype"""
    ch.compare_stable_softmax(puzzle_stable_softmax, *case)


# --- 6. one_hot -----------------------------------------------------------------------


@st.composite
def _labels(draw, shape=None, **flags):
    num_classes = draw(st.integers(1, 5))
    tensors = gs.layouts(shape if shape is not None else gs.shapes(max_numel=24), **flags)
    return draw(cs.refilled(tensors, cs.integer_values(0, num_classes))), num_classes


@pytest.mark.exercise("one_hot")
@settings(max_examples=FEW)
@given(case=_labels(gs.shapes(min_dims=1, max_dims=1, min_size=1, max_size=6)))
def test_one_hot_vector(case, *, puzzle_one_hot):
    """matches F.one_hot on a vector of labels"""
    ch.compare_one_hot(puzzle_one_hot, *case)


@pytest.mark.exercise("one_hot")
@settings(max_examples=FEW)
@given(case=_labels(gs.shapes(max_dims=3, min_size=1, max_numel=24)))
def test_one_hot_any_shape(case, *, puzzle_one_hot):
    """matches F.one_hot on labels of any shape, a single 0-d label included"""
    ch.compare_one_hot(puzzle_one_hot, *case)


@pytest.mark.exercise("one_hot")
@settings(max_examples=FEW)
@given(case=_labels(permute=True, step=True, offset=True, expand=True))
def test_one_hot_strided(case, *, puzzle_one_hot):
    """matches F.one_hot on permuted, sliced, offset and expanded labels"""
    ch.compare_one_hot(puzzle_one_hot, *case)


@pytest.mark.exercise("one_hot")
@settings(max_examples=FEW)
@given(case=_labels(gs.with_zero_size(gs.shapes(min_dims=1, max_dims=3)), permute=True))
def test_one_hot_zero_size(case, *, puzzle_one_hot):
    """matches F.one_hot on labels with zero-size dims"""
    ch.compare_one_hot(puzzle_one_hot, *case)


# --- 7. last_tokens -------------------------------------------------------------------


def _edge_lengths(t):
    return st.sampled_from([cs.integer_values(1, 2), cs.integer_values(t, t + 1)])


@pytest.mark.exercise("last_tokens")
@settings(max_examples=FEW)
@given(case=cs.sequences())
def test_last_tokens_contiguous(case, *, puzzle_last_tokens):
    """picks x[b, lengths[b] - 1] for every sequence b"""
    ch.compare_last_tokens(puzzle_last_tokens, *case, truth=oracle.torch_last_tokens(*case))


@pytest.mark.exercise("last_tokens")
@settings(max_examples=FEW)
@given(case=cs.sequences(lengths=_edge_lengths))
def test_last_tokens_edges(case, *, puzzle_last_tokens):
    """picks the first token (length 1) and the very last one (length T)"""
    ch.compare_last_tokens(puzzle_last_tokens, *case, truth=oracle.torch_last_tokens(*case))


@pytest.mark.exercise("last_tokens")
@settings(max_examples=FEW)
@given(case=cs.sequences(strided=True))
def test_last_tokens_strided(case, *, puzzle_last_tokens):
    """handles permuted, sliced, offset and expanded x and lengths"""
    ch.compare_last_tokens(puzzle_last_tokens, *case, truth=oracle.torch_last_tokens(*case))


@pytest.mark.exercise("last_tokens")
@settings(max_examples=FEW)
@given(case=st.one_of(cs.sequences(batch=st.just(0), strided=True),
                      cs.sequences(features=st.just(0), strided=True)))
def test_last_tokens_zero_size(case, *, puzzle_last_tokens):
    """handles no sequences at all (B = 0) and no features (D = 0)"""
    ch.compare_last_tokens(puzzle_last_tokens, *case, truth=oracle.torch_last_tokens(*case))


# --- 8. add_at_ -----------------------------------------------------------------------


@st.composite
def _add_at_cases(draw, dtype=torch.float64, repeats=False, **layout):
    """(target, index, values): target of any layout but stride 0 (torch refuses to write
    where two elements share memory), index into its first dim, values of its dtype."""
    shape = gs.shapes(min_dims=1, max_dims=3, min_size=1)
    values_of = cs.integer_values(-9, 10) if dtype == torch.int64 else cs.normal_values(4)
    target = draw(cs.refilled(gs.layouts(shape, dtype=dtype, **layout), values_of))
    rows = target.shape[0]
    count = draw(st.integers(2 if repeats else 0, 6))
    chosen = draw(st.lists(st.integers(0, rows - 1), min_size=count, max_size=count)
                  .filter(lambda ids: not repeats or len(set(ids)) < len(ids)))
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    numel = count * target[0].numel()
    values = values_of(numel, generator, dtype).to(dtype).reshape(count, *target.shape[1:])
    return target, torch.tensor(chosen, dtype=torch.int64), values


@pytest.mark.exercise("add_at_")
@settings(max_examples=FEW)
@given(case=_add_at_cases(repeats=True))
def test_add_at_repeated_rows(case, *, student):
    """adds every update of a repeated row, not only the last one"""
    ch.compare_add_at_(student.add_at_, *case)


@pytest.mark.exercise("add_at_")
@settings(max_examples=FEW)
@given(case=_add_at_cases(permute=True, step=True, offset=True))
def test_add_at_views(case, *, student):
    """writes through transposed, stepped and offset views, and nowhere else in their storage"""
    ch.compare_add_at_(student.add_at_, *case)


@pytest.mark.exercise("add_at_")
@settings(max_examples=FEW)
@given(case=_add_at_cases(dtype=torch.int64, permute=True, step=True))
def test_add_at_integers(case, *, student):
    """adds integer rows exactly"""
    ch.compare_add_at_(student.add_at_, *case)


@pytest.mark.exercise("add_at_")
@settings(max_examples=FEW)
@given(case=_add_at_cases(dtype=torch.float32, offset=True))
def test_add_at_float32(case, *, student):
    """returns target itself and leaves index and values as they were (float32)"""
    ch.compare_add_at_(student.add_at_, *case)
