"""A call's inputs in a line a student can read: tensors by their layout, small ones by value."""

import torch

__all__ = ["describe_call"]

_VALUES_UP_TO = 12  # elements: a larger tensor is shown by its layout only
_LIMIT = 400  # characters of the whole line


def _describe(value) -> str:
    if isinstance(value, torch.Tensor):
        dtype = str(value.dtype).removeprefix("torch.")
        layout = (f"shape={tuple(value.shape)}, stride={value.stride()}, "
                  f"offset={value.storage_offset()}, dtype={dtype}")
        small = value.device.type != "meta" and value.numel() <= _VALUES_UP_TO
        return f"tensor({value.tolist()}, {layout})" if small else f"tensor({layout})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(map(_describe, value))
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' * (len(value) == 1)})"
    if callable(value):
        return getattr(value, "__name__", "a function")
    return repr(value)


def describe_call(name: str, args: list, kwargs: dict) -> str:
    parts = [*map(_describe, args), *(f"{key}={_describe(v)}" for key, v in kwargs.items())]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= _LIMIT else text[:_LIMIT - 3] + "..."
