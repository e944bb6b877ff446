"""Grading where the namespaces are refused, as in a Docker container or a Kubernetes pod.

Docker's default seccomp profile (a pod's ``RuntimeDefault`` too) refuses
``unshare`` and namespace clones with EPERM. ``tests/student/docker_seccomp.py`` loads
a filter like it and execs ``grader.cli grade`` over one blank stub: grading
must stop before any notebook runs, saying what was refused and the remedies,
whether the container's user is root (Docker's default) or not (a pod with
``runAsNonRoot``). deploy/kubernetes/ says how to give a grading pod the
namespaces.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from escape.users import reachable_by_others, unprivileged_user
from support import COURSE, ROOT
from support.batch import ASSIGNMENT, blank_stub

LAUNCHER = Path(__file__).with_name("docker_seccomp.py")
REMEDIES = ("Enable unprivileged user namespaces (Debian: sysctl "
            "kernel.unprivileged_userns_clone=1; Ubuntu 23.10+: an AppArmor profile that "
            "allows them, or sysctl kernel.apparmor_restrict_unprivileged_userns=0), or grade "
            "with --allow-unconfined to accept running untrusted code without them.")
# What the kernel's refusal reads as, by who grades: root unshares without a user
# namespace, anyone else needs one (grader/student/_namespaces.py).
REFUSED = {"root": "[Errno 1] sandbox: unshare: Operation not permitted",
           "unprivileged": "[Errno 1] user namespaces refused: Operation not permitted"}


def _expected(who: str) -> str:
    return ("cannot grade safely: the kernel refused the namespaces that confine a student's "
            f"code ({REFUSED[who]}). {REMEDIES}")


def _file_blank_stub(instructor: Path) -> Path:
    folder = instructor / "submitted" / "blank" / ASSIGNMENT
    folder.mkdir(parents=True)
    stub = folder / COURSE.release_notebook(ASSIGNMENT).name
    stub.write_text(json.dumps(blank_stub()), encoding="utf-8")
    return stub


def _as(who: str) -> list[str]:
    """The command prefix that makes the grading command run as ``who``."""
    if who == "root" or os.geteuid() != 0:
        return []
    user = unprivileged_user()
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]


def _grade_under_docker_filter(instructor: Path, who: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "HOME": str(instructor), "PYTHONDONTWRITEBYTECODE": "1",
           "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}
    command = [*_as(who), sys.executable, str(LAUNCHER),
               sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT, "--jobs", "1"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(params=["root", "unprivileged"])
def who(request) -> str:
    if request.param == "root" and os.geteuid() != 0:
        pytest.skip("only root grades as root")  # CI runs as root: never skipped there
    return request.param


def test_grading_in_a_container_stops_saying_what_was_refused_and_the_remedies(who):
    instructor = Path(tempfile.mkdtemp(prefix="tensor-anatomy-container-"))  # not under /root
    try:
        stub = _file_blank_stub(instructor)
        before = stub.read_bytes()
        if _as(who):
            user = unprivileged_user()
            for path in (instructor, *instructor.rglob("*")):
                os.chown(path, user.pw_uid, user.pw_gid)
        with reachable_by_others([Path(sys.executable).resolve(), Path(sys.prefix), ROOT]):
            result = _grade_under_docker_filter(instructor, who)
        graded = sorted(str(p.relative_to(instructor)) for p in instructor.rglob("*"))
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stderr.strip() == _expected(who)
        assert result.stdout == ""
        # Nothing graded: no gradebook, no autograded copy, no feedback, the stub untouched.
        assert graded == ["submitted", "submitted/blank", f"submitted/blank/{ASSIGNMENT}",
                          str(stub.relative_to(instructor))]
        assert stub.read_bytes() == before
    finally:
        shutil.rmtree(instructor, ignore_errors=True)
