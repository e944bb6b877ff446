"""The student's own world: user, mount, PID, network, IPC and UTS namespaces.

Built the way bubblewrap builds its sandbox, in two stages, so that it holds
whether the grader runs as root or as an ordinary user:

1. **Set-up.** The child the zygote forked unshares every namespace (as an
   ordinary user, a user namespace too, in which it is root), and forks the
   student's process, the first process of the new PID namespace. That
   process builds a new root on a tmpfs holding only what running Python and
   torch needs, read-only, a private tmpfs as the only writable place, a
   fresh ``/proc`` and a handful of devices, and pivots into it. The old root
   is detached: nothing else of the machine can be named.
2. **Lock.** As root it then becomes ``nobody`` (every capability is lost).
   In both cases it enters one more user namespace with one more mount
   namespace: the kernel copies every mount into a namespace less privileged
   than the one that made it, and locks them (they cannot be unmounted,
   uncovered or made writable from inside). Every capability, in that
   namespace too, is dropped.

The set-up child stays outside, waits for the student's process and exits with
it; killing it (the judge does, through a pidfd) kills the student's process
(parent-death signal). See docs/threat_model.md.
"""

import ctypes
import os
import signal
import sys
from pathlib import Path

from grader.student._libc import check as _check
from grader.student._libc import libc as _libc

__all__ = ["NamespacesUnavailable", "enter", "probe", "visible_paths", "STUDENT_ID", "NOBODY"]

NEWNS, NEWUTS, NEWIPC = 0x00020000, 0x04000000, 0x08000000
NEWUSER, NEWPID, NEWNET = 0x10000000, 0x20000000, 0x40000000
_RDONLY, _NOSUID, _NODEV, _NOEXEC = 1, 2, 4, 8
_REMOUNT, _BIND, _REC, _PRIVATE, _DETACH = 32, 4096, 16384, 1 << 18, 2
_NR_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE = 1, 4
STUDENT_ID = 1000  # the student's uid and gid inside its namespace
NOBODY = 65534  # who the student is outside it, when the grader runs as root
_SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group",
        "nsswitch.conf", "alternatives")
_DEVICES = ("null", "zero", "full", "random", "urandom")


class NamespacesUnavailable(OSError):
    """The kernel refused a namespace the sandbox needs."""


def _mount(libc, source, target, fstype, flags, data=None) -> None:
    args = [s.encode() if isinstance(s, str) else s for s in (source, target, fstype, data)]
    _check(libc.mount(args[0], args[1], args[2], flags, args[3]), f"mount {target}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def _map_self_to(inside: int):
    """A closure that maps ``inside`` to who we are now, in the namespace we unshare next.

    An unprivileged process may map exactly one id, its own, so ours is read
    before the unshare (afterwards it reads as the overflow id).
    """
    uid, gid = os.geteuid(), os.getegid()

    def write_maps() -> None:
        # A process that is not dumpable (judges, zygotes and students are not)
        # does not own its /proc/self files: it must be, while it writes them.
        libc = _libc()
        libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{inside} {uid} 1\n")
        _write("/proc/self/gid_map", f"{inside} {gid} 1\n")
        libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)

    return write_maps


def _unshare_all(libc, as_root: bool) -> None:
    flags = NEWNS | NEWNET | NEWIPC | NEWPID | NEWUTS
    if as_root:
        _check(libc.unshare(flags), "unshare")
        return
    write_maps = _map_self_to(0)
    if libc.unshare(flags | NEWUSER) != 0:
        errno = ctypes.get_errno()
        raise NamespacesUnavailable(errno, f"user namespaces refused: {os.strerror(errno)}")
    write_maps()


# --- what the student sees -------------------------------------------------------------


def visible_paths(package_root: Path) -> list[str]:
    """Read-only paths of the student's root: the system's libraries, Python, and of the
    course only ``grader/givens`` (what exercises hand the student). Never the rest of the
    course: solutions, checks and their oracles, hidden checks, widgets, the instructor's."""
    paths = [p for p in _SYSTEM if os.path.lexists(p)]
    paths += [f"/etc/{name}" for name in _ETC if os.path.lexists(f"/etc/{name}")]
    # The interpreter and the venv whole (the standard library, site-packages);
    # not sys.path's other entries, which may be any folder (the judge's cwd).
    prefixes = {os.path.realpath(p) for p in (sys.base_prefix, sys.exec_prefix, sys.prefix)}
    paths += sorted(prefixes)
    paths.append(str(package_root / "grader" / "givens"))
    paths += [f"/dev/{name}" for name in os.listdir("/dev") if name.startswith("nvidia")]
    if any(name.startswith("/dev/nvidia") for name in paths):
        paths.append("/sys")  # CUDA reads the PCI topology
    return paths


def _bind(libc, root: str, path: str) -> None:
    target = root + path
    if os.path.lexists(target):
        return  # inside a path bound already
    os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
    if os.path.islink(path):
        os.symlink(os.readlink(path), target)
        return
    if os.path.isdir(path):
        os.mkdir(target, 0o755)
    else:
        open(target, "w").close()
    _mount(libc, path, target, None, _BIND | _REC)
    device = _NODEV if not path.startswith("/dev/") else 0  # device nodes only under /dev
    _mount(libc, None, target, None, _REMOUNT | _BIND | _RDONLY | _NOSUID | device)


def _cover(libc, root: str, path: str) -> None:
    """An empty, read-only tmpfs over ``path``, if it lies inside something bound."""
    if os.path.isdir(root + path):
        _mount(libc, "tmpfs", root + path, "tmpfs", _RDONLY | _NOSUID | _NODEV | _NOEXEC,
               "size=4k,mode=0555")


def _build_root(libc, workdir: str, visible, hidden, owner: int) -> None:
    """The student's root, on a tmpfs mounted over ``workdir`` (a folder of ours outside)."""
    root = workdir
    _mount(libc, "tmpfs", root, "tmpfs", _NOSUID | _NODEV, "size=16m,mode=0755")
    for path in sorted(visible, key=lambda p: p.count("/")):
        _bind(libc, root, path)
    for path in hidden:
        _cover(libc, root, path)
    os.makedirs(root + "/dev", mode=0o755, exist_ok=True)
    for name in _DEVICES:
        if os.path.exists(f"/dev/{name}"):
            _bind(libc, root, f"/dev/{name}")
    os.makedirs(root + "/proc", mode=0o555)
    _mount(libc, "proc", root + "/proc", "proc", _NOSUID | _NODEV | _NOEXEC)
    os.makedirs(root + workdir, mode=0o700)
    _mount(libc, "tmpfs", root + workdir, "tmpfs", _NOSUID | _NODEV,
           f"size=64m,mode=0700,uid={owner},gid={owner}")


def _pivot(libc, workdir: str) -> None:
    """Into the root built over ``workdir``; then to ``workdir`` inside it."""
    os.chdir(workdir)
    number = _NR_PIVOT_ROOT[os.uname().machine]
    _check(libc.syscall(number, b".", b"."), "pivot_root")
    _check(libc.umount2(b".", _DETACH), "detach the old root")
    _mount(libc, None, "/", None, _REMOUNT | _BIND | _RDONLY | _NOSUID | _NODEV)
    os.chdir(workdir)


def _lock(libc, as_root: bool) -> None:
    """Leave the set-up's privilege: every mount above becomes locked."""
    if as_root:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)  # drops every capability of the initial namespace
    write_maps = _map_self_to(STUDENT_ID)
    _check(libc.unshare(NEWUSER | NEWNS), "unshare the locking namespaces")
    write_maps()


def _wait_then_exit(student: int) -> None:
    """The set-up child's life after the fork: outlive the student, never longer."""
    os.closerange(0, os.sysconf("SC_OPEN_MAX"))
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        _, status = os.waitpid(student, 0)
        os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    finally:
        os._exit(1)


def enter(workdir: str, visible: list[str], hidden: tuple[str, ...]) -> None:
    """Move this process into its own namespaces (see the module's docstring).

    Forks: returns only in the student's process (PID 1 of its namespace),
    which then still has to drop its capabilities (``_sandbox``). The
    calling process waits for it and exits with it.
    """
    libc, as_root = _libc(), os.geteuid() == 0
    _unshare_all(libc, as_root)
    student = os.fork()
    if student:
        _wait_then_exit(student)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    os.setsid()
    _mount(libc, None, "/", None, _REC | _PRIVATE)
    _build_root(libc, workdir, visible, hidden, NOBODY if as_root else 0)
    _pivot(libc, workdir)
    _lock(libc, as_root)
    # Changing credentials clears the parent-death signal: set it again.
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def probe() -> str:
    """'' if this kernel gives this user the namespaces ``enter`` needs, else why not."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            _unshare_all(_libc(), os.geteuid() == 0)
            os.write(write, b"ok")
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            os.write(write, str(exc).encode()[:500])
        os._exit(0)
    os.close(write)
    answer = os.read(read, 600).decode()
    os.close(read)
    os.waitpid(pid, 0)
    return "" if answer == "ok" else answer
