"""Sent as the last cell of a complete notebook: every exercise now answers adversarially.

Each named function is replaced by one that calls the right answer, then
returns it changed by ``KIND`` (the test fills in ``KIND`` and ``NAMES``):
every number NaN, +inf, -0.0 or the largest its type holds; tensors in the
wrong dtype, on the meta device, or as a subclass that lies about equality
with wrong values. Where the right answer raises, or holds nothing the change
applies to, the function returns that change applied to a float instead. No
such answer is right, so none may score.
"""

import functools
import math

import torch

KIND = "..."
NAMES = ["..."]


class Liar(torch.Tensor):
    """Says it equals whatever it is compared with."""

    def __eq__(self, other):
        return torch.ones(self.shape, dtype=torch.bool)

    def __ne__(self, other):
        return torch.zeros(self.shape, dtype=torch.bool)

    __hash__ = torch.Tensor.__hash__


_WRONG_DTYPE = {torch.float32: torch.float64, torch.float64: torch.float32,
                torch.int64: torch.int32, torch.bool: torch.uint8}


def _filled(t: torch.Tensor, value: float) -> torch.Tensor:
    dtype = t.dtype if t.is_floating_point() else torch.float32
    return torch.full(t.shape, value, dtype=dtype, device=t.device)


def _largest(t: torch.Tensor) -> torch.Tensor:
    info = torch.finfo(t.dtype) if t.is_floating_point() else torch.iinfo(
        t.dtype if t.dtype != torch.bool else torch.uint8)
    return torch.full(t.shape, info.max, dtype=t.dtype if t.dtype != torch.bool else torch.uint8)


def _tensor(t: torch.Tensor) -> torch.Tensor:
    t = t.detach()
    changes = {
        "nan": lambda: _filled(t, math.nan), "inf": lambda: _filled(t, math.inf),
        "negative zero": lambda: _filled(t, -0.0), "huge": lambda: _largest(t),
        "wrong dtype": lambda: t.to(_WRONG_DTYPE.get(t.dtype, torch.int64)),
        "meta": lambda: t.to("meta"),
        "lying subclass": lambda: (t.double() + 1).as_subclass(Liar),
    }
    return changes[KIND]()


def _number(x):
    if KIND in ("wrong dtype", "meta", "lying subclass"):
        return _tensor(torch.tensor(float(x)))
    return {"nan": math.nan, "inf": math.inf, "negative zero": -0.0, "huge": 1e308}[KIND]


def _same_tensor_value(result, right: torch.Tensor) -> bool:
    if not isinstance(result, torch.Tensor):
        return False
    result = result.as_subclass(torch.Tensor)
    if (result.device, result.dtype, result.shape) != (right.device, right.dtype, right.shape):
        return False
    if right.device.type == "meta":
        return True  # no values to differ in
    if right.is_floating_point():  # -0.0 equals 0.0, and NaN where torch has NaN is right
        return bool(torch.allclose(result, right, rtol=0, atol=0, equal_nan=True))
    return bool(torch.equal(result, right))


def _unchanged(result, right) -> bool:
    """Whether the change left the answer right after all (a zero, an empty tensor...)."""
    if isinstance(right, torch.Tensor):
        return _same_tensor_value(result, right)
    try:
        return repr(result) == repr(right)
    except Exception:  # noqa: BLE001 - a meta tensor or a liar may not print
        return False


def changed(value):
    """``value`` with the change applied to every number and tensor in it; where nothing
    in a part changes (a dtype, an empty shape), that part becomes a changed float."""
    if isinstance(value, torch.Tensor):
        result = _tensor(value)
    elif isinstance(value, (bool, int, float)):
        result = _number(value)
    elif isinstance(value, (list, tuple)):
        items = [changed(v) for v in value]
        result = type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    elif isinstance(value, dict):
        result = {k: changed(v) for k, v in value.items()}
    else:
        result = value
    return _number(0.5) if _unchanged(result, value) else result


def adversarial(fn):
    @functools.wraps(fn)
    def answer(*args, **kwargs):
        try:
            right = fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - where torch raises, answer instead
            return _number(0.5)
        return changed(right)

    return answer


if __name__ == "__main__":  # as a cell, after the notebook's own
    for _name in NAMES:
        globals()[_name] = adversarial(globals()[_name])
