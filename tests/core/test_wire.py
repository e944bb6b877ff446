"""What crosses between judge and student: layouts survive, forgeries do not."""

import collections
import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader._wire import WireError, decode, encode
from grader.hidden.strategies import layouts

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


def _over_one_storage(layouts_drawn):
    """Each drawn layout, all over one ``arange`` storage big enough for every one of them."""
    extent = max(t.untyped_storage().nbytes() // t.element_size() for t in layouts_drawn)
    storage = torch.arange(extent)
    return [storage.as_strided(t.shape, t.stride(), t.storage_offset()) for t in layouts_drawn]


def _storage_of(t):
    return t.untyped_storage().data_ptr(), t.untyped_storage().nbytes()


@settings(max_examples=80, deadline=None)
@given(drawn=st.lists(ANY_LAYOUT, min_size=2, max_size=4))
def test_arguments_viewing_one_storage_arrive_sharing_one_storage(drawn):
    views = _over_one_storage(drawn)
    other = torch.full((3,), 7.5)  # a storage of its own, between the views
    args, kwargs = [views[0], other, tuple(views[1:-1])], {"last": views[-1]}
    back_args, back_kwargs = _trip([args, kwargs])
    back = [back_args[0], *back_args[2], back_kwargs["last"]]
    for sent, got in zip(views, back, strict=True):
        assert got.shape == sent.shape and got.stride() == sent.stride()
        assert got.storage_offset() == sent.storage_offset() and torch.equal(got, sent)
    assert len({_storage_of(t) for t in back}) == 1
    assert _storage_of(back_args[1]) != _storage_of(back[0])
    assert _storage_of(back[0]) != _storage_of(views[0])  # a copy, not the sender's own


@settings(max_examples=50, deadline=None)
@given(drawn=st.lists(ANY_LAYOUT, min_size=2, max_size=4))
def test_a_shared_storage_is_sent_once(drawn):
    views = _over_one_storage(drawn)
    # The same layouts, each over a copy of the storage of its own.
    copies = [torch.empty(0, dtype=v.dtype).set_(
        v.untyped_storage().clone(), v.storage_offset(), v.shape, v.stride()) for v in views]
    shared, apart = (json.dumps(encode(ts)) for ts in (views, copies))
    storage = json.dumps(encode(views[0])["storage"])
    assert shared.count(storage) == 1 and shared.count('"storage"') == 1
    # Every copy but the first costs at least its bytes in base64.
    assert len(apart) - len(shared) >= (len(views) - 1) * len(storage)


def test_a_result_refers_to_its_own_earlier_tensors_after_the_arguments():
    argument, fresh = torch.arange(6.0), torch.arange(12).reshape(3, 4)
    sent = (fresh, argument[1:], fresh.t()[1:], {"again": fresh[2]})
    message = encode(sent, shared_with=[torch.zeros(2), argument])
    assert [m.get("ref") for m in message["v"][:3]] == [None, 1, 2]
    got = decode(json.loads(json.dumps(message)), [torch.zeros(2), argument])
    assert _storage_of(got[1]) == _storage_of(argument)  # rebuilt over the argument itself
    assert _storage_of(got[0]) == _storage_of(got[2]) == _storage_of(got[3]["again"])
    assert _storage_of(got[0]) != _storage_of(fresh)
    assert torch.equal(got[2], fresh.t()[1:]) and got[2].stride() == (1, 4)


def test_empty_and_meta_storages_are_never_taken_for_shared():
    empties = [torch.empty(0), torch.empty(0, 3), torch.empty(2, device="meta")]
    message = encode(empties)
    assert all("ref" not in m for m in message)
    assert [t.shape for t in decode(message)] == [(0,), (0, 3), (2,)]


def test_storages_at_one_address_but_of_other_sizes_are_not_taken_for_one():
    memory = np.arange(4.0)
    short, whole = torch.from_numpy(memory[:2]), torch.from_numpy(memory)
    assert short.data_ptr() == whole.data_ptr()
    got_short, got_whole = _trip([short, whole])
    assert torch.equal(got_short, short) and torch.equal(got_whole, whole)


def test_a_reference_to_a_meta_argument_is_refused():
    forged = {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [1],
              "stride": [1], "offset": 0, "ref": 0}
    with pytest.raises(WireError):
        decode(forged, [torch.empty(4, device="meta")])


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
     "offset": 0, "ref": 0},  # claims to view far past the argument's storage
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [-1],
     "offset": 1, "ref": 0},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
     "offset": 0, "ref": 5},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
     "offset": 0, "ref": -1},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
     "offset": 0, "ref": False},  # a bool is not an index
    [  # refers ahead, to a storage the message only sends after it
        {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
         "offset": 0, "ref": 1},
        {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [2], "stride": [1],
         "offset": 0, "storage": "AAAAAAAAAAA="},
    ],
    {"$t": "tensor", "dtype": "object", "device": "cpu", "shape": [1], "stride": [1],
     "offset": 0, "storage": ""},
    {"$t": "tensor", "dtype": "float32", "device": "cpu", "shape": [10**5, 10**5],
     "stride": [0, 0], "offset": 0, "ref": 0},  # a 10^10-element bomb
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


def test_a_storage_over_part_of_an_arguments_memory_is_rebuilt_over_the_argument():
    # torch.from_numpy of an array made from x wraps x's bytes in a storage of its own.
    x = torch.arange(8.0)
    inside = torch.from_numpy(x.numpy()[2:6:2])  # starts 16 bytes into x's memory
    assert inside.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    back = _trip(inside, shared_with=[x])
    assert back.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert back.storage_offset() == 2 and back.stride() == (2,) and torch.equal(back, inside)
