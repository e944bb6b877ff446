"""What crosses between judge and student: layouts survive, forgeries do not."""

import collections
import json

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader._strategies import layouts
from grader._wire import WireError, decode, encode

ANY_LAYOUT = layouts(permute=True, step=True, offset=True, expand=True)
DTYPES = st.sampled_from([torch.int64, torch.float32, torch.bool, torch.bfloat16, torch.uint8])


def _trip(value, shared_with=()):
    return decode(json.loads(json.dumps(encode(value, shared_with))), shared_with)


@settings(max_examples=80, deadline=None)
@given(t=ANY_LAYOUT, dtype=DTYPES)
def test_any_layout_arrives_with_its_stride_offset_and_values(t, dtype):
    # Same layout over a storage of another dtype.
    elements = t.untyped_storage().nbytes() // t.element_size()
    t = torch.arange(elements).to(dtype).as_strided(t.shape, t.stride(), t.storage_offset())
    back = _trip(t)
    assert back.dtype == t.dtype and back.shape == t.shape
    assert back.stride() == t.stride() and back.storage_offset() == t.storage_offset()
    assert torch.equal(back, t)
    assert back.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()


@settings(max_examples=50, deadline=None)
@given(t=ANY_LAYOUT)
def test_a_result_sharing_an_argument_is_rebuilt_over_that_argument(t):
    other = torch.zeros(3)
    back = _trip(t.unsqueeze(0), shared_with=[other, t])
    assert back.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()


def test_plain_data_keeps_its_types():
    value = (1, 2.5, True, None, "s", [1, (2,)], {"k": torch.float64}, torch.Size([2, 3]))
    assert _trip(value) == (1, 2.5, True, None, "s", [1, (2,)], {"k": torch.float64}, (2, 3))
    assert type(_trip(True)) is bool and type(_trip(1)) is int


def test_a_tensor_keeps_its_requires_grad_flag_but_never_its_graph():
    leaf = torch.ones(3, requires_grad=True)
    leaked = leaf * 2  # a result still attached to a graph
    got_leaf, got_leaked, got_plain = _trip([leaf, leaked, torch.ones(2)])
    assert got_leaf.requires_grad and got_leaked.requires_grad and not got_plain.requires_grad
    assert got_leaked.grad_fn is None and got_leaked.is_leaf


def test_devices_and_namedtuples_cross_by_name():
    Batch = collections.namedtuple("Batch", ["x", "label"])
    sent = Batch(torch.arange(3), "cat")
    got = _trip({"batch": sent, "where": torch.device("meta")})
    assert got["where"] == torch.device("meta")
    assert type(got["batch"]).__name__ == "Batch" and got["batch"]._fields == ("x", "label")
    assert type(got["batch"]) is not Batch  # rebuilt from names, not the sender's class
    assert torch.equal(got["batch"].x, sent.x) and got["batch"].label == "cat"


class Sneaky(int):
    def __eq__(self, other):
        return True


NOT_PLAIN = [object(), Sneaky(3), {1: 2}, b"bytes", torch.zeros(2).to_sparse()]


@pytest.mark.parametrize("value", NOT_PLAIN)
def test_objects_that_are_not_plain_data_are_refused(value):
    with pytest.raises(WireError):
        encode(value)


FORGED = [
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [100], "stride": [1],
     "offset": 0, "arg": 0},  # claims to view far past the argument's storage
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [-1],
     "offset": 1, "arg": 0},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
     "offset": 0, "arg": 5},
    {"$t": "tensor", "dtype": "object", "device": "cpu", "shape": [1], "stride": [1],
     "offset": 0, "storage": ""},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [10**5, 10**5],
     "stride": [0, 0], "offset": 0, "arg": 0},  # a 10^10-element bomb
    {"$t": "pickle", "v": "gASVAAAA"},
    {"$t": "tuple", "v": 3},
    {"$t": "device", "v": "cuda; import os"},
    {"$t": "device", "v": 3},
    {"$t": "namedtuple", "name": "os.system", "fields": ["a"], "v": [1]},
    {"$t": "namedtuple", "name": "T", "fields": ["class"], "v": [1]},
    {"$t": "namedtuple", "name": "T", "fields": ["a", "b"], "v": [1]},
    {"$t": "namedtuple", "name": "T", "fields": [1], "v": [1]},
]


@pytest.mark.parametrize("message", FORGED)
def test_forged_messages_are_refused(message):
    with pytest.raises(WireError):
        decode(message, [torch.zeros(4)])
