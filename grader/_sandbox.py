"""Confinement of the student's process (see docs/threat_model.md).

``confine(...)`` runs in the child the zygote forked, before it serves the notebook:
- it dies with the judge that started it (parent-death signal);
- resource limits: address space, CPU seconds, file size, open files, no core
  dumps, and a process cap (a fork bomb hits it);
- as root, a private mount and network namespace: the whole filesystem is
  read-only, the working directory is a small private tmpfs, the instructor's
  folder (submissions, gradebook) is hidden under an empty mount, there is no
  network, and the capabilities that could undo any of that are dropped.
Not root: limits only (documented; CI and graders run as root).
"""

import ctypes
import os
import resource
import signal
import struct
import subprocess
import threading
from dataclasses import dataclass

__all__ = ["Limits", "DEFAULT_LIMITS", "confine", "die_with", "protect_judge",
           "processes_of_this_user", "start_tied"]

_CLONE_NEWNS, _CLONE_NEWNET = 0x00020000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV = 1, 2, 4
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_CAPBSET_DROP = 1, 4, 24
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP = 38, 22
_SECCOMP_MODE_FILTER = 2
# CAP_SETPCAP, NET_ADMIN, NET_RAW, SYS_MODULE, SYS_RAWIO, SYS_CHROOT, SYS_PTRACE,
# SYS_ADMIN, SYS_BOOT, SYS_RESOURCE, SYS_TIME, MKNOD: none of these is needed to
# run tensor code, and each could undo the confinement.
_DROPPED_CAPS = (8, 12, 13, 16, 17, 18, 19, 21, 22, 24, 25, 27)


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 4 * 2**30
    cpu_seconds: int = 300
    file_bytes: int = 16 * 2**20
    open_files: int = 256
    extra_processes: int = 32


DEFAULT_LIMITS = Limits()


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), f"sandbox: {what} failed")


def _set_limits(limits: Limits, processes: int) -> None:
    for kind, value in (
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, processes),
    ):
        resource.setrlimit(kind, (value, value))


def _bytes(text):
    return text.encode() if text is not None else None


def _mount(libc, source, target, fstype, flags, data=None) -> None:
    result = libc.mount(_bytes(source), _bytes(target), _bytes(fstype), flags, _bytes(data))
    _check(result, f"mount {target}")


def _isolate_filesystem(libc, workdir: str, hidden: tuple[str, ...]) -> None:
    _check(libc.unshare(_CLONE_NEWNS | _CLONE_NEWNET), "unshare")
    _mount(libc, None, "/", None, _MS_REC | _MS_PRIVATE)
    _mount(libc, "tmpfs", workdir, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=64m,mode=0700")
    for path in hidden:
        if os.path.isdir(path):
            _mount(libc, "tmpfs", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "size=4k")
    for mount_point in ("/", "/dev/shm"):
        if os.path.isdir(mount_point):
            _mount(libc, None, mount_point, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)
    for cap in _DROPPED_CAPS:
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    os.chdir(workdir)


# seccomp: no new processes (threads are fine), and signals only to itself.
# RLIMIT_NPROC does not bind uid 0, so for root this filter stops a fork bomb;
# and root may otherwise signal (kill) the judge or nbgrader.
_SECCOMP_RET_ALLOW, _SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
_EAGAIN, _ENOSYS, _CLONE_THREAD = 11, 38, 0x00010000
_AUDIT_ARCH_X86_64, _NR_CLONE, _NR_FORK, _NR_VFORK, _NR_CLONE3 = 0xC000003E, 56, 57, 58, 435
_NR_KILL, _NR_TKILL, _NR_TGKILL = 62, 200, 234


def _bpf(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def _filter(own_pid: int) -> bytes:
    """BPF: no fork/vfork/clone3, clone only for threads, signals only to ourselves."""
    ld, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JSET|K, RET|K
    deny, allow = _SECCOMP_RET_ERRNO | _EAGAIN, _SECCOMP_RET_ALLOW
    return b"".join([
        _bpf(ld, 0, 0, 4), _bpf(jeq, 1, 0, _AUDIT_ARCH_X86_64), _bpf(ret, 0, 0, allow),  # 0-2
        _bpf(ld, 0, 0, 0),                                                                # 3
        _bpf(jeq, 0, 1, _NR_CLONE3), _bpf(ret, 0, 0, _SECCOMP_RET_ERRNO | _ENOSYS),       # 4-5
        _bpf(jeq, 11, 0, _NR_FORK), _bpf(jeq, 10, 0, _NR_VFORK),                          # 6-7
        _bpf(jeq, 4, 0, _NR_CLONE),                                                       # 8
        _bpf(jeq, 5, 0, _NR_KILL), _bpf(jeq, 4, 0, _NR_TKILL), _bpf(jeq, 3, 0, _NR_TGKILL),  # 9-11
        _bpf(ret, 0, 0, allow),                                                           # 12
        _bpf(ld, 0, 0, 16), _bpf(jset, 2, 3, _CLONE_THREAD),                              # 13-14
        _bpf(ld, 0, 0, 16), _bpf(jeq, 0, 1, own_pid & 0xFFFFFFFF),                        # 15-16
        _bpf(ret, 0, 0, allow), _bpf(ret, 0, 0, deny),                                    # 17-18
    ])


def _forbid_new_processes(libc) -> None:
    program = _filter(os.getpid())
    buffer = ctypes.create_string_buffer(program)
    fprog = struct.pack("HxxxxxxP", len(program) // 8, ctypes.addressof(buffer))
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.c_char_p(fprog), 0, 0),
           "seccomp")


def die_with(parent: int, libc=None) -> None:
    # A judge killed outright (SIGKILL: no finally, no cleanup) takes its
    # student's process with it, instead of leaving it to run to its CPU limit.
    # The signal follows the judge's thread that started us, so judges start
    # workers from long-lived threads.
    libc = libc or _libc()
    _check(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
    if os.getppid() != parent:  # the judge died before the line above
        os._exit(1)


def confine(limits: Limits, workdir: str, hidden: tuple[str, ...], processes_now: int,
            parent: int) -> None:
    """Runs in the student's process right after the zygote forked it (``_zygote``)."""
    libc = _libc()
    die_with(parent, libc)
    if os.geteuid() == 0:
        _isolate_filesystem(libc, workdir, hidden)
    _set_limits(limits, processes_now + limits.extra_processes)
    if os.uname().machine == "x86_64":
        _forbid_new_processes(libc)


def start_tied(args: list[str], **popen) -> subprocess.Popen:
    """``Popen(args)`` for a helper process that dies with this one.

    The parent-death signal follows the thread that forked, so a keeper thread
    that lives as long as the child starts it and waits on it.
    """
    started, box, parent = threading.Event(), [], os.getpid()

    def keep():
        try:
            box.append(subprocess.Popen(args, preexec_fn=lambda: die_with(parent), **popen))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box.append(exc)
        started.set()
        if isinstance(box[0], subprocess.Popen):
            box[0].wait()

    threading.Thread(target=keep, daemon=True, name=f"keeper-{args[-1]}").start()
    started.wait()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


def processes_of_this_user() -> int:
    """How many processes this user runs now (RLIMIT_NPROC counts them all)."""
    uid, count = os.getuid(), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                count += os.stat(f"/proc/{entry}").st_uid == uid
            except OSError:
                pass
    return count


def protect_judge() -> None:
    """Make this process's memory unreadable to other processes of the same user.

    A non-dumpable process's /proc/PID/mem needs CAP_SYS_PTRACE, which the
    student's process has dropped.
    """
    _libc().prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
