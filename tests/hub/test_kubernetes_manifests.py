"""deploy/kubernetes/'s manifests say what the grading pool needs (parsed: no cluster here).

Every pod that confines students' code (the Dask workers and the grading Job)
runs in a user namespace of its own with the custom seccomp profile, without
privilege; the workers' command runs a Dask worker at the scheduler's
Service, one notebook at a time; every container has its resources set. The
profile itself is loaded with libseccomp: under it the sandbox's namespaces are
granted, under a filter like Docker's default they are refused.
"""

import json
import subprocess
import sys

import pytest
import yaml
from support import ROOT

from grader.student._sandbox import DEFAULT_LIMITS

KUBERNETES = ROOT / "deploy" / "kubernetes"
PROFILE = KUBERNETES / "seccomp" / "tensor-anatomy-namespaces.json"
SCHEDULER = "tcp://tensor-anatomy-scheduler:8786"
PYTHON = "/opt/tensor-anatomy/.venv/bin/python"


def _documents() -> list[dict]:
    paths = sorted(KUBERNETES.glob("*.yaml"))
    assert paths, "no manifest in deploy/kubernetes/"
    return [doc for path in paths for doc in yaml.safe_load_all(path.read_text()) if doc]


def _by_name() -> dict[str, dict]:
    return {(doc["kind"], doc["metadata"]["name"]): doc for doc in _documents()}


def _pod(kind: str, name: str) -> dict:
    return _by_name()[(kind, name)]["spec"]["template"]["spec"]


CONFINING = [("Deployment", "tensor-anatomy-workers"), ("Job", "tensor-anatomy-grade")]


def test_every_manifest_parses_and_no_container_is_privileged():
    for doc in _documents():
        spec = doc.get("spec", {}).get("template", {}).get("spec")
        if spec is None:
            continue  # a Service, a volume claim
        assert spec.get("automountServiceAccountToken") is False, doc["metadata"]["name"]
        assert spec["securityContext"]["runAsNonRoot"] is True
        for container in spec["containers"]:
            context = container["securityContext"]
            assert context["privileged"] is False and context["allowPrivilegeEscalation"] is False
            assert context["capabilities"] == {"drop": ["ALL"]}
            assert context["readOnlyRootFilesystem"] is True
            assert "add" not in context["capabilities"]
            resources = container["resources"]
            assert {"cpu", "memory"} <= resources["requests"].keys() <= resources["limits"].keys()


@pytest.mark.parametrize("kind, name", CONFINING)
def test_pods_that_confine_students_have_their_namespaces(kind, name):
    pod = _pod(kind, name)
    assert pod["hostUsers"] is False
    profile = pod["securityContext"]["seccompProfile"]
    assert profile == {"type": "Localhost",
                       "localhostProfile": f"profiles/{PROFILE.name}"}
    assert pod["securityContext"]["appArmorProfile"] == {"type": "Unconfined"}  # mounts
    (container,) = pod["containers"]
    assert container["securityContext"]["procMount"] == "Unmasked"  # a fresh /proc
    memory = container["resources"]["limits"]["memory"]
    assert memory.endswith("Gi") and int(memory[:-2]) * 2**30 >= DEFAULT_LIMITS.memory_bytes + 2**31


def test_the_workers_run_a_dask_worker_at_the_schedulers_service_one_notebook_at_a_time():
    names = _by_name()
    service = names[("Service", "tensor-anatomy-scheduler")]["spec"]["ports"][0]["port"]
    assert SCHEDULER.endswith(f":{service}")
    (worker,) = _pod("Deployment", "tensor-anatomy-workers")["containers"]
    command = worker["command"]
    assert command[:4] == [PYTHON, "-m", "distributed.cli.dask_worker", SCHEDULER]
    assert command[command.index("--nthreads") + 1] == "1"
    (grade,) = _pod("Job", "tensor-anatomy-grade")["containers"]
    assert grade["command"] == [PYTHON, "-m", "grader.cli", "grade", "--scheduler", SCHEDULER]
    for pod in (worker, grade):  # both see the same instructor folder, at the same path
        env = {item["name"]: item.get("value") for item in pod["env"]}
        assert env["TENSOR_ANATOMY_INSTRUCTOR_DIR"] == "/srv/tensor-anatomy/instructor"
        assert {"mountPath": "/srv/tensor-anatomy/instructor",
                "name": "instructor"} in pod["volumeMounts"]


# Loads an OCI seccomp profile's default and errno rules with libseccomp, then
# asks the sandbox whether it can have its namespaces here.
PROBE = '''
import json, sys
import pyseccomp as seccomp
from grader.student import _namespaces
profile = json.load(open(sys.argv[1]))
assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
filter_ = seccomp.SyscallFilter(seccomp.ALLOW)
for rule in profile["syscalls"]:
    assert rule["action"] == "SCMP_ACT_ERRNO"
    for name in rule["names"]:
        if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0:
            filter_.add_rule(seccomp.ERRNO(rule["errnoRet"]), name)
filter_.load()
print(_namespaces.probe() or "granted")
'''


def _probe(*launcher: str) -> str:
    result = subprocess.run([*launcher, sys.executable, "-c", PROBE, str(PROFILE)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_seccomp_profile_grants_the_sandbox_its_namespaces_where_dockers_refuses_them():
    assert _probe() == "granted"
    refused = _probe(sys.executable, str(ROOT / "tests" / "student" / "docker_seccomp.py"))
    assert "Operation not permitted" in refused
    rules = json.loads(PROFILE.read_text())["syscalls"]
    denied = {name for rule in rules for name in rule["names"]}
    assert {"kexec_load", "init_module", "bpf", "ptrace"} <= denied
    assert not denied & {"unshare", "clone", "mount", "pivot_root", "setns", "umount2"}
