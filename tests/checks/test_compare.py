"""``grader.checks._compare``: every check's rules for right and wrong, held against torch's own.

Numbers against math's rules; tensors against ``torch.isclose`` / ``torch.equal``
(in float64, where the tolerance itself cannot round), on NaN, infinities,
signed zeros, huge values, wrong dtypes, shapes and devices, permuted and
strided layouts, and subclasses that lie about equality. The last section runs
the real public checks of every chapter on such answers.
"""

import functools
import math
import re

import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from grader.checks import (
    autograd,
    creating_tensors,
    devices,
    pitfalls,
    storage_strides,
)
from grader.checks import shape_ops_broadcasting as shapes
from grader.checks._compare import (
    as_plain,
    describe_tensor,
    expect_float,
    expect_int,
    expect_ints,
    expect_like,
    expect_tensor,
    first_difference,
    scalar_close,
    shares_storage,
    tolerance,
)
from grader.checks._local import LocalFunction
from grader.checks._registry import Mismatch
from grader.checks.creating_tensors import _oracle as creating_tensors_oracle
from grader.checks.devices._oracle import torch_causal_mask
from grader.checks.pitfalls import _examples as pitfalls_examples
from grader.checks.pitfalls import _oracle as pitfalls_oracle
from grader.checks.shape_ops_broadcasting import _oracle as shapes_oracle
from grader.hidden import strategies as gs
from grader.hidden.autograd import oracles as autograd_oracle
from grader.hidden.creating_tensors import oracles as seeded_oracle
from grader.hidden.devices.oracles import torch_pack
from grader.hidden.pitfalls import oracles as repaired_oracle
from grader.hidden.shape_ops_broadcasting import oracles as puzzles_oracle

NUMBERS = st.floats(allow_nan=True, allow_infinity=True)
NAN, INF = math.nan, math.inf


def accepted(compare, *args, **kwargs) -> bool:
    """True if ``compare`` accepts, False if it raises Mismatch (anything else fails the test)."""
    try:
        compare(*args, **kwargs)
    except Mismatch:
        return False
    return True


# --- scalar_close ---------------------------------------------------------------------


@given(NUMBERS)
@example(math.nan)  # hypothesis draws NaN rarely: not left to chance
@example(-math.nan)
def test_a_nan_answer_is_close_only_to_a_nan_truth(truth):
    assert scalar_close(float("nan"), truth, rtol=1e-3, atol=1e-3) is math.isnan(truth)


@pytest.mark.parametrize("value,truth,close", [
    (math.inf, math.inf, True), (-math.inf, math.inf, False), (1e308, math.inf, False),
    (math.inf, 1e308, False), (-0.0, 0.0, True), (1.0, 1.0 + 1e-6, True), (1.0, 1.1, False),
])
def test_infinities_signed_zeros_and_tolerances(value, truth, close):
    assert scalar_close(value, truth, rtol=1e-5, atol=0.0) is close


@given(st.floats(allow_nan=False, allow_infinity=False, width=32),
       st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_finite_numbers_agree_with_the_tolerance_formula(value, truth):
    expected = abs(value - truth) <= 1e-6 + 1e-4 * abs(truth)
    assert scalar_close(value, truth, rtol=1e-4, atol=1e-6) is expected


# --- plain numbers ----------------------------------------------------------------------


class LyingInt(int):
    """An int whose comparisons always say equal."""

    def __eq__(self, other):
        return True

    __ne__ = lambda self, other: False  # noqa: E731
    __hash__ = int.__hash__


class LyingFloat(float):
    def __eq__(self, other):
        return True

    def __sub__(self, other):
        return 0.0

    __rsub__ = __sub__
    __hash__ = float.__hash__


@pytest.mark.parametrize("answer,truth,right", [
    (3, 3, True), (4, 3, False), (True, 1, False), (False, 0, False), (3.0, 3, False),
    (torch.tensor(3), 3, False), ("3", 3, False), (LyingInt(4), 3, False), (LyingInt(3), 3, True),
])
def test_an_int_answer_is_a_real_int_of_the_right_value(answer, truth, right):
    assert accepted(expect_int, "f()", answer, truth) is right


@pytest.mark.parametrize("answer,right", [
    ((2, 1), True), ([2, 1], True), ((2.0, 1.0), False), ((2, True), False), ((2,), False),
    ((2, 1, 1), False), ((LyingInt(5), 1), False), (None, False), ("21", False),
])
def test_a_tuple_of_ints_holds_real_ints(answer, right):
    assert accepted(expect_ints, "f()", answer, (2, 1)) is right


@pytest.mark.parametrize("answer,truth,ints,right", [
    (0.5, 0.5, False, True), (NAN, 0.5, False, False), (INF, 0.5, False, False),
    (-INF, 0.5, False, False), (NAN, NAN, False, True), (INF, INF, False, True),
    (-INF, INF, False, False), (1e308, INF, False, False), (-0.0, 0.0, False, True),
    (1, 1.0, False, False), (1, 1.0, True, True), (True, 1.0, True, False),
    pytest.param(10**400, 1.0, True, False, id="huge-int"), (LyingFloat(7.0), 0.5, False, False),
    (LyingFloat(0.5), 0.5, False, True), (torch.tensor(0.5), 0.5, False, False),
])
def test_a_float_answer_follows_scalar_close(answer, truth, ints, right):
    assert accepted(expect_float, "f()", answer, truth, rtol=1e-6, ints=ints) is right


@given(NUMBERS, NUMBERS)
def test_expect_float_agrees_with_scalar_close(value, truth):
    close = scalar_close(value, truth, rtol=1e-4, atol=1e-6)
    assert accepted(expect_float, "f()", value, truth, rtol=1e-4, atol=1e-6) is close


# --- tensor values against torch.isclose and torch.equal ----------------------------------

SPECIAL = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 1e38, -1e38, 3e38, 1e-45, 65504.0]
FLOAT32 = st.one_of(st.sampled_from(SPECIAL), st.floats(width=32))


@st.composite
def float_pairs(draw, dtype=torch.float32):
    """(answer, truth): one shape, values drawn from the special ones; the answer is often
    the truth with a few elements changed, so near misses and exact matches both come up."""
    shape = draw(gs.shapes(max_numel=12))
    n = math.prod(shape)
    truth = torch.tensor(draw(st.lists(FLOAT32, min_size=n, max_size=n)), dtype=dtype)
    answer = truth.clone()
    for _ in range(draw(st.integers(0, 2)) if n else 0):
        answer[draw(st.integers(0, n - 1))] = draw(FLOAT32)
    return answer.reshape(shape), truth.reshape(shape)


TOLERANCES = st.sampled_from([(0.0, 0.0), (1e-4, 1e-5), (1e-2, 0.0), (0.0, 1.0)])


@settings(max_examples=300)
@given(float_pairs(), TOLERANCES)
def test_float_values_agree_with_torch_isclose_in_float64(pair, tol):
    answer, truth = pair
    rtol, atol = tol
    # torch.isclose in float64: NaN equals NaN, an infinity only itself, the rest within
    # atol + rtol * |truth|, with no rounding of the tolerance in float32.
    close = torch.isclose(answer.double(), truth.double(), rtol=rtol, atol=atol, equal_nan=True)
    assert accepted(expect_tensor, "f()", answer, truth, rtol=rtol, atol=atol) is bool(close.all())


@settings(max_examples=100)
@given(float_pairs(torch.float16))
def test_float16_values_agree_with_torch_isclose(pair):
    answer, truth = pair
    close = torch.isclose(answer.double(), truth.double(), rtol=2e-3, atol=2e-3, equal_nan=True)
    expected = bool(close.all())
    assert accepted(expect_tensor, "f()", answer, truth, **tolerance(torch.float16)) is expected


INT64 = st.one_of(st.sampled_from([0, -1, 2**62, 2**62 + 1, -(2**63), 2**63 - 1]),
                  st.integers(-(2**63), 2**63 - 1))


@given(st.lists(INT64, min_size=1, max_size=6), st.data())
def test_integers_are_exact_like_torch_equal(values, data):
    truth = torch.tensor(values, dtype=torch.int64)
    answer = truth.clone()
    answer[data.draw(st.integers(0, len(values) - 1))] = data.draw(INT64)
    # Tolerances never apply to integers, and they are never compared as floats.
    assert accepted(expect_tensor, "f()", answer, truth, rtol=0.1, atol=1.0) \
        is torch.equal(answer, truth)


@pytest.mark.parametrize("answer,truth,right", [
    ([NAN, 1.0], [NAN, 1.0], True),  # NaN exactly where torch has NaN
    ([NAN, 1.0], [0.0, 1.0], False),
    ([0.0, 1.0], [NAN, 1.0], False),
    ([1.0, NAN], [NAN, 1.0], False),
    ([INF, -INF], [INF, -INF], True),
    ([-INF], [INF], False),
    ([INF], [3e38], False),
    ([3.4e38], [INF], False),
    ([-0.0, 0.0], [0.0, -0.0], True),  # equal in value
    ([1e38], [1e38], True),
    ([1e38], [-1e38], False),  # the difference overflows float32
    ([3e38], [3.0000001e38], True),  # within rtol
])
def test_special_float32_values(answer, truth, right):
    answer, truth = torch.tensor(answer), torch.tensor(truth)
    assert accepted(expect_tensor, "f()", answer, truth, rtol=1e-4, atol=1e-5) is right


def test_a_tolerance_is_not_rounded_to_the_answers_dtype():
    """As torch.isclose in float64: 2**-23 apart is beyond an atol just below 2**-23, though
    that atol rounds to 2**-23 in float32."""
    answer, truth = torch.tensor([1.0 + 2**-23]), torch.tensor([1.0])
    assert not accepted(expect_tensor, "f()", answer, truth, atol=2**-23 - 2**-50)
    assert accepted(expect_tensor, "f()", answer, truth, atol=2**-23)


def test_huge_integers_are_not_rounded_to_floats():
    truth = torch.tensor([2**62], dtype=torch.int64)
    assert accepted(expect_tensor, "f()", truth.clone(), truth)
    assert not accepted(expect_tensor, "f()", truth + 1, truth, rtol=1e-3, atol=1.5)
    assert float(2**62) == float(2**62 + 1)  # why: as floats they would be equal


@pytest.mark.parametrize("answer,truth,right", [
    ([1 + 2j, NAN + 0j], [1 + 2j, NAN + 0j], True),
    ([1 + 2j], [1 - 2j], False),
    ([complex(INF, 0)], [complex(1e38, 0)], False),
])
def test_complex_values_compare_part_by_part(answer, truth, right):
    answer, truth = torch.tensor(answer), torch.tensor(truth)
    assert accepted(expect_tensor, "f()", answer, truth) is right


def test_a_conjugated_view_is_compared_by_its_values():
    truth = torch.tensor([1 - 2j, 3 + 0j])
    assert accepted(expect_tensor, "f()", torch.tensor([1 + 2j, 3 + 0j]).conj(), truth)
    assert not accepted(expect_tensor, "f()", truth.conj(), truth)


@pytest.mark.parametrize("answer,truth,right", [
    ([True, False], [True, False], True),
    ([True, True], [True, False], False),
])
def test_bools_are_exact(answer, truth, right):
    assert accepted(expect_tensor, "f()", torch.tensor(answer), torch.tensor(truth)) is right


# --- what a tensor is: type, shape, dtype, layout, device -----------------------------------


@pytest.mark.parametrize("answer", [
    torch.tensor([1.0, 2.0], dtype=torch.float64),  # right values, wrong dtype
    torch.tensor([1, 2], dtype=torch.int64),
    torch.tensor([1.0, 2.0], dtype=torch.bfloat16),
    torch.tensor([[1.0, 2.0]]),  # wrong shape
    torch.tensor([1.0, 2.0, 3.0]),
    torch.tensor([1.0, 2.0]).to_sparse(),  # wrong layout
    torch.empty(2, device="meta"),  # no values where torch has values
    [1.0, 2.0], (1.0, 2.0), None, 1.0,
])
def test_anything_but_a_tensor_like_torchs_is_refused(answer):
    truth = torch.tensor([1.0, 2.0])
    for device in (False, True):
        with pytest.raises(Mismatch):
            expect_tensor("f()", answer, truth, rtol=1.0, atol=1.0, device=device)


def test_a_zero_dim_tensor_is_not_a_one_element_tensor():
    with pytest.raises(Mismatch, match="wrong shape"):
        expect_tensor("f()", torch.tensor(1.0), torch.tensor([1.0]))


def test_an_empty_meta_answer_is_refused_too():
    with pytest.raises(Mismatch, match="device meta"):
        expect_tensor("f()", torch.empty(0, 3, device="meta"), torch.empty(0, 3))


def test_a_meta_truth_compares_no_values_and_the_device_only_where_it_matters():
    truth = torch.empty(2, 3, device="meta")
    assert accepted(expect_tensor, "f()", torch.empty(2, 3, device="meta"), truth, device=True)
    assert accepted(expect_tensor, "f()", torch.full((2, 3), NAN), truth)
    assert not accepted(expect_tensor, "f()", torch.zeros(2, 3), truth, device=True)
    assert not accepted(expect_tensor, "f()", torch.empty(3, 2, device="meta"), truth)


def test_an_object_that_claims_to_be_a_tensor_is_not_one():
    class Impostor:
        __class__ = property(lambda self: torch.Tensor)

    assert isinstance(Impostor(), torch.Tensor)
    with pytest.raises(Mismatch, match="expected a tensor"):
        expect_like("f()", Impostor(), torch.zeros(2))


# --- layouts: values compared, not memory ---------------------------------------------------

LAYOUTS = gs.layouts(permute=True, step=True, offset=True, expand=True)


@given(st.one_of(LAYOUTS, gs.layouts(permute=True, step=True, dtype=torch.float32)), st.data())
def test_any_layout_of_the_right_values_is_right_and_one_changed_value_is_wrong(x, data):
    truth = x.contiguous()
    assert accepted(expect_tensor, "f()", x, truth)
    assert accepted(expect_tensor, "f()", truth, x)
    if x.numel():
        index = tuple(data.draw(st.integers(0, n - 1)) for n in x.shape)
        changed = x.clone()  # keeps a permuted layout; an expanded one becomes contiguous
        changed[index] += 1
        first = tuple((changed != truth).nonzero()[0].tolist())  # torch's, row-major
        with pytest.raises(Mismatch, match=re.escape(f"first at index {first}")):
            expect_tensor("f()", changed, truth)


@given(float_pairs(), st.data())
def test_first_difference_is_torchs_first_mismatch_in_row_major_order(pair, data):
    answer, truth = pair
    differ = ~torch.isclose(answer.double(), truth.double(), rtol=1e-4, atol=1e-5,
                            equal_nan=True)
    if answer.dim() >= 2 and data.draw(st.booleans()):  # a permuted copy: same indices
        answer, truth = (t.mT.contiguous().mT for t in (answer, truth))
    expected = tuple(differ.nonzero()[0].tolist()) if differ.any() else None
    assert first_difference(answer, truth, rtol=1e-4, atol=1e-5) == expected


# --- subclasses: read as plain tensors, never trusted ----------------------------------------


class Liar(torch.Tensor):
    """Says it equals anything, and hands out the right answer (``claim``) when asked to
    detach, clone, convert or move itself: a comparison that trusts it is fooled."""

    claim = None

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("equal", "allclose"):
            return True
        if name in ("eq", "__eq__", "isclose"):
            return torch.ones(args[0].shape, dtype=torch.bool)
        if name in ("ne", "__ne__"):
            return torch.zeros(args[0].shape, dtype=torch.bool)
        if name in ("detach", "clone", "to", "double", "contiguous", "cpu") and \
                cls.claim is not None:
            return cls.claim
        return super().__torch_function__(func, types, args, kwargs or {})

    def __eq__(self, other):
        return torch.ones(self.shape, dtype=torch.bool)


def liar(values: torch.Tensor, claim: torch.Tensor) -> Liar:
    Liar.claim = claim
    return values.clone().as_subclass(Liar)


@pytest.fixture(autouse=True)
def _no_claim():
    yield
    Liar.claim = None


def test_the_liar_fools_torch_itself():
    truth = torch.tensor([1.0, 2.0])
    fake = liar(torch.tensor([5.0, 6.0]), truth)
    assert torch.equal(fake, truth) and torch.allclose(fake, truth)
    assert bool((fake == truth).all()) and torch.equal(fake.detach(), truth)


@pytest.mark.parametrize("values", [[5.0, 6.0], [NAN, 2.0], [1.0, INF]])
def test_a_lying_subclass_with_wrong_values_is_refused(values):
    truth = torch.tensor([1.0, 2.0])
    for device in (False, True):
        with pytest.raises(Mismatch):
            expect_tensor("f()", liar(torch.tensor(values), truth), truth, rtol=1e-4,
                          atol=1e-5, device=device)


def test_a_subclass_with_the_right_values_is_right():
    truth = torch.tensor([1.0, NAN, -INF])
    assert accepted(expect_tensor, "f()", liar(truth, truth), truth)
    assert accepted(expect_tensor, "f()", torch.nn.Parameter(truth.clone()), truth)
    plain = as_plain(torch.nn.Parameter(truth.clone()))
    assert type(plain) is torch.Tensor and plain.requires_grad


def test_a_lying_subclass_on_meta_is_still_refused():
    truth = torch.zeros(2)
    Liar.claim = truth
    with pytest.raises(Mismatch, match="device meta"):
        expect_tensor("f()", torch.empty(2, device="meta").as_subclass(Liar), truth)


def test_describing_and_sharing_read_the_plain_tensor():
    base = torch.arange(6.0)
    fake = liar(base, torch.zeros(3))[1:4]
    assert "values [1, 2, 3]" in describe_tensor(fake)
    assert shares_storage(base[2:].as_subclass(Liar), base)
    assert not shares_storage(torch.empty(0), torch.empty(0))  # no memory: nothing shared


# --- messages ----------------------------------------------------------------------------------


def test_a_message_names_the_call_the_index_and_both_values():
    truth = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    answer = torch.tensor([[1.0, 2.0], [NAN, 4.0]])
    with pytest.raises(Mismatch) as caught:
        expect_tensor("f(x)", answer, truth, what="the gradient")
    message = str(caught.value)
    assert message.startswith("f(x): the gradient has wrong values, first at index (1, 0)")
    assert "yours nan, torch's 3.0" in message and len(message) < 400


def test_a_message_names_what_differs_in_kind():
    with pytest.raises(Mismatch, match=r"wrong dtype torch.float64 \(torch's: torch.float32\)"):
        expect_tensor("f()", torch.zeros(2, dtype=torch.float64), torch.zeros(2))
    with pytest.raises(Mismatch, match=r"wrong device cpu \(torch's: meta\)"):
        expect_tensor("f()", torch.zeros(2), torch.zeros(2, device="meta"), device=True)


def test_the_tolerances_of_each_dtype():
    assert tolerance(torch.float32) == {"rtol": 1e-4, "atol": 1e-5}
    assert tolerance(torch.float16, rtol=1e-3) == {"rtol": 1e-3, "atol": 2e-3}
    assert tolerance(torch.int64) == {"rtol": 0.0, "atol": 0.0}


# --- the real public checks on such answers -------------------------------------------------


def _pitfall_cases(compare, examples, oracle):
    return [(compare, args, oracle) for args in examples()]


def _judged(compare, oracle):
    """``compare`` as the judge runs a stored check: the truth from ``oracle``, here."""

    @functools.wraps(compare)
    def judged(fn, *args):
        return compare(fn, *args, truth=oracle(*args))

    return judged


CHECKS = [  # (public check, example, torch's answer for it), for tensor-returning exercises
    *[(creating_tensors.compare_coo_to_dense, ex, creating_tensors_oracle.torch_coo_to_dense)
      for ex in creating_tensors._coo_to_dense_examples()],
    *[(devices.compare_causal_mask, ex, lambda s: torch_causal_mask(s).to(s.device))
      for ex in devices.causal_mask_examples()],
    *_pitfall_cases(_judged(pitfalls.compare_flatten_scores,
                            repaired_oracle.torch_flatten_scores),
                    pitfalls_examples.image_examples, repaired_oracle.torch_flatten_scores),
    *_pitfall_cases(_judged(pitfalls.compare_masked_mean, repaired_oracle.torch_masked_mean),
                    pitfalls_examples.masked_examples, repaired_oracle.torch_masked_mean),
    *_pitfall_cases(pitfalls.compare_bce_loss, pitfalls_examples.bce_examples,
                    pitfalls_oracle.torch_bce_loss),
    *[(shapes.compare_unbroadcast, ex, shapes_oracle.torch_unbroadcast)
      for ex in shapes._unbroadcast_examples()],
    *[(shapes.compare_stable_softmax, ex, shapes_oracle.torch_softmax)
      for ex in shapes._stable_softmax_examples()],
    *[(_judged(shapes.compare_last_tokens, puzzles_oracle.torch_last_tokens), ex,
       puzzles_oracle.torch_last_tokens) for ex in shapes._last_tokens_examples()],
]


def _with_first(t: torch.Tensor, value: float) -> torch.Tensor:
    t = t.detach().contiguous().clone()
    t.view(-1)[0] = value
    return t


WRONG = {
    "NaN": lambda t: _with_first(t, NAN),
    "+inf": lambda t: _with_first(t, INF),
    "meta": lambda t: torch.empty_like(t, device="meta"),
    "float64": lambda t: t.detach().to(torch.float64 if t.dtype != torch.float64 else
                                       torch.float32),
    "liar": lambda t: liar(_with_first(t, 12345.0), t.detach()),
}


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_every_tensor_check_refuses_nan_inf_meta_wrong_dtype_and_lying_answers(wrong):
    tried = 0
    for compare, args, oracle in CHECKS:
        truth = oracle(*args)
        if truth.device.type == "meta" and wrong != "float64":
            continue  # no values to get wrong
        if wrong != "meta" and wrong != "float64" and (not truth.numel()
                                                       or not truth.is_floating_point()):
            continue
        answer = WRONG[wrong](truth)
        assert not accepted(compare, LocalFunction(lambda *a, r=answer: r), *args), \
            (compare.__name__, args)
        tried += 1
    assert tried >= 10


def test_where_the_device_matters_a_cpu_answer_for_meta_inputs_is_refused():
    tried = 0
    for compare, args, oracle in CHECKS:  # chapters 4 and 6: the device is part of the answer
        truth = oracle(*args)
        if truth.device.type == "meta":
            answer = torch.zeros(truth.shape, dtype=truth.dtype)
            assert not accepted(compare, LocalFunction(lambda *a, r=answer: r), *args), args
            tried += 1
    assert tried >= 3


def test_every_tensor_check_accepts_torchs_answer_even_in_a_subclass():
    for compare, args, oracle in CHECKS:
        truth = oracle(*args)
        for answer in (truth, truth.as_subclass(Liar)):
            assert accepted(compare, LocalFunction(lambda *a, r=answer: r), *args), \
                (compare.__name__, args)


def test_diagonal_view_refuses_a_lying_view_and_a_meta_one_and_takes_a_subclass_view():
    for (x,) in storage_strides._diagonal_view_examples():
        truth = torch.diagonal(x)
        row = x[0, :truth.numel()]  # a view of x too, holding the first row
        answers = [(truth.as_subclass(Liar), True), (torch.empty_like(truth, device="meta"),
                                                     False)]
        answers += [(row.as_subclass(Liar), False)] if not torch.equal(row, truth) else []
        for answer, right in answers:
            Liar.claim = truth
            assert accepted(storage_strides.compare_diagonal_view,
                            LocalFunction(lambda x, r=answer: r), x) is right, (x, answer)


def test_seeded_init_and_train_only_refuse_a_lying_subclass():
    shapes, seed, dtype = [(2, 3), (3,)], 0, torch.float32
    truth = seeded_oracle.torch_seeded_init(shapes, seed, dtype)
    fake = [liar(torch.zeros_like(truth[0]), truth[0]), truth[1]]
    assert not accepted(creating_tensors.compare_seeded_init,
                        LocalFunction(lambda *a: fake), shapes, seed, dtype, truth=truth)
    example = autograd.train_only_examples()[0]
    params = autograd_oracle.torch_train_only(*example)
    Liar.claim = None
    lying = {name: p.as_subclass(Liar) + 1 for name, p in params.items()}
    assert not accepted(autograd.compare_train_only, LocalFunction(lambda *a: lying), *example,
                        truth=params)
    meta = {name: p.to("meta") for name, p in params.items()}
    assert not accepted(autograd.compare_train_only, LocalFunction(lambda *a: meta), *example,
                        truth=params)


def test_int_answers_are_real_ints_in_the_checks():
    for answer in [(12.0, 4.0, 1.0), (12, 4, True)]:
        assert not accepted(storage_strides.compare_contiguous_strides,
                            LocalFunction(lambda s, r=answer: r), (2, 3, 4))
    tensors = devices.pack_examples()[1][0]
    buffer, meta = torch_pack(tensors)
    for bad in ([(d, s, False if o == 0 else o) for d, s, o in meta],
                [(d, tuple(map(float, s)), o) for d, s, o in meta]):
        assert not accepted(devices.compare_pack, LocalFunction(lambda t, r=(buffer, bad): r),
                            tensors, truth=(buffer, meta))
    assert accepted(devices.compare_pack, LocalFunction(lambda t: (buffer, meta)), tensors,
                    truth=(buffer, meta))
