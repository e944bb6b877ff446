"""The C library, for the system calls Python has no wrapper for (sandbox set-up only)."""

import ctypes
import functools
import os

__all__ = ["libc", "check"]


@functools.cache
def libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def check(result: int, what: str) -> int:
    """``result`` of a libc call, or an ``OSError`` naming ``what`` failed and why."""
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"sandbox: {what}: {os.strerror(errno)}")
    return result
