"""Comparing a student's answer with torch's: the one set of rules every check uses.

Tensors. An answer is right only if it is a tensor with torch's shape, dtype
and layout, on torch's device where the exercise says the device matters
(``device=True``), and with values that agree: exactly for integers and bool;
for floating (and complex) types within ``atol + rtol * |truth|``, where NaN
is right only where torch has NaN, an infinity only where torch has the same
one, and a finite value never matches either. A ``meta`` truth has no values
to compare; a ``meta`` answer where torch has values is always wrong.

A student's tensor may be a subclass whose ``__eq__``, ``__torch_function__``
or ``.detach`` lies. Subclasses are not refused (one crosses the wire as a
plain tensor anyway), but ``as_plain`` turns the answer into a plain
``torch.Tensor`` before any of its methods runs, and only that is compared.

Numbers. ``abs(value - truth) > tolerance`` is False when ``value`` is NaN, so
a check written that way passes a NaN answer. Here a number is close to the
truth only if both are NaN, both are the same infinity, or both are finite and
``|value - truth| <= atol + rtol * |truth|``. An int must be a real int: a
bool (``True == 1``) or a float is not one.

Messages are in the kernel's language (``anatomy_widgets._language``, context
"checks"): the student's, where the public checks run; English elsewhere.
"""

import math

import torch

from anatomy_widgets._language import english, translate

from ._registry import Mismatch
from ._test_cell import fill

__all__ = [
    "scalar_close",
    "as_int",
    "expect_int",
    "expect_ints",
    "expect_float",
    "is_tensor",
    "as_plain",
    "shares_storage",
    "describe_tensor",
    "DescribedCall",
    "tolerance",
    "first_difference",
    "expect_like",
    "expect_tensor",
]


# --- numbers --------------------------------------------------------------------------


def scalar_close(value: float, truth: float, rtol: float, atol: float = 0.0) -> bool:
    if math.isnan(truth) or math.isnan(value):
        return math.isnan(truth) and math.isnan(value)
    if math.isinf(truth) or math.isinf(value):
        return value == truth
    return abs(value - truth) <= atol + rtol * abs(truth)


def as_int(value) -> int | None:
    """The value of a real int (bool excluded), read past any ``__eq__`` a subclass defines."""
    if not issubclass(type(value), int) or issubclass(type(value), bool):
        return None
    return int.__int__(value)


def _as_float(value, ints: bool) -> float | None:
    """The value of a real float (or int, with ``ints``), read past any subclass's methods."""
    if issubclass(type(value), float):
        return float.__float__(value)
    number = as_int(value) if ints else None
    if number is None:
        return None
    try:
        return float(number)
    except OverflowError:  # a huge int is far from any float truth
        return math.inf if number > 0 else -math.inf


def _subject(call: str, what: str | None) -> str:
    """Who a message is about: ``call: what``, or the call's result."""
    what = what or translate("your result", "checks")
    return fill(translate("{call}: {what}", "checks"), call=call, what=what) if call else what


def _torch_says(truth) -> str:
    return translate("torch: {truth}", "checks").format(truth=truth)


def _kind(value) -> str:
    return f"{type(value).__name__} {value!r:.60}"


def expect_int(call: str, result, truth: int, *, what=None, why=None) -> int:
    """``result`` must be a Python int (not a bool, float or tensor) equal to ``truth``."""
    value = as_int(result)
    if value is None:
        raise Mismatch(fill(translate("{subject} is {kind}; expected an int", "checks"),
                            subject=_subject(call, what), kind=_kind(result)))
    if value != truth:
        raise Mismatch(fill(translate("{subject} is {value}; {why}", "checks"),
                            subject=_subject(call, what), value=value,
                            why=why or _torch_says(truth)))
    return value


def expect_ints(call: str, result, truth, *, what=None, why=None) -> tuple[int, ...]:
    """``result`` must be a tuple or list of Python ints equal to ``truth``'s."""
    values = tuple(map(as_int, result)) if isinstance(result, (tuple, list)) else None
    if values is None or None in values or values != tuple(truth):
        raise Mismatch(fill(translate("{subject} is {value}; {why}", "checks"),
                            subject=_subject(call, what), value=f"{result!r:.120}",
                            why=why or _torch_says(tuple(truth))))
    return values


def expect_float(call: str, result, truth: float, *, rtol: float, atol: float = 0.0,
                 ints: bool = False, what=None, why=None) -> float:
    """``result`` must be a Python float (or int, with ``ints``; never a bool) that is
    ``scalar_close`` to ``truth``: NaN or an infinity only where torch has it."""
    value = _as_float(result, ints)
    if value is None:
        raise Mismatch(fill(translate("{subject} is {kind}; expected a float", "checks"),
                            subject=_subject(call, what), kind=_kind(result)))
    if not scalar_close(value, truth, rtol, atol):
        raise Mismatch(fill(translate("{subject} is {value}; {why}", "checks"),
                            subject=_subject(call, what), value=repr(value),
                            why=why or _torch_says(repr(truth))))
    return value


# --- tensors: reading the student's safely ----------------------------------------------


def is_tensor(value) -> bool:
    """By the real type: an object can claim any ``__class__`` to ``isinstance``."""
    return issubclass(type(value), torch.Tensor)


def as_plain(value) -> torch.Tensor:
    """``value`` (a tensor) as a plain ``torch.Tensor`` on the same memory, autograd state kept.

    ``torch.Tensor.as_subclass`` is torch's own, so no method of the subclass
    runs; a ``__torch_dispatch__`` subclass may answer it with another subclass,
    hence a second try.
    """
    for _ in range(2):
        if type(value) is torch.Tensor:
            return value
        try:
            value = torch.Tensor.as_subclass(value, torch.Tensor)
        except Exception as exc:  # noqa: BLE001 - a subclass that breaks is its author's answer
            raise Mismatch(translate("your tensor subclass cannot be read as a tensor: {error}",
                                     "checks").format(error=exc)) from None
    if type(value) is torch.Tensor:
        return value
    raise Mismatch(translate("your tensor subclass cannot be read as a plain torch.Tensor",
                             "checks"))


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two tensors use one storage; an empty or meta storage (address 0) shares none."""
    where = as_plain(a).untyped_storage().data_ptr()
    return where != 0 and where == as_plain(b).untyped_storage().data_ptr()


# --- tensors: describing -----------------------------------------------------------------


def _fmt(value) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


def _values(t: torch.Tensor, max_values: int) -> str:
    if t.device.type == "meta":
        return translate("(meta: no values)", "checks")
    if t.layout != torch.strided:
        return translate("({layout}: not shown)", "checks").format(layout=t.layout)
    shown = t.flatten()[:max_values].tolist()
    more = ", ..." if t.numel() > max_values else ""
    return "[" + ", ".join(map(_fmt, shown)) + more + "]"


def describe_tensor(t: torch.Tensor, max_values: int = 8) -> str:
    """Shape, layout, dtype, device (unless CPU) and the first values, row-major."""
    t = as_plain(t).detach()
    if t.layout == torch.strided:
        offset = translate(", offset {offset}", "checks").format(
            offset=t.storage_offset()) if t.storage_offset() else ""
        layout = translate(", stride {stride}{offset}", "checks").format(stride=t.stride(),
                                                                         offset=offset)
    else:
        layout = translate(", layout {layout}", "checks").format(layout=t.layout)
    device = "" if t.device.type == "cpu" else \
        translate(", device {device}", "checks").format(device=t.device.type)
    return translate("shape {shape}{layout}, dtype {dtype}{device}, values {values}",
                     "checks").format(shape=tuple(t.shape), layout=layout, dtype=t.dtype,
                                      device=device, values=_values(t, max_values))


class DescribedCall:
    """``name(arguments)`` with each tensor argument described (``describe_tensor``), as a
    message's ``{call}``: written when a message is, never for a check that passes. Eager,
    chapter 3's checks wrote 1,149 descriptions per notebook for none shown (0.13 s of a
    judge's 1.2 s). The arguments must not change before a message is written."""

    __slots__ = ("name", "args")

    def __init__(self, name: str, *args):
        self.name, self.args = name, args

    def __str__(self) -> str:
        shown = ", ".join(describe_tensor(a) if is_tensor(a) else repr(a) for a in self.args)
        return f"{self.name}({shown})"


# --- tensors: comparing --------------------------------------------------------------------

_TOLERANCE = {  # (rtol, atol): a few units in the last place of each floating dtype
    torch.float16: (2e-3, 2e-3),
    torch.bfloat16: (2e-2, 2e-2),
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-9, 1e-12),
}


def tolerance(dtype: torch.dtype, rtol: float | None = None) -> dict:
    """``rtol`` and ``atol`` for results computed in ``dtype`` (exact for other dtypes)."""
    default_rtol, atol = _TOLERANCE.get(dtype, (0.0, 0.0))
    return {"rtol": default_rtol if rtol is None else rtol, "atol": atol}


def _agree(result: torch.Tensor, truth: torch.Tensor, rtol: float, atol: float):
    """Elementwise agreement of plain tensors of one shape and dtype."""
    if truth.is_complex():  # each part as a float; conjugation resolved into the values
        parts = [torch.view_as_real(t.resolve_conj().resolve_neg()) for t in (result, truth)]
        return _agree(*parts, rtol, atol).all(-1)
    if not truth.is_floating_point():
        return result == truth
    # In float64 every float16/bfloat16/float32 value is exact and differences cannot overflow.
    mine, torchs = result.double(), truth.double()
    both_nan = mine.isnan() & torchs.isnan()
    same_inf = mine.isinf() & (mine == torchs)
    near = (mine - torchs).abs() <= atol + rtol * torchs.abs()
    return both_nan | same_inf | (mine.isfinite() & torchs.isfinite() & near)


def first_difference(result, truth: torch.Tensor, rtol: float = 0.0, atol: float = 0.0):
    """The first index, in row-major order, where ``result`` and ``truth`` (same shape and
    dtype, both with values) disagree; None where they agree everywhere."""
    differ = ~_agree(as_plain(result).detach(), truth.detach(), rtol, atol)
    if not differ.any():
        return None
    return tuple(differ.nonzero()[0].tolist())


def _traits(t: torch.Tensor, truth: torch.Tensor, device: bool):
    yield english("shape", "checks"), tuple(t.shape), tuple(truth.shape)
    yield english("dtype", "checks"), t.dtype, truth.dtype
    yield english("layout", "checks"), t.layout, truth.layout
    # Without device=True the device is free, but a meta answer has no values to compare.
    if device or (t.device.type == "meta" and truth.device.type != "meta"):
        yield english("device", "checks"), t.device.type, truth.device.type


def expect_like(call: str, result, truth: torch.Tensor, *, device: bool = False,
                what: str | None = None) -> torch.Tensor:
    """``result`` as a plain tensor, if it has ``truth``'s shape, dtype, layout and (with
    ``device=True``, or where the answer is on meta) device; values are not compared."""
    if not is_tensor(result):
        raise Mismatch(fill(translate("{subject} is {kind}; expected a tensor of {truth}",
                                      "checks"),
                            subject=_subject(call, what), kind=_kind(result),
                            truth=describe_tensor(truth)))
    plain = as_plain(result)
    trait = translate("{name} {mine} (torch's: {torchs})", "checks")
    wrong = [trait.format(name=translate(name, "checks"), mine=mine, torchs=torchs)
             for name, mine, torchs in _traits(plain, truth, device) if mine != torchs]
    if wrong:
        raise Mismatch(fill(translate("{subject} has the wrong {wrong}.\n  yours: {yours}\n  "
                                      "torch: {torchs}", "checks"),
                            subject=_subject(call, what),
                            wrong=translate(", ", "checks").join(wrong),
                            yours=describe_tensor(plain), torchs=describe_tensor(truth)))
    return plain


def expect_tensor(call: str, result, truth: torch.Tensor, *, rtol: float = 0.0,
                  atol: float = 0.0, device: bool = False, what: str | None = None):
    """``result`` as a plain tensor, if it is like ``truth`` (``expect_like``) and its values
    agree with torch's within ``atol + rtol * |truth|`` (exactly, by default)."""
    plain = expect_like(call, result, truth, device=device, what=what)
    if truth.device.type == "meta":
        return plain
    mine, truth = plain.detach().to(truth.device), truth.detach()
    index = first_difference(mine, truth, rtol, atol)
    if index is not None:
        within = translate(" (beyond rtol={rtol:g}, atol={atol:g})", "checks").format(
            rtol=rtol, atol=atol) if rtol or atol else ""
        raise Mismatch(fill(translate(
            "{subject} has wrong values, first at index {index}: yours {mine!r}, torch's "
            "{torchs!r}{within}.\n  yours: {yours}\n  torch: {truth}", "checks"),
            subject=_subject(call, what), index=index, mine=mine[index].item(),
            torchs=truth[index].item(), within=within, yours=describe_tensor(mine),
            truth=describe_tensor(truth)))
    return plain
