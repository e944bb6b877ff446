"""The escape suite: a class of hostile students, graded in one batch, as root and as a user.

Each notebook defines a right ``double`` and then makes one escape attempt
(``escape/attacks.py``); an attempt that works swaps in a wrong answer, so
every notebook must score exactly 2 of 2, and its attempt must be reported
refused (or, for a foreign ABI, its process killed). Afterwards the host must
be unchanged: no marker file outside the student's tmpfs, the canary process
alive, other students' work, the gradebook, the grader's code and the hidden
checks byte for byte as before.

``make test`` runs this module as root (CI's user), and the last test runs it
again as an unprivileged user made for the purpose.
"""

import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from escape.attacks import ATTACKS, KILLED, OVER_MEMORY, attack_cell
from escape.listeners import serve_forever
from escape.users import reachable_by_others, unprivileged_user
from support import ROOT, file_digest

from grader.judge import _judge_server
from grader.judge._judge_server import judge

# A student's process here touches up to its 4 GiB limit: two at once could exhaust a
# small CI machine, so make test runs this file by itself (marker "alone").
pytestmark = pytest.mark.alone

CHECKS = ROOT / "tests" / "hostile" / "checks_double.py"
RIGHT = "def double(x):\n    return x * 2\n"
SECRET = "postgresql://grader:S3CRET-CANARY-7f1c@db.example/gradebook"
# Harmless without a sandbox, so run bare to prove the attempts themselves work.
CALIBRATED = (
    "reads the hidden checks", "reads the solutions", "lists the instructor folder",
    "reads the gradebook", "reads another student's submission", "writes a file outside its tmpfs",
    "kills the canary", "forks", "runs a subprocess", "joins a keyring", "sets up io_uring",
    "reads the canary's memory with process_vm_readv", "traces the canary",
    "writes the canary's memory with process_vm_writev",
    "connects to the host over TCP", "connects to the host's abstract Unix socket",
    "reads the grader's secret from its environment",
    "calls the kernel through the i386 ABI", "unshares a user namespace",
    "opens the canary's memory", "signals the canary with tgkill",
    "signals the canary with rt_sigqueueinfo", "signals the canary with pidfd_send_signal",
    "opens a perf event",
)
# The kernel refuses these to ordinary users anyway (sysctls, capabilities).
CALIBRATED_AS_ROOT = ("creates a bpf map", "opens a userfaultfd", "keeps a capability",
                      "enters the canary's namespaces", "becomes root", "chroots",
                      "makes a device node and opens it")


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """What the students attack: an instructor folder, a canary process, sockets, a secret."""
    base = tmp_path_factory.mktemp("escape-host")
    instructor = base / "instructor"
    other = instructor / "submitted" / "other" / "a" / "a.ipynb"
    other.parent.mkdir(parents=True)
    other.write_text('{"the other student": "work"}')
    (instructor / "gradebook.db").write_text("the real gradebook")
    listener = socket.create_server(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX)
    abstract_name = f"tensor-anatomy-escape-{os.getpid()}"
    abstract.bind("\0" + abstract_name)
    abstract.listen()
    for server in (listener, abstract):
        serve_forever(server)
    canary = subprocess.Popen(["sleep", "3600"])
    targets = {
        "instructor": str(instructor), "gradebook": str(instructor / "gradebook.db"),
        "other": str(other), "canary": canary.pid, "grader": os.getpid(),
        "secret_prefix": SECRET.split(":")[0] + "://grader:", "secret_length": len(SECRET),
        "secret_sha256": hashlib.sha256(SECRET.encode()).hexdigest(),
        "tcp_port": listener.getsockname()[1], "abstract_socket": abstract_name,
        "hidden_dir": str(ROOT / "grader" / "hidden"),
        "hidden_file": str(ROOT / "grader" / "hidden" / "storage_strides" / "test.py"),
        "solution": str(ROOT / "solutions" / "01_storage_strides" / "01_storage_strides.ipynb"),
        "grader_file": str(ROOT / "grader" / "_wire.py"), "venv": sys.prefix,
        "markers": [str(p / f"escaped-{os.getpid()}") for p in
                    (instructor, base, ROOT, ROOT / "grader", Path(sys.prefix), Path("/tmp"))],
    }
    yield targets
    canary.kill()
    for server in (listener, abstract):
        server.close()


def _protected(targets: dict) -> list[Path]:
    files = [Path(targets[k]) for k in ("gradebook", "other", "hidden_file", "solution")]
    return files + sorted((ROOT / "grader").rglob("*.py"))


def _grade_batch(host: dict, names, **environment) -> dict:
    """Each named attack graded by fresh judges that were handed the secret."""
    mp = pytest.MonkeyPatch()
    for name, value in {"TENSOR_ANATOMY_DB_URL": SECRET, "TENSOR_ANATOMY_CELL_TIMEOUT": "20",
                        "TENSOR_ANATOMY_INSTRUCTOR_DIR": host["instructor"],
                        **environment}.items():
        mp.setenv(name, value)
    _judge_server.close_idle()  # judges started earlier kept their environment

    def grade(cells):
        nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]}
        return judge(nb, "escape", timeout=600, checks=CHECKS)

    notebooks = {name: [RIGHT, attack_cell(name, host)] for name in names}
    notebooks["(probe)"] = [RIGHT, PROBE]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(notebooks, pool.map(grade, notebooks.values()), strict=True))
    finally:
        _judge_server.close_idle()
        mp.undo()


@pytest.fixture(scope="module")
def batch(host):
    protected = _protected(host)
    before = {path: file_digest(path) for path in protected}
    verdicts = _grade_batch(host, ATTACKS)
    after = {path: file_digest(path) for path in protected}
    return verdicts, before, after


PROBE = """
import os
print('processes', sorted(p for p in os.listdir('/proc') if p.isdigit()), 'me', os.getpid())
print('interfaces', sorted(line.split(':')[0].strip() for line in open('/proc/net/dev')
                           if ':' in line))
print('uid_map', ' '.join(open('/proc/self/uid_map').read().split()))
print('environment', ' '.join(sorted(os.environ)))
"""
STUDENT_VARIABLES = {"HOME", "TMPDIR", "MPLCONFIGDIR", "MPLBACKEND", "OMP_NUM_THREADS", "PATH",
                     "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                     "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}
# Without namespaces (--allow-unconfined) Landlock and the seccomp filter still refuse these.
REFUSED_UNCONFINED = (
    "writes a file outside its tmpfs", "rewrites the grader's code", "triggers sysrq",
    "appends to another student's submission", "kills the canary", "kills every process",
    "signals the canary with pidfd_send_signal", "signals the canary with tgkill",
    "signals the canary with rt_sigqueueinfo", "traces the canary", "forks", "runs a subprocess",
    "reads the canary's memory with process_vm_readv", "connects to the host over TCP",
    "writes the canary's memory with process_vm_writev", "kills the grading command",
    "mounts a filesystem", "unshares a user namespace", "sets up io_uring", "creates a bpf map",
    "allocates 6 GiB", "touches 6 GiB of shared memory",
    "calls the kernel through the i386 ABI", "calls the kernel through the x32 ABI",
)


def test_every_attempt_is_refused_and_scores_exactly_2(batch):
    verdicts, _, _ = batch
    scores = {name: verdicts[name]["exercises"]["double"]["passed"] for name in verdicts}
    assert scores == dict.fromkeys([*ATTACKS, "(probe)"], 2)
    assert {v["exercises"]["double"]["total"] for v in verdicts.values()} == {2}
    outcomes = {name: _outcome(verdicts[name]["cells"]["1"]) for name in ATTACKS}
    assert outcomes == {name: _expected(name) for name in ATTACKS}


def _expected(name: str) -> str:
    if name in OVER_MEMORY:
        return "over memory"
    return "killed" if name in KILLED and _x86() else "refused"


def _outcome(report: dict) -> str:
    if "memory limit and stopped the process" in report.get("skipped", ""):
        return "over memory"
    if "stopped the process" in report.get("skipped", ""):
        return "killed"
    return "refused" if report.get("stdout", "").startswith("refused") else repr(report)


def _x86() -> bool:
    return os.uname().machine == "x86_64"


def test_the_student_is_alone_offline_unprivileged_and_keeps_no_environment(batch):
    lines = batch[0]["(probe)"]["cells"]["1"]["stdout"].splitlines()
    facts = dict(line.split(" ", 1) for line in lines)
    assert facts["processes"] == "['1'] me 1"  # its own PID namespace
    assert facts["interfaces"] == "['lo']"  # its own network namespace
    # Its own user namespace, one id mapped: as root, onto nobody; as a user, onto
    # the set-up namespace's root, which is that user.
    assert facts["uid_map"] == f"1000 {65534 if os.geteuid() == 0 else 0} 1"
    assert set(facts["environment"].split()) <= STUDENT_VARIABLES


def test_without_namespaces_landlock_and_the_filter_still_refuse(host):
    verdicts = _grade_batch(host, REFUSED_UNCONFINED, TENSOR_ANATOMY_ALLOW_UNCONFINED="1")
    outcomes = {name: _outcome(verdicts[name]["cells"]["1"]) for name in REFUSED_UNCONFINED}
    assert outcomes == {name: _expected(name) for name in REFUSED_UNCONFINED}
    assert not [marker for marker in host["markers"] if os.path.lexists(marker)]
    os.kill(host["canary"], 0)
    # Really without namespaces: the probe sees the machine's processes.
    assert not verdicts["(probe)"]["cells"]["1"]["stdout"].startswith("processes ['1'] me 1")


def test_the_host_is_unchanged(batch, host):
    _, before, after = batch
    assert after == before
    assert not [marker for marker in host["markers"] if os.path.lexists(marker)]
    os.kill(host["canary"], 0)  # still alive


# Written by the judge itself: a judge is not dumpable (its memory is no student's to
# read), so its /proc/PID/environ is closed to its own user, root aside.
ENVIRONMENT_CHECK = """
import os
import pytest

@pytest.mark.exercise("double")
def test_the_judges_environment(*, student):
    with open({out!r}, "wb") as out:
        out.write(b"\\0".join(f"{{k}}={{v}}".encode() for k, v in os.environ.items()))
"""


def test_the_judge_never_holds_the_grading_commands_secrets(host, monkeypatch, tmp_path):
    monkeypatch.setenv("TENSOR_ANATOMY_DB_URL", SECRET)
    _judge_server.close_idle()
    checks, seen = tmp_path / "checks_environment.py", tmp_path / "environment"
    checks.write_text(ENVIRONMENT_CHECK.format(out=str(seen)), encoding="utf-8")
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": RIGHT}]}
    try:
        judge(nb, "escape", timeout=600, checks=checks)
    finally:
        _judge_server.close_idle()
    environment = seen.read_bytes()
    assert b"TENSOR_ANATOMY_DB_URL" not in environment and SECRET.encode() not in environment
    assert b"PATH=" in environment  # read from the right process


@pytest.mark.parametrize("name", CALIBRATED)
def test_the_attempt_works_without_the_sandbox(name, host, tmp_path):
    """The attempts are real: run bare (same user, no sandbox), each one works."""
    _run_bare(name, host, tmp_path)


@pytest.mark.skipif(os.geteuid() != 0, reason="these work bare for root only")
@pytest.mark.parametrize("name", CALIBRATED_AS_ROOT)
def test_the_attempt_works_without_the_sandbox_as_root(name, host, tmp_path):
    _run_bare(name, host, tmp_path)


def _run_bare(name: str, host: dict, tmp_path: Path) -> None:
    canary = subprocess.Popen(["sleep", "3600"])
    targets = {**host, "canary": canary.pid,
               "markers": [str(tmp_path / "marker")], "instructor": str(tmp_path)}
    (tmp_path / "gradebook-listing").write_text("x")
    try:
        result = subprocess.run([sys.executable, "-c", attack_cell(name, targets)], cwd=tmp_path,
                                env={**os.environ, "TENSOR_ANATOMY_DB_URL": SECRET},
                                capture_output=True, text=True, timeout=60)
    finally:
        canary.kill()
        canary.wait()
    assert result.stdout.startswith("worked"), result.stdout + result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="root starts the run as an unprivileged user")
def test_the_suite_passes_as_an_unprivileged_user():
    user = unprivileged_user()
    home = Path(tempfile.mkdtemp(prefix="tensor-anatomy-escape-"))  # not under root's 0700 one
    os.chown(home, user.pw_uid, user.pw_gid)
    try:
        with reachable_by_others([Path(sys.executable).resolve(), Path(sys.prefix), ROOT]):
            result = subprocess.run(
                ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                 "--clear-groups", sys.executable, "-m", "pytest", str(Path(__file__)), "-q",
                 "-rs", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                 "-k", "not unprivileged_user and not as_root", f"--basetemp={home / 'pytest'}"],
                cwd=home, capture_output=True, text=True, timeout=1200,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                     "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8"})
    finally:
        shutil.rmtree(home, ignore_errors=True)
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    summary = result.stdout.strip().splitlines()[-1]
    deselected = 1 + len(CALIBRATED_AS_ROOT)
    assert re.fullmatch(rf"\d+ passed, {deselected} deselected in .*", summary), tail
    assert int(summary.split()[0]) >= len(CALIBRATED) + 4
