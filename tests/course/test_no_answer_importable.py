"""Nothing a student can import from the student edition computes an exercise's answer.

The student edition (``grader.edition``) ships the widgets, the public checks and
the givens: code a student can import, run or read. This test builds the edition
into a temporary folder and, in a process that sees the edition only (not this
checkout), imports every module of it, collects every function defined there
(module-level functions, and the methods, class methods and static methods of
module-level classes; not what a module merely imports, such as torch's), and
runs every exercise's public check on every candidate whose signature takes that
exercise's arguments. A candidate that passes a public check is an answer a
student could import: the test fails and names it. Each call runs under a
timer (``LIMIT_S``, generous so that a loaded machine cannot flake); a
candidate that runs out of time fails the test too, since it was not judged.

What it cannot see: a function that needs adapting first (another argument
order, a ``Layout`` instead of a shape and strides, a different exception
type). Those are for review, and for ``tests/test_widget_*.py`` (the widgets
take their facts from torch).

The finite exercises' public checks in the edition judge an answer's form only
(their digests are withheld, ``grader.checks._digests``), so any candidate of the
right form would "pass" them there. The test puts this checkout's digest table
into the temporary edition so that they judge answers, as in the course.

Where an exercise's truth is more than a torch call (its own idiom or algorithm),
its oracle lives on the judge's side only (``grader/hidden/<chapter>/oracles.py``), and its
public check compares with the answers stored at release for its fixed
examples (``grader/checks/public_examples``, shipped): an answer to those
inputs and no other. The edition's checks of those exercises judge answers, as
the calibration test shows by putting those oracles back into an edition.

One list of exceptions, each entry an (exercise, function) pair:
``TORCH_WRAPPERS``, the public checks' oracles (shipped, in
``grader/checks/<chapter>/_oracle.py``) whose body is a torch call wrapped, e.g.
``return torch.empty(shape, device="meta").stride()``: the exercise's inputs
handed to torch, torch's result handed back. Calling torch is something every
student can do anyway: such a wrapper gives away nothing a student does not
already have (where an exercise forbids that call, its rules say so, and
grading checks them). A test below checks that each one still is a wrapper: no
loop, no comprehension, a call to torch. Nothing else may answer.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import COURSE, ROOT

from grader import edition
from grader.checks import _digests, exercise_names
from grader.checks._registry import registered

# (exercise, "module:qualname") pairs that may pass: wrappers of a torch call.
TORCH_WRAPPERS = {
    # torch.matmul(a, b)
    ("batched_matmul", "grader.checks.shape_ops_broadcasting._oracle:torch_batched_matmul"),
    # torch.softmax(x, dim)
    ("stable_softmax", "grader.checks.shape_ops_broadcasting._oracle:torch_softmax"),
    # F.one_hot(labels, num_classes)
    ("one_hot", "grader.checks.shape_ops_broadcasting._oracle:torch_one_hot"),
    # torch.empty(shape, device="meta").stride()
    ("contiguous_strides", "grader.checks.storage_strides._oracle:torch_contiguous_strides"),
    # whether torch's .view(new_shape) raises, on a meta tensor of that layout
    ("can_view", "grader.checks.storage_strides._oracle:torch_can_view"),
    # F.binary_cross_entropy(probs, targets, reduction="none")
    ("bce_loss", "grader.checks.pitfalls._oracle:torch_bce_loss"),
    # torch.sparse_coo_tensor(indices, values, size).to_dense()
    ("coo_to_dense", "grader.checks.creating_tensors._oracle:torch_coo_to_dense"),
    # torch.autograd.grad of leaf.expand(grad.shape): torch's own backward of expand
    ("unbroadcast", "grader.checks.shape_ops_broadcasting._oracle:torch_unbroadcast"),
}

# Run in the edition's own interpreter process: argv[1] is the edition's folder.
_PROBE = textwrap.dedent(r'''
    import importlib, inspect, json, pathlib, signal, sys, warnings
    warnings.simplefilter("ignore")
    root = pathlib.Path(sys.argv[1]).resolve()
    # nbgrader_config.py is a settings file that nbgrader executes with get_config()
    # defined; nothing else may fail to import.
    SETTINGS = {"nbgrader_config"}
    LIMIT_S = 10.0  # per candidate and exercise: generous, so a loaded machine cannot flake

    failed, modules = [], []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if any(p.startswith(".") for p in parts):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        try:
            modules.append(importlib.import_module(name))
        except BaseException as exc:  # noqa: BLE001
            if name not in SETTINGS:
                failed.append(f"{name}: {type(exc).__name__}: {exc}")

    def from_edition(obj):
        try:
            where = inspect.getsourcefile(inspect.unwrap(obj))
        except (TypeError, ValueError):
            return False
        return where is not None and pathlib.Path(where).resolve().is_relative_to(root)

    candidates, seen = [], set()
    def add(label, fn):
        if callable(fn) and id(fn) not in seen and from_edition(fn):
            seen.add(id(fn))
            candidates.append((label, fn))

    for module in modules:
        for attr, obj in sorted(vars(module).items()):
            if getattr(obj, "__module__", None) != module.__name__:
                continue  # imported from elsewhere: torch, or another module (seen there)
            if inspect.isclass(obj):
                for member, raw in sorted(vars(obj).items()):
                    if isinstance(raw, (staticmethod, classmethod)):
                        add(f"{module.__name__}:{attr}.{member}", getattr(obj, member))
                    elif inspect.isfunction(raw):
                        add(f"{module.__name__}:{attr}.{member}", raw)
            elif callable(obj):
                add(f"{module.__name__}:{attr}", obj)

    class Timeout(BaseException):
        pass

    def alarm(signum, frame):
        raise Timeout()

    signal.signal(signal.SIGALRM, alarm)
    from grader.checks import exercise_names
    from grader.checks._registry import registered
    names = exercise_names()
    entries = registered()  # a snapshot: a candidate cannot change what is checked
    answers, tried, timeouts, unrunnable = [], 0, [], []
    for exercise in sorted(names):
        entry = entries[exercise]
        args = entry.examples()[0]
        try:
            entry.cases()  # a stored check's examples, as released
        except BaseException as exc:  # noqa: BLE001
            unrunnable.append(f"{exercise}: {type(exc).__name__}: {exc}")
        for label, fn in candidates:
            try:
                inspect.signature(fn).bind(*args)
            except (TypeError, ValueError):
                continue
            tried += 1
            signal.setitimer(signal.ITIMER_REAL, LIMIT_S)
            try:
                entry.run(fn)
                passed = True
            except Timeout:
                passed = False
                timeouts.append([exercise, label])
            except BaseException:  # noqa: BLE001 - a mismatch, a crash: no answer
                passed = False
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if passed:
                answers.append([exercise, label])
    print(json.dumps({"modules": [m.__name__ for m in modules], "failed": failed,
                      "candidates": len(candidates), "tried": tried, "answers": answers,
                      "timeouts": timeouts, "unrunnable": unrunnable}))
''')


def _edition(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edition") / "tensor-anatomy-student"
    edition.build(COURSE, out, commit=False)
    # Judge the finite exercises' answers, not their form (see the docstring).
    (out / "grader" / "checks" / _digests.DIGESTS_FILE.name).write_text(
        _digests.DIGESTS_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    return out


def _probe(out: Path, tmp_path_factory) -> dict:
    scratch = tmp_path_factory.mktemp("scratch")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env.update(PYTHONPATH=str(out), PYTHONSAFEPATH="1", HOME=str(scratch),
               MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", _PROBE, str(out)], cwd=scratch, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    return _probe(_edition(tmp_path_factory), tmp_path_factory)


def test_the_probe_sees_the_whole_edition(probed):
    assert probed["failed"] == []
    assert probed["timeouts"] == []  # a candidate that timed out was not judged
    assert probed["unrunnable"] == []  # a check that cannot run judges nothing
    assert {"anatomy_widgets._layout", "anatomy_widgets._broadcast",
            "grader.checks.storage_strides._oracle"} <= set(probed["modules"])
    # Not vacuous: hundreds of functions, many of them given each exercise's examples.
    assert probed["candidates"] > 200 and probed["tried"] > 500


def test_no_function_of_the_edition_passes_a_public_check(probed):
    answers = {tuple(pair) for pair in probed["answers"]}
    unexpected = sorted(answers - TORCH_WRAPPERS)
    assert not unexpected, "functions a student can import that answer an exercise:\n" + \
        "\n".join(f"  {label} answers {exercise!r}" for exercise, label in unexpected)


def test_the_allowed_torch_wrappers_still_answer(probed):
    """Each listed pair still answers its exercise: one that no longer does leaves the list."""
    answers = {tuple(pair) for pair in probed["answers"]}
    assert sorted(TORCH_WRAPPERS - answers) == []


# What the edition once shipped for unpack (grader/checks/devices/_oracle.py), an answer.
_UNPACK = '''
def torch_unpack(buffer, meta):
    views = []
    for dtype, shape, offset in meta:
        nbytes = torch.Size(shape).numel() * dtype.itemsize
        views.append(buffer[offset:offset + nbytes].view(dtype).view(shape))
    return views
'''


def test_an_oracle_back_in_the_edition_is_found_by_its_stored_check(tmp_path_factory):
    """Calibration: the judge's oracles, copied into an edition, answer every exercise whose
    public check compares with stored answers. So those checks judge answers in the
    edition, and an oracle that joins the edition again fails the test above."""
    out = _edition(tmp_path_factory)
    hidden, leaked = ROOT / "grader" / "hidden", out / "grader" / "leaked"
    leaked.mkdir()
    shutil.copy(hidden / "_oracle_registry.py", leaked)  # each chapter's imports it as ..
    for oracles in hidden.glob("*/oracles.py"):
        (leaked / oracles.parent.name).mkdir()
        shutil.copy(oracles, leaked / oracles.parent.name)
        (leaked / oracles.parent.name / "__init__.py").write_text("", encoding="utf-8")
    (leaked / "__init__.py").write_text("", encoding="utf-8")
    (leaked / "unpack.py").write_text("import torch\n" + _UNPACK, encoding="utf-8")
    found = {exercise for exercise, label in _probe(out, tmp_path_factory)["answers"]
             if label.startswith("grader.leaked.")}
    exercise_names()
    assert found == {name for name, entry in registered().items() if entry.stored}


def test_the_allowed_torch_wrappers_only_wrap_torch():
    """No loop or comprehension (no arithmetic of their own over dims or elements),
    and a call to torch (``torch.…`` or ``F.…``)."""
    for _, label in sorted(TORCH_WRAPPERS):
        module, name = label.split(":")
        path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        nodes = list(ast.walk(function))
        loops = (ast.For, ast.While, ast.comprehension, ast.FunctionDef, ast.Lambda)
        assert not [n for n in nodes[1:] if isinstance(n, loops)], label
        roots = set()
        for call in (n for n in nodes if isinstance(n, ast.Call)):
            func = call.func
            while isinstance(func, (ast.Attribute, ast.Call)):
                func = func.value if isinstance(func, ast.Attribute) else func.func
            if isinstance(func, ast.Name):
                roots.add(func.id)
        assert roots & {"torch", "F"}, label
