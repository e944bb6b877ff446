"""Confinement of the student's process (see docs/threat_model.md).

``confine(...)`` runs in the child the zygote forked, before it serves the notebook:
- it dies with the judge that started it (parent-death signal);
- its environment is a short allow-list (no secret of the grader's crosses);
- its own user, mount, PID, network, IPC and UTS namespaces (``_namespaces``):
  a read-only root holding only the interpreter, the venv and the course's
  public packages, a private tmpfs as the only writable place, every mount
  locked, never root (as root it becomes ``nobody``), no capability left;
- resource limits: private memory (``RLIMIT_DATA``, so that CUDA may reserve
  address space, counted above what the zygote's libraries hold already), CPU
  seconds, file size, open files, threads, no core dumps; memory of every kind
  is watched by the judge (``grader.judge._memory_watch``);
- ``no_new_privs``, Landlock where the kernel has it (``_landlock``), and a
  libseccomp filter (``_syscalls``).
Where the kernel refuses the namespaces the grading command stops, unless the
instructor accepts running without them (``UNCONFINED_VARIABLE``).
"""

import ctypes
import functools
import os
import resource
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from grader._settings import Settings, judge_variables, variable
from grader.student import _landlock, _namespaces, _syscalls
from grader.student._libc import check as _check
from grader.student._libc import libc as _libc

__all__ = ["Limits", "DEFAULT_LIMITS", "UNCONFINED_VARIABLE", "confine", "die_with",
           "judge_environment", "protect_judge", "require", "start_tied", "support",
           "unconfined_allowed"]

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_CAPBSET_DROP = 1, 4, 24
_PR_SET_NO_NEW_PRIVS, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 38, 47, 4
_CAPABILITY_VERSION_3, _NR_CAPSET = 0x20080522, {"x86_64": 126, "aarch64": 91}
UNCONFINED_VARIABLE = variable("allow_unconfined")
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]
# What the student's process keeps of the grader's environment; the rest (a
# database URL with its password, tokens, paths) never crosses.
_KEPT_VARIABLES = ("LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                   "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


# What a judge and its zygote keep of the grading command's environment. The
# student's process is forked from the zygote and so holds its memory: a
# secret (the gradebook's URL, a token) must never reach the zygote at all.
# The instructor's settings go by name (``grader._settings``: those marked ``judge``); the
# judge reads them back with ``Settings.from_environment``.
_JUDGE_VARIABLES = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV",
                    "CI", *judge_variables())
_JUDGE_PREFIXES = ("CUDA_", "NVIDIA_", "OPENBLAS_", "OMP_", "MKL_", "HYPOTHESIS_")


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 4 * 2**30  # memory the student's code may add to what it starts with
    cpu_seconds: int = 300
    file_bytes: int = 16 * 2**20
    open_files: int = 256
    threads: int = 64


DEFAULT_LIMITS = Limits()


def _data_in_use() -> int:
    """This process's private writable address space (what ``RLIMIT_DATA`` counts), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmData:"):
            return int(line.split()[1]) * 1024
    raise OSError("no VmData in /proc/self/status")


def _set_limits(limits: Limits, threads: int) -> None:
    # The same room on every build: a CUDA build's libraries hold about 1 GiB more.
    data = _data_in_use() + limits.memory_bytes
    for kind, value in (
        (resource.RLIMIT_DATA, data),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, threads),
    ):
        resource.setrlimit(kind, (value, value))


def _scrub_environment(workdir: str) -> None:
    kept = {name: os.environ[name] for name in _KEPT_VARIABLES if name in os.environ}
    os.environ.clear()  # unsetenv for each: the C library's copy is cleared too
    os.environ.update(kept, HOME=workdir, TMPDIR=workdir, MPLCONFIGDIR=workdir,
                      MPLBACKEND="Agg", OMP_NUM_THREADS="1", PATH="/usr/bin:/bin")


def _drop_capabilities(libc) -> None:
    """No capability left, in any set (a namespace's root has them all at first)."""
    last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    for cap in range(last + 1):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: twice 32 bits
    _check(libc.syscall(_NR_CAPSET[os.uname().machine], header, data), "capset")


def judge_environment(**extra: str) -> dict[str, str]:
    """The environment a judge or a zygote starts with: an allow-list, no secrets, and
    ``grader`` importable from where this process found it."""
    kept = {name: value for name, value in os.environ.items()
            if name in _JUDGE_VARIABLES or name.startswith(_JUDGE_PREFIXES)}
    path = os.pathsep.join(filter(None, [str(_PACKAGE_ROOT), os.environ.get("PYTHONPATH")]))
    return {**kept, "PYTHONPATH": path, **extra}


def unconfined_allowed() -> bool:
    """Has the instructor accepted grading without namespaces (``--allow-unconfined``)?"""
    return Settings.from_environment().allow_unconfined


@functools.cache
def support() -> str:
    """'' if students can be confined here; otherwise what is missing, for the instructor."""
    if _syscalls.MISSING:
        return _syscalls.MISSING  # no flag grades without the syscall filter
    missing = _namespaces.probe()
    if not missing:
        return ""
    return (f"the kernel refused the namespaces that confine a student's code ({missing}). "
            "Enable unprivileged user namespaces (Debian: sysctl "
            "kernel.unprivileged_userns_clone=1; Ubuntu 23.10+: an AppArmor profile that "
            "allows them, or sysctl kernel.apparmor_restrict_unprivileged_userns=0), or grade "
            "with --allow-unconfined to accept running untrusted code without them.")


def require() -> None:
    """Raise, saying what is missing, if students cannot be confined here and the
    instructor has not accepted grading without it."""
    missing = support()
    if missing and (_syscalls.MISSING or not unconfined_allowed()):
        raise RuntimeError(f"cannot grade safely: {missing}")


def confine(limits: Limits, workdir: str, hidden: tuple[str, ...], parent: int) -> None:
    """Runs in the student's process right after the zygote forked it (``_zygote``).

    With namespaces this forks (``_namespaces.enter``): it returns in the
    student's process only.
    """
    libc, unconfined = _libc(), unconfined_allowed()  # read before the scrub below
    die_with(parent, libc)
    _scrub_environment(workdir)
    if unconfined:
        # RLIMIT_NPROC then counts every process of this user, not ours alone.
        threads = _processes_of_this_user() + limits.threads
    else:
        _namespaces.enter(workdir, _namespaces.visible_paths(_PACKAGE_ROOT), hidden)
        _drop_capabilities(libc)
        threads = limits.threads
    _set_limits(limits, threads)
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _landlock.restrict(workdir)
    _syscalls.install(os.getpid())


def die_with(parent: int, libc=None) -> None:
    # A judge killed outright (SIGKILL: no finally, no cleanup) takes its
    # student's process with it, instead of leaving it to run to its CPU limit.
    # The signal follows the judge's thread that started us, so judges start
    # workers from long-lived threads.
    libc = libc or _libc()
    _check(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
    if os.getppid() != parent:  # the judge died before the line above
        os._exit(1)


def start_tied(args: list[str], niceness: int = 0, **popen) -> subprocess.Popen:
    """``Popen(args)`` for a helper process that dies with this one, ``niceness`` added
    to its CPU priority's (and its children's) from its start.

    The parent-death signal follows the thread that forked, so a keeper thread
    that lives as long as the child starts it and waits on it.
    """
    started, box, parent = threading.Event(), [], os.getpid()

    def tied():
        die_with(parent)
        os.nice(niceness)

    def keep():
        try:
            box.append(subprocess.Popen(args, preexec_fn=tied, **popen))
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


def _processes_of_this_user() -> int:
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
