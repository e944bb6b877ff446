"""Landlock, where the kernel has it: a second wall behind the mount namespace.

The student's process may read and execute anything it can see, write only in
its working directory, to the devices bound into its root and to its own
threads' files (``/proc/self/task``: CUDA names its threads there), open no TCP
socket, connect to no abstract Unix socket outside its domain and signal no
process outside it. Each right is asked for only where the kernel's Landlock
ABI knows it; a kernel without Landlock leaves the namespaces and the seccomp
filter to hold alone (``abi_version()`` is then 0).
"""

import ctypes
import os
import struct

from grader.student._libc import check as _check
from grader.student._libc import libc as _libc

__all__ = ["abi_version", "restrict"]

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # one table on every architecture
_VERSION, _PATH_BENEATH = 1, 1
# Filesystem rights: EXECUTE .. MAKE_SYM (ABI 1), REFER (2), TRUNCATE (3), IOCTL_DEV (5).
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1, 2, 4, 8
_ALL_FS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1}
_FS_ABI5 = (1 << 16) - 1
_TRUNCATE, _IOCTL_DEV = 1 << 14, 1 << 15
_TCP_BIND_CONNECT = 3  # ABI 4
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1, 2  # ABI 6


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 if it has none."""
    version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _VERSION)
    return max(version, 0)


def _ruleset(libc, abi: int) -> tuple[int, int]:
    """A new ruleset's fd, and the filesystem rights it handles."""
    fs = _ALL_FS.get(abi, _FS_ABI5)
    net = _TCP_BIND_CONNECT if abi >= 4 else 0
    scoped = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = struct.pack("QQQ", fs, net, scoped)[: 8 * (1 + (abi >= 4) + (abi >= 6))]
    buffer = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), 0)
    return _check(fd, "landlock: create ruleset"), fs


def _allow(libc, ruleset: int, path: str, rights: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        attr = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        added = libc.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, attr, 0)
        _check(added, f"landlock: rule for {path}")
    finally:
        os.close(fd)


def _allow_own_threads(libc, ruleset: int, handled: int) -> None:
    """Writes (truncating too) under /proc/self/task: CUDA names each thread it starts
    through ``/proc/self/task/<tid>/comm``, opened with ``O_TRUNC``; without this CUDA
    fails with Error 304. Nothing else of /proc becomes writable.

    A rule binds to an inode, and procfs makes a fresh inode whenever a pruned dentry is
    looked up again: the ``O_PATH`` descriptor is left open, for the process's life, so
    that the dentry of this very directory, and the rule with it, stay. (Measured: with
    it closed, a thread started after ``drop_caches`` could not write its ``comm``.)
    """
    kept = os.open("/proc/self/task", os.O_PATH | os.O_CLOEXEC)
    attr = ctypes.create_string_buffer(struct.pack("=Qi", (_WRITE_FILE | _TRUNCATE) & handled,
                                                   kept), 12)
    _check(libc.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, attr, 0),
           "landlock: rule for /proc/self/task")


def restrict(workdir: str, devices: str = "/dev") -> bool:
    """Apply the rules above to this process for good; False if the kernel has no Landlock.

    Needs ``no_new_privs`` set first.
    """
    abi = abi_version()
    if abi == 0:
        return False
    libc = _libc()
    ruleset, handled = _ruleset(libc, abi)
    try:
        _allow(libc, ruleset, "/", _EXECUTE | _READ_FILE | _READ_DIR)
        _allow(libc, ruleset, workdir, handled)
        if os.path.isdir(devices):
            device_rights = _READ_FILE | _WRITE_FILE | _READ_DIR | _TRUNCATE | _IOCTL_DEV
            _allow(libc, ruleset, devices, device_rights & handled)
        _allow_own_threads(libc, ruleset, handled)
        _check(libc.syscall(_RESTRICT_SELF, ruleset, 0), "landlock: restrict self")
    finally:
        os.close(ruleset)
    return True
