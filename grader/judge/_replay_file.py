"""Recorded examples kept on disk, for the judges that come later: read back exactly, or not kept.

A warm judge searches each chapter's checks once and replays them after
(``_replay``); a new judge (a later batch, a regrade, a cluster's other worker)
would search again. So each judge adds the examples it recorded to a file per
assignment, which the run names by everything the examples depend on
(``grader.store.examples_file``: the grader's files, settings and versions), and
reads that file before its first notebook of the assignment.

``torch.save`` does not keep everything a verdict can depend on: it reads a
conjugate view back as a plain tensor, and drops the negative bit (measured,
torch 2.13). So what is kept is read back right away and compared with what
was recorded, property by property (``exactly``): a check whose examples differ
in anything is not kept, and is searched as before. The file is read with
torch's ``weights_only`` unpickler, which builds tensors and plain values and
runs no code; a file that cannot be read is as good as none.
"""

import contextlib
import io
import os
import uuid
from pathlib import Path

import torch

__all__ = ["exactly", "keep", "read", "device_file"]

_FORMAT = 1  # what "examples" holds; a file of another format is not read
# Values a check's arguments may hold besides containers and tensors, compared by repr
# (which tells -0.0 from 0.0 and writes nan as nan). Anything else is not kept.
_PLAIN = (type(None), bool, int, float, complex, str, bytes, torch.dtype, torch.device,
          torch.layout, slice, range, type(Ellipsis))
_UNPICKLABLE_BY_DEFAULT = [slice, range, type(Ellipsis)]  # allowed to torch's safe unpickler
_EXACT_BY_EQUALITY = {type(None), bool, int, str, bytes}


def device_file(stem: Path) -> Path:
    """The file for this judge's device: examples drawn on a GPU are not a CPU's."""
    return stem.with_name(f"{stem.name}-{'cuda' if torch.cuda.is_available() else 'cpu'}.pt")


def read(path: Path) -> dict:
    """(check file digest, test id) → recorded examples, as ``keep`` wrote them; {} where
    there is no such file, or it cannot be read."""
    try:
        with torch.serialization.safe_globals(_UNPICKLABLE_BY_DEFAULT):
            stored = torch.load(path, weights_only=True)
        if stored.get("format") == _FORMAT:
            return {tuple(key): log for key, log in stored["examples"]}
    except Exception:  # noqa: BLE001 - missing, half-written by a killed judge, another format
        pass
    return {}


def keep(path: Path, recorded: dict) -> None:
    """Add to ``path`` each check of ``recorded`` whose examples read back exactly."""
    exact = {key: log for key, log in recorded.items() if _reads_back_exactly(log)}
    if not exact:
        return
    kept = {**read(path), **exact}  # what other judges kept meanwhile stays
    buffer = io.BytesIO()
    torch.save({"format": _FORMAT, "examples": list(kept.items())}, buffer)
    partial = path.with_name(f"{path.name}.{os.getpid()}.{uuid.uuid4().hex}.partial")
    with contextlib.suppress(OSError):  # a file we cannot write costs time, never a verdict
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(buffer.getvalue())
        partial.replace(path)  # atomic: another judge reads the old file or the new one


def _reads_back_exactly(log: list) -> bool:
    try:
        return exactly(log, _read_back(log))
    except Exception:  # noqa: BLE001 - a value the safe unpickler refuses, or a property
        return False  # we cannot compare: not kept, searched


def _read_back(value):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    buffer.seek(0)
    with torch.serialization.safe_globals(_UNPICKLABLE_BY_DEFAULT):
        return torch.load(buffer, weights_only=True)  # refused: not kept (the caller)


def exactly(recorded, back, storages: dict | None = None) -> bool:
    """Whether ``back`` is ``recorded`` in everything a check's call can see: the same
    types, the same tensors bit for bit with the same layout, bits and storage sharing."""
    storages = {} if storages is None else storages
    if type(recorded) is not type(back):
        return False
    if isinstance(recorded, torch.Tensor):
        return _same_tensor(recorded, back, storages)
    if isinstance(recorded, (tuple, list)):
        return len(recorded) == len(back) and _same_items(recorded, back, storages)
    if isinstance(recorded, dict):
        return exactly(list(recorded.items()), list(back.items()), storages)
    return isinstance(recorded, _PLAIN) and repr(recorded) == repr(back)


def _same_items(recorded, back, storages: dict) -> bool:
    """``exactly`` for two sequences of one length. A pair is compared once: every call a
    check logs holds the random generators' state, most often one object shared by all
    its calls (``_replay._recording``; pickle keeps it shared), whose 625 numbers were
    compared one by one for each call, 5.4 million in all for the course's checks (5.3 of
    the 7.6 s the judge spent keeping examples, under cProfile). And numbers only (that
    random state) compare at once: ``==`` on one type tells them apart as ``repr`` does."""
    pair = ("compared", id(recorded), id(back))  # both live as long as the comparison
    if pair in storages:
        return True
    if _only_exact_by_equality(recorded):  # and so is ``back``, if its types are the same
        same = list(map(type, recorded)) == list(map(type, back)) and recorded == back
    else:
        same = all(exactly(a, b, storages) for a, b in zip(recorded, back))
    storages[pair] = same
    return same


def _only_exact_by_equality(items) -> bool:
    """Values whose ``==`` is ``repr``'s answer when their types are the same: no float
    (-0.0 == 0.0, nan != nan), nothing whose ``==`` a class defines."""
    return all(type(item) in _EXACT_BY_EQUALITY for item in items)


def _same_tensor(a: torch.Tensor, b: torch.Tensor, storages: dict) -> bool:
    if a.layout != torch.strided or b.layout != torch.strided or a.is_quantized or a.is_nested:
        return False  # kept only where every property below is defined
    if _seen(a) != _seen(b):
        return False
    return (_same_storage(a.untyped_storage(), b.untyped_storage(), storages)
            and exactly(a.grad, b.grad, storages) and exactly(vars(a), vars(b), storages))


def _seen(t: torch.Tensor) -> tuple:
    """What a call can see of a strided tensor besides its values and storage."""
    return (t.dtype, t.shape, t.stride(), t.storage_offset(), t.device, t.is_conj(),
            t.is_neg(), t.requires_grad, t.is_leaf, t._is_view(), t.is_inference())


def _same_storage(a, b, storages: dict) -> bool:
    """The same bytes, and shared between tensors exactly as the recorded ones shared theirs
    (``storages``: each recorded storage → its copy, and back)."""
    ours, theirs = ("recorded", a.device, a.data_ptr()), ("back", b.device, b.data_ptr())
    if storages.setdefault(ours, theirs) != theirs or storages.setdefault(theirs, ours) != ours:
        return False
    if a.nbytes() != b.nbytes():
        return False
    if a.device.type == "meta":
        return True  # a meta tensor has no values: its shape and layout are all there is
    as_bytes = [torch.empty(0, dtype=torch.uint8, device=s.device).set_(s) for s in (a, b)]
    return torch.equal(*as_bytes)
