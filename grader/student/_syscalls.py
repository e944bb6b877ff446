"""The student's system calls, filtered by libseccomp (not hand-written BPF).

Default allow, with a deny-list of every call that could reach outside the
process or undo the sandbox (see docs/threat_model.md): namespaces and mounts,
tracing and other processes' memory, new programs and processes, kernel
interfaces (io_uring, bpf, perf, keyrings, userfaultfd, modules), memory a
process can hold without mapping it (memfd, SysV shared memory: the judge's
memory watch counts only what is mapped), and sockets other than Unix ones.
Shared anonymous mappings are allowed: CUDA needs them, and the watch counts
them. Signals go to this process only. A call made through a foreign ABI (i386's ``int 0x80`` or
x32 on x86-64, arm32 on aarch64) kills the process: libseccomp builds the
filter for the native architecture alone, and every other one is a bad arch.
"""

import errno

try:
    import pyseccomp as seccomp
except (OSError, RuntimeError) as _error:  # the system's libseccomp is missing
    seccomp, MISSING = None, f"libseccomp is missing ({_error}): install libseccomp2"
else:
    MISSING = ""

__all__ = ["DENIED", "MISSING", "install"]

DENIED = (
    # namespaces, mounts, roots
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "mount_setattr",
    "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    # other processes: tracing, memory, pidfds
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp",
    "pidfd_open", "pidfd_getfd", "pidfd_send_signal",
    # new programs and processes (threads are made by clone, filtered below)
    "execve", "execveat", "fork", "vfork",
    # kernel interfaces a tensor never needs
    "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd", "bpf",
    "perf_event_open", "keyctl", "add_key", "request_key", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "acct",
    "quotactl", "quotactl_fd", "open_by_handle_at", "name_to_handle_at", "syslog",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname",
    "setdomainname", "iopl", "ioperm", "lookup_dcookie", "uselib", "ustat", "sysfs",
    "nfsservctl", "vhangup", "fanotify_init",
    # memory held unmapped, which no watch of the process's mappings counts
    "memfd_create", "memfd_secret", "shmget", "msgget", "semget",
    # who we are
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "setfsuid", "setfsgid", "capset",
)
_SIGNALS = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
_CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000,
                     0x20000000, 0x40000000)  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,...
_AF_UNIX = 1
_PERSONALITY_QUERY = 0xFFFFFFFF


def _deny(filter_, name: str, *args, code: int = errno.EPERM) -> None:
    if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) < 0:
        return  # a call this architecture (or this libseccomp) does not have
    filter_.add_rule(seccomp.ERRNO(code), name, *args)


def _rules(filter_, own_pid: int) -> None:
    for name in DENIED:
        _deny(filter_, name)
    # glibc falls back to clone when clone3 says it does not exist; clone3's
    # flags are in memory, out of a filter's reach.
    _deny(filter_, "clone3", code=errno.ENOSYS)
    _deny(filter_, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, _CLONE_THREAD, 0))
    for flag in _CLONE_NAMESPACES:
        _deny(filter_, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    for name in _SIGNALS:
        _deny(filter_, name, seccomp.Arg(0, seccomp.NE, own_pid))
    _deny(filter_, "socket", seccomp.Arg(0, seccomp.NE, _AF_UNIX))
    _deny(filter_, "socketpair", seccomp.Arg(0, seccomp.NE, _AF_UNIX))
    # Only asking: a new personality could make every readable page executable.
    _deny(filter_, "personality", seccomp.Arg(0, seccomp.NE, _PERSONALITY_QUERY))


def install(own_pid: int) -> None:
    """Load the filter into this process (for good: a filter cannot be removed)."""
    if seccomp is None:
        raise OSError(MISSING)
    filter_ = seccomp.SyscallFilter(seccomp.ALLOW)
    filter_.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    _rules(filter_, own_pid)
    filter_.load()
