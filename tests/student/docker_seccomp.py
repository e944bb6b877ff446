"""Run a command under a seccomp filter like Docker's default profile, for namespaces.

Docker's default profile (and a Kubernetes pod's ``RuntimeDefault``) refuses,
with EPERM, ``setns`` and an ``unshare`` or ``clone`` that asks for any new
namespace but a user namespace alone (unless the container has
CAP_SYS_ADMIN), and answers ENOSYS to ``clone3``, whose flags a filter cannot
read. The sandbox asks for its namespaces in one call, so it is refused.
Everything else is allowed here: the test is about the sandbox's namespaces,
not the rest of the profile. Usage::

    python tests/student/docker_seccomp.py COMMAND [ARGUMENT ...]

The filter is loaded in this process, then ``COMMAND`` replaces it
(``os.execv``): a seccomp filter is inherited across exec and fork, for good.
"""

import errno
import os
import shutil
import sys

import pyseccomp as seccomp

# NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWPID, NEWNET, NEWTIME: not NEWUSER (0x10000000)
REFUSED_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x20000000, 0x40000000,
                 0x00000080)


def install() -> None:
    """Refuse, in this process and all it starts, what Docker refuses of namespaces."""
    filter_ = seccomp.SyscallFilter(seccomp.ALLOW)
    filter_.add_rule(seccomp.ERRNO(errno.EPERM), "setns")
    # glibc's fork and threads fall back to clone when clone3 "does not exist".
    filter_.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for name in ("unshare", "clone"):
        for flag in REFUSED_FLAGS:  # rules on one call are OR'ed: any such flag refuses
            filter_.add_rule(seccomp.ERRNO(errno.EPERM), name,
                             seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    filter_.load()


if __name__ == "__main__":
    command = sys.argv[1:]
    install()
    os.execv(shutil.which(command[0]) or command[0], command)
