"""Hostile submissions: each gets exactly the score it deserves, and harms nothing.

Every submission goes through the real judge (its own process) against a tiny
one-exercise assignment, ``double(x) == 2 * x`` with 2 hidden checks
(``hostile/checks_double.py``). Each attack has the exact number of checks it
must pass: 2 when the function is right and the attack is a side effect, 0
when the attack stands in for a right answer. A side effect on others (reading
or writing the gradebook or another student's work, a connection, a child
process) is made the escape suite's way (``escape/attacks.py``): if it works,
the cell swaps in a wrong answer, so it could not score 2; its cell must also
report it refused, and the same cell run bare is shown to work.
"""

import shutil
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from escape.attacks import ATTACKS, attempt_cell
from escape.listeners import serve_forever
from support import ROOT, file_digest

from grader.judge._judge_server import judge

CHECKS = ROOT / "tests" / "hostile" / "checks_double.py"
RIGHT = "def double(x):\n    return x * 2\n"
WRONG = "def double(x):\n    return x + 1\n"
# Attempts on others, each refused in the act (escape/attacks.py, plus two of our own).
SIDE_EFFECTS = {
    "reads the gradebook": "reads the gradebook",
    "writes into the gradebook": "return open(T['gradebook'], 'a').write('pwned')",
    "reads another student's work": "reads another student's submission",
    "writes into another student's folder": "appends to another student's submission",
    "opens a socket": "connects to the host over TCP",
    "subprocess shell": "runs a subprocess",
}


def _side_effect(name: str, targets: dict) -> str:
    attempt = SIDE_EFFECTS[name]
    return attempt_cell(ATTACKS.get(attempt, attempt), targets)


def _attacks(targets: dict) -> dict[str, tuple[list[str], int]]:
    side_effects = {name: ([RIGHT, _side_effect(name, targets)], 2) for name in SIDE_EFFECTS}
    return {**side_effects, **{
        "honest": ([RIGHT], 2),
        "blank stub": (["def double(x):\n    raise NotImplementedError()"], 0),
        "torch.equal always true": (["import torch\ntorch.equal = lambda *a, **k: True", WRONG], 0),
        "allclose and Tensor.__eq__ always true": ([
            "import torch\ntorch.allclose = lambda *a, **k: True\n"
            "torch.Tensor.__eq__ = lambda *a, **k: True\n"
            "torch.Tensor.__ne__ = lambda *a, **k: False", WRONG], 0),
        "builtins patched": ([
            "import builtins\nbuiltins.isinstance = lambda *a: True\n"
            "builtins.len = lambda *a: 0\nbuiltins.type = lambda *a: int", WRONG], 0),
        "sys.modules replaced": ([
            "import sys, types\n"
            "sys.modules['torch'] = types.SimpleNamespace(equal=lambda *a: True)\n"
            "sys.modules['grader'] = None", WRONG], 0),
        "grader's own functions patched": ([
            "import grader._wire as w, grader.student._worker as k\n"
            "w.encode = lambda value, shared=(): value.tolist()\n"
            "k._describe = lambda exc: {'status': 'ok', 'value': None}", WRONG], 0),
        "object equal to everything": ([
            "class Anything:\n    def __eq__(self, other):\n        return True\n"
            "    __hash__ = object.__hash__\n"
            "def double(x):\n    return Anything()"], 0),
        "tensor subclass lying about equality": ([
            "import torch\nclass Liar(torch.Tensor):\n"
            "    def __eq__(self, other):\n"
            "        return torch.ones_like(other, dtype=torch.bool)\n"
            "def double(x):\n    return (x + 1).as_subclass(Liar)"], 0),
        "walks gc and the stack for expected values": ([
            "import gc, inspect, torch\n"
            "def double(x):\n"
            "    frames = [f.frame.f_locals for f in inspect.stack()]\n"
            "    seen = [o for o in gc.get_objects() if isinstance(o, torch.Tensor)"
            " and o.shape == x.shape and o is not x]\n"
            "    return seen[0] if seen else x + 1"], 0),
        "reads and rewrites the hidden checks": ([
            f"text = open({str(CHECKS)!r}).read()\n"
            f"open({str(CHECKS)!r}, 'w').write('def test_nothing(): pass')", WRONG], 0),
        "sys.exit in a cell": ([RIGHT, "import sys\nsys.exit(0)"], 2),
        "os._exit in a cell": ([RIGHT, "import os\nos._exit(3)"], 2),
        "kills the judge": ([RIGHT, "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"], 2),
        "kills every process": ([RIGHT, "import os, signal\nos.kill(-1, signal.SIGKILL)"], 2),
        "infinite loop in a cell": ([RIGHT, "while True:\n    pass"], 2),
        "infinite loop in the answer": (["def double(x):\n    while True:\n        pass"], 0),
        "memory bomb": ([RIGHT, "hog = bytearray(64 * 2**30)"], 2),
        "tensor memory bomb": ([RIGHT, "import torch\nhog = torch.ones(2**36)"], 2),
        "fork bomb": ([RIGHT, "import os\nwhile True:\n    os.fork()"], 2),
        "prints megabytes": ([RIGHT, "print('x' * 50_000_000)",
                              "def double(x):\n    print('y' * 10**6)\n    return x * 2"], 2),
        "returns a 10^8-element tensor": ([
            "import torch\ndef double(x):\n    return torch.zeros(1).expand(10**8)"], 0),
        "forges protocol replies": ([
            "import os, json, struct\n"
            "def double(x):\n"
            "    body = json.dumps({'id': 1, 'status': 'ok', 'value': 0}).encode()\n"
            "    for fd in map(int, os.listdir('/proc/self/fd')):\n"
            "        try:\n            os.write(fd, struct.pack('>I', len(body)) + body)\n"
            "        except OSError:\n            pass\n"
            "    return x + 1"], 0),
        "infinite recursion": (["def double(x):\n    return double(x)"], 0),
        "raises KeyboardInterrupt": (["def double(x):\n    raise KeyboardInterrupt"], 0),
        "stops itself": (["import os, signal\n"
                          "def double(x):\n    os.kill(os.getpid(), signal.SIGSTOP)"], 0),
    }}


@pytest.fixture(scope="module")
def instructor(tmp_path_factory, request):
    folder = tmp_path_factory.mktemp("instructor")
    (folder / "gradebook.db").write_text("the real gradebook")
    other = folder / "submitted" / "other" / "a" / "a.ipynb"
    other.parent.mkdir(parents=True)
    other.write_text("{}")
    mp = pytest.MonkeyPatch()
    mp.setenv("TENSOR_ANATOMY_INSTRUCTOR_DIR", str(folder))
    mp.setenv("TENSOR_ANATOMY_CELL_TIMEOUT", "10")
    request.addfinalizer(mp.undo)
    return folder


@pytest.fixture(scope="module")
def targets(instructor):
    """What the side effects aim at: the gradebook, another student's work, a listening port."""
    listener = serve_forever(socket.create_server(("127.0.0.1", 0)))
    yield {"gradebook": str(instructor / "gradebook.db"), "tcp_port": listener.getsockname()[1],
           "other": str(instructor / "submitted" / "other" / "a" / "a.ipynb")}
    listener.close()


@pytest.fixture(scope="module")
def outcomes(instructor, targets):
    protected = [CHECKS, instructor / "gradebook.db",
                 instructor / "submitted" / "other" / "a" / "a.ipynb"]
    before = {p: file_digest(p) for p in protected}
    attacks = _attacks(targets)

    def grade(cells):
        nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]}
        return judge(nb, "hostile", timeout=600, checks=CHECKS)

    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = dict(zip(attacks, pool.map(grade, [c for c, _ in attacks.values()]),
                            strict=True))
    after = {p: file_digest(p) for p in protected}
    return attacks, verdicts, before, after


def test_every_side_effect_was_refused_in_the_act(outcomes):
    _, verdicts, _, _ = outcomes
    said = {name: verdicts[name]["cells"]["1"].get("stdout", "")[:7] for name in SIDE_EFFECTS}
    assert said == dict.fromkeys(SIDE_EFFECTS, "refused")


@pytest.mark.parametrize("name", SIDE_EFFECTS)
def test_each_side_effect_works_without_the_sandbox(name, targets, tmp_path):
    """The attempts are real: run bare, on copies of the same files, each one works."""
    copies = {**targets}
    for key in ("gradebook", "other"):
        copies[key] = str(tmp_path / key)
        shutil.copy(targets[key], copies[key])
    cell = _side_effect(name, copies)
    done = subprocess.run([sys.executable, "-c", cell], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.startswith("worked"), done.stdout + done.stderr


def test_every_attack_gets_exactly_its_deserved_score(outcomes):
    attacks, verdicts, _, _ = outcomes
    awarded = {name: verdicts[name]["exercises"]["double"]["passed"] for name in attacks}
    expected = {name: score for name, (_, score) in attacks.items()}
    assert awarded == expected
    # Out of the two checks that ran: the skipped GPU-only check never counts.
    assert {verdict["exercises"]["double"]["total"] for verdict in verdicts.values()} == {2}


def test_no_attack_changed_the_checks_the_gradebook_or_another_student(outcomes):
    _, _, before, after = outcomes
    assert before == after


def test_a_hung_cell_is_reported_to_the_student(outcomes):
    _, verdicts, _, _ = outcomes
    reports = verdicts["infinite loop in a cell"]["cells"]
    assert "did not finish" in reports["1"]["skipped"]


def test_a_function_that_raises_on_a_fixed_example_is_told_which_input(instructor):
    nb = {"cells": [{"cell_type": "code", "metadata": {},
                     "source": "def double(x):\n    raise ValueError('not today')"}]}
    verdict = judge(nb, "hostile", timeout=600, checks=CHECKS)
    fixed = verdict["exercises"]["double"]["checks"][0]
    assert fixed["check"] == "test_double_on_a_fixed_example"
    assert "ValueError: not today" in fixed["detail"]
    assert ("input: double(tensor([[0, 1, 2], [3, 4, 5]], shape=(2, 3), stride=(3, 1), "
            "offset=0, dtype=int64))") in fixed["detail"]
