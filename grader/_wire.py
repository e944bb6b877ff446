"""The only things that cross between the judge and the student's process.

Plain data (with dtypes, devices and namedtuples rebuilt from names) and
CPU/meta tensors, as JSON with tagged containers: no pickle,
no student-defined class ever exists on the judge's side. A tensor travels as
its metadata plus the bytes of its whole storage, so layout (stride, offset,
overlap) survives the trip. Each storage's bytes cross once per message: a
tensor over memory met earlier in it (depth first, the order of
``tensors_in``) says ``{"ref": i}`` and is rebuilt over that same storage, so
sharing survives too (also where two storages wrap one memory, as
``torch.from_numpy`` of a tensor's array does). Index ``i`` counts
``shared_with`` first (for a result, the judge's own arguments, which it is
then rebuilt over), then each tensor of the message that carried its own bytes.
"""

import base64
import collections
import functools
import json
import os
import re
import struct

import torch

__all__ = ["encode", "decode", "WireError", "frame", "send", "receive", "tensors_in", "MAX_NUMEL",
           "CELL_OUTPUT_LIMIT", "NOTEBOOK_OUTPUT_LIMIT"]

MAX_NUMEL = 10_000_000  # larger results are refused, never allocated
# What a notebook's run may print, kept for feedback. The student's process cuts each cell's
# output at the first (megabytes printed cost nothing); the judge cuts again, to both,
# whatever that process claims to have kept (``grader.judge._remote``).
CELL_OUTPUT_LIMIT = 10_000  # characters of one cell's output, result or error
NOTEBOOK_OUTPUT_LIMIT = 100_000  # characters of all cells' outputs together
MAX_STORAGE_BYTES = 64 * 2**20
# A message is at most one storage's worth of base64 and 1 MiB besides, with at
# most a million JSON containers and items: decoding one costs the judge a
# bounded amount of memory (about 250 MB at worst), whatever the sender claims.
MAX_FRAME_BYTES = MAX_STORAGE_BYTES * 4 // 3 + 2**20
MAX_JSON_ITEMS = 1_000_000

_DTYPES = {
    str(d).removeprefix("torch."): d
    for d in (
        torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
        torch.float16, torch.bfloat16, torch.float32, torch.float64,
        torch.complex64, torch.complex128,
    )
}


class WireError(ValueError):
    """A value that cannot cross, or a message that does not decode."""


def tensors_in(value) -> list:
    """Tensors inside ``value``, depth first: the order ``ref`` counts in."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in tensors_in(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in tensors_in(item)]
    return []


def _storage_bytes(t: torch.Tensor) -> bytes:
    storage = t.untyped_storage()
    if storage.nbytes() > MAX_STORAGE_BYTES:
        raise WireError(f"a tensor's storage is over {MAX_STORAGE_BYTES} bytes")
    as_bytes = torch.empty(0, dtype=torch.uint8).set_(storage)
    return as_bytes.numpy().tobytes()


def _memory(t: torch.Tensor) -> tuple[int, int] | None:
    """The bytes under ``t``'s storage: (address, size). None shares nothing: empty and
    meta storages all sit at address 0."""
    if t.device.type != "cpu" or t.layout != torch.strided:
        return None
    storage = t.untyped_storage()
    ptr, nbytes = storage.data_ptr(), storage.nbytes()
    return (ptr, nbytes) if ptr and nbytes else None


class _Storages:
    """The storages a message has met so far, numbered as ``ref`` counts them."""

    def __init__(self, shared_with):
        self._seen, self._count = [], 0  # (address, size, number), first met first
        for t in shared_with:
            self.add(t)

    def find(self, t: torch.Tensor) -> tuple[int, int] | None:
        """(number, byte offset) of a storage met before whose memory holds all of ``t``'s.

        Two storages can be one memory: ``torch.from_numpy`` of an array made from
        a tensor wraps the same bytes in a storage of its own, perhaps shorter.
        """
        memory = _memory(t)
        if memory is None:
            return None
        ptr, nbytes = memory
        for start, size, number in self._seen:
            if start <= ptr and ptr + nbytes <= start + size:
                return number, ptr - start
        return None

    def add(self, t: torch.Tensor) -> None:
        memory = _memory(t)
        if memory is not None:
            self._seen.append((*memory, self._count))
        self._count += 1  # counted even when unshareable: the decoder numbers the same way


def _encode_tensor(t: torch.Tensor, storages: _Storages) -> dict:
    if t.device.type not in ("cpu", "meta") or t.layout != torch.strided:
        raise WireError(f"only CPU or meta strided tensors cross, not {t.device}/{t.layout}")
    requires_grad = bool(t.requires_grad)  # read before detach, which clears it
    t = t.detach().as_subclass(torch.Tensor)
    meta = {
        "$t": "tensor", "dtype": str(t.dtype).removeprefix("torch."),
        "device": t.device.type, "shape": list(t.shape), "stride": list(t.stride()),
        "offset": t.storage_offset(), "requires_grad": requires_grad,
    }
    if t.device.type == "cpu":
        found = storages.find(t)
        # Offsets count elements: a storage starting mid-element cannot be referred to.
        if found is not None and found[1] % t.element_size() == 0:
            meta["ref"], meta["offset"] = found[0], meta["offset"] + found[1] // t.element_size()
        else:
            meta["storage"] = base64.b64encode(_storage_bytes(t)).decode("ascii")
            storages.add(t)
    return meta


def encode(value, shared_with: list = ()):
    """Plain JSON for ``value``; a tensor over a storage of ``shared_with``, or of an
    earlier tensor in ``value``, refers to it instead of carrying its bytes again."""
    return _encode(value, _Storages(shared_with))


def _encode(value, storages: _Storages):
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [_encode(v, storages) for v in value]
    if kind is tuple or kind is torch.Size:
        return {"$t": "tuple", "v": [_encode(v, storages) for v in value]}
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise WireError("only dicts with str keys cross")
        return {"$t": "dict", "v": [[k, _encode(v, storages)] for k, v in value.items()]}
    if kind is torch.dtype:
        return {"$t": "dtype", "v": str(value).removeprefix("torch.")}
    if kind is torch.device:
        return {"$t": "device", "v": str(value)}
    if isinstance(value, torch.Tensor):
        return _encode_tensor(value, storages)
    if isinstance(value, tuple) and hasattr(kind, "_fields"):
        return {"$t": "namedtuple", "name": kind.__name__, "fields": list(kind._fields),
                "v": [_encode(v, storages) for v in value]}
    raise WireError(f"{kind.__name__!r} objects cannot be graded; return plain data or tensors")


def _int_list(value, what: str) -> list[int]:
    if type(value) is not list or not all(type(v) is int for v in value):
        raise WireError(f"tensor {what} must be a list of ints")
    return value


def _numel(shape: list[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


def _check_in_bounds(shape, stride, offset, itemsize, nbytes) -> None:
    # Highest element touched: offset + sum((size - 1) * stride); torch would
    # otherwise grow a resizable storage instead of refusing.
    if offset < 0 or min(stride, default=0) < 0:
        raise WireError("negative stride or storage offset")
    last = offset + sum((n - 1) * s for n, s in zip(shape, stride, strict=True))
    if _numel(shape) and (last + 1) * itemsize > nbytes:
        raise WireError(f"layout {tuple(shape)}/{tuple(stride)}+{offset} is out of its storage")


def _decode_tensor(msg: dict, storages: list) -> torch.Tensor:
    dtype = _DTYPES.get(msg.get("dtype"))
    shape, stride = _int_list(msg.get("shape"), "shape"), _int_list(msg.get("stride"), "stride")
    offset = msg.get("offset")
    if dtype is None or type(offset) is not int or len(shape) != len(stride):
        raise WireError("malformed tensor")
    if min(shape, default=0) < 0 or _numel(shape) > MAX_NUMEL:
        raise WireError(f"tensor shape {tuple(shape)} is negative or over {MAX_NUMEL} elements")
    if msg.get("device") == "meta":
        result = torch.empty_strided(shape, stride, dtype=dtype, device="meta")
    else:
        storage = _decode_storage(msg, storages)
        _check_in_bounds(shape, stride, offset, dtype.itemsize, storage.nbytes())
        result = torch.empty(0, dtype=dtype).set_(storage, offset, shape, stride)
    if msg.get("requires_grad") is True and (dtype.is_floating_point or dtype.is_complex):
        result.requires_grad_(True)
    return result


def _decode_storage(msg: dict, storages: list):
    """The storage a CPU tensor refers to, or the one it carries (then numbered next)."""
    if "ref" in msg:
        index = msg["ref"]
        # Only storages met before this tensor: a reference can never run ahead.
        if type(index) is not int or not 0 <= index < len(storages):
            raise WireError("tensor refers to a storage not sent before it")
        if storages[index].device.type != "cpu":
            raise WireError("tensor refers to a storage that is not in CPU memory")
        return storages[index]
    raw = bytearray(base64.b64decode(msg.get("storage", ""), validate=True))
    storage = torch.frombuffer(raw, dtype=torch.uint8).untyped_storage() if raw else \
        torch.empty(0, dtype=torch.uint8).untyped_storage()
    storages.append(storage)
    return storage


_DEVICE = re.compile(r"(cpu|meta|cuda|mps|xpu)(:[0-9]{1,3})?")


@functools.lru_cache(maxsize=256)
def _namedtuple_type(name: str, fields: tuple[str, ...]) -> type:
    # A fresh namedtuple built from names only: no student class crosses.
    if len(name) > 100 or len(fields) > 100:
        raise ValueError("namedtuple name or field list too long")
    return collections.namedtuple(name, fields)


def _decode_namedtuple(value: dict, storages: list):
    name, fields, items = value["name"], value["fields"], value["v"]
    if type(name) is not str or type(fields) is not list or type(items) is not list \
            or not all(type(f) is str for f in fields) or len(fields) != len(items):
        raise ValueError("fields and values do not match")
    return _namedtuple_type(name, tuple(fields))(*(_decode(v, storages) for v in items))


def decode(value, shared_with: list = ()):
    """Rebuild plain Python data and tensors; anything unexpected is refused.

    ``shared_with`` must be the tensors ``encode`` was given, in the same order.
    """
    return _decode(value, [t.untyped_storage() for t in shared_with])


def _decode(value, storages: list):
    if value is None or type(value) in (bool, int, float, str):
        return value
    if type(value) is list:
        return [_decode(v, storages) for v in value]
    if type(value) is not dict:
        raise WireError(f"unexpected {type(value).__name__} on the wire")
    tag = value.get("$t")
    try:
        if tag == "tuple":
            return tuple(_decode(v, storages) for v in value["v"])
        if tag == "dict":
            return {str(k): _decode(v, storages) for k, v in value["v"]}
        if tag == "dtype":
            return _DTYPES[value["v"]]
        if tag == "tensor":
            return _decode_tensor(value, storages)
        if tag == "namedtuple":
            return _decode_namedtuple(value, storages)
        if tag == "device" and type(value["v"]) is str and _DEVICE.fullmatch(value["v"]):
            return torch.device(value["v"])
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        raise WireError(f"malformed {tag}: {exc}") from None
    raise WireError(f"unknown tag {tag!r}")


def frame(message: dict) -> bytes:
    """One length-prefixed JSON message."""
    data = json.dumps(message).encode("utf-8")
    return struct.pack(">I", len(data)) + data


def send(fd: int, message: dict) -> None:
    view = memoryview(frame(message))
    while view:
        view = view[os.write(fd, view):]


def receive(read_exactly) -> dict:
    """Read one message with ``read_exactly(n) -> bytes``."""
    (length,) = struct.unpack(">I", read_exactly(4))
    if length > MAX_FRAME_BYTES:
        raise WireError(f"message of {length} bytes, over {MAX_FRAME_BYTES}")
    data = read_exactly(length)
    # Every container or item but the first needs one of these bytes.
    if data.count(b"[") + data.count(b"{") + data.count(b",") > MAX_JSON_ITEMS:
        raise WireError(f"message of over {MAX_JSON_ITEMS} items")
    try:
        message = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise WireError("message nested too deeply") from None
    if type(message) is not dict:
        raise WireError("a message must be an object")
    return message
