"""Chapter 4 (devices) on whatever this machine has: the lesson, then the hidden checks.

    python tests/gpu_verify.py [--any-torch] [--allow-local] [--record-outputs]

1. Runs the code cells of ``course/04_devices.ipynb`` in this process (no Jupyter
   needed), in the lesson's folder as a Jupyter kernel would (its timeline cell reads
   ``traces/``), notes which path ``pick_device()`` took (cuda, mps or cpu), and compares
   what each cell prints with its stored output, sanitised as nbval does
   (``course/nbval_sanitize.cfg``: measured times, bandwidths and ratios become
   placeholders, so the rest of each line is compared). Two kinds of cells are not
   compared everywhere: those marked ``NBVAL_IGNORE_OUTPUT`` must only run, on every
   path; those with the line ``# Output differs by path: ...`` print what the path
   they took shows (the stored output is the CPU path's, which CI checks), so on the
   cpu path they are compared like any other and on any other path they must only
   run (the summary counts them as ``CPU-path-only``). ``--any-torch`` skips the
   version-stamp cell, for a machine whose torch is not the verified one.
2. Runs the hidden checks of ``04_devices`` on the solution notebook through the real
   judge (``grader.judge._judge_server.judge``). If the judge cannot start here (its
   sandbox), the run fails, unless ``--allow-local`` asks to run them in this process
   (``--student-local``) instead, which the last line then says. With CUDA
   present, the GPU-only checks (``test_cuda_*``) must run in the judge, its student
   process confined, and pass: one that did not run there (skipped, or run only
   with ``--student-local``) fails the run.
3. With CUDA present, records the trace chapter 4's timeline draws
   (``course/traces/record_trace.py``, in a fresh process) into
   ``course/traces/gpu_trace.json``. **Commit that file**, then re-execute the lesson:
   its timeline cell then draws the GPU trace instead of the CPU one (and says so).
   Without CUDA nothing is recorded, and the CPU trace stays the one shown.
   With ``--record-outputs`` (and CUDA) it also runs the Chinese lesson and writes what
   each path-dependent cell printed, in both languages, with its code's hash, into
   ``course/traces/gpu_outputs.json`` (``tests/gpu_record.py``): commit it too. A
   CPU-only reader's lesson shows it (``anatomy_widgets.gpu_printed``).
4. Prints what it found; the last line starts with ``GPU verify:``. Exit 0 only if
   every compared cell matched, every cell ran, every hidden check that ran passed,
   and, with CUDA, the GPU trace was written.

Needs only torch, pytest, hypothesis and this repository.
"""

import argparse
import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
LESSON = ROOT / "course" / "04_devices.ipynb"
SOLUTION = ROOT / "solutions" / "04_devices" / "04_devices.ipynb"
HIDDEN = ROOT / "grader" / "hidden" / "devices" / "test.py"
SANITIZE = ROOT / "course" / "nbval_sanitize.cfg"
ASSIGNMENT = "04_devices"
IGNORE_MARK = "NBVAL_IGNORE_OUTPUT"
# A comment line that starts with this: the cell's output is the CPU path's; compared on
# the cpu path only, run (not compared) on cuda, mps or any other path.
PATH_MARK = "# Output differs by path:"
VERSION_MARK = "VERIFIED_ON ="
RECORDER = ROOT / "course" / "traces" / "record_trace.py"
GPU_TRACE = ROOT / "course" / "traces" / "gpu_trace.json"

sys.path.insert(0, str(ROOT))
# The judge runs `python -m grader.judge._judge` in a subprocess: it must find this repo too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

# --- 1. the lesson ----------------------------------------------------------------------


def sanitizers(path: Path = SANITIZE) -> list[tuple[re.Pattern, str]]:
    """The (regex, replacement) rules of an nbval sanitize file."""
    rules, pattern = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("regex:"):
            pattern = re.compile(line.removeprefix("regex:").strip())
        elif line.startswith("replace:") and pattern is not None:
            rules.append((pattern, line.removeprefix("replace:").strip()))
            pattern = None
    return rules


def sanitize(text: str, rules) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def stored_output(cell) -> str:
    """What the notebook stored for a cell: its streams, then its result's text, in order."""
    parts = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
        elif output["output_type"] == "execute_result":
            text = output.get("data", {}).get("text/plain", "")
            parts.append(("".join(text) if isinstance(text, list) else text) + "\n")
    return "".join(parts)


def differs_by_path(source: str) -> bool:
    """Whether a cell carries the PATH_MARK comment line."""
    return any(line.strip().startswith(PATH_MARK) for line in source.splitlines())


def _label(source: str) -> str:
    """The cell's first line that is not a marker comment, to name it in a problem."""
    lines = [line for line in source.strip().splitlines()
             if IGNORE_MARK not in line and not line.strip().startswith(PATH_MARK)]
    return lines[0][:60] if lines else ""


def _path(namespace: dict) -> str:
    """The path the lesson took so far: DEVICE's type (cuda, mps, cpu), or 'unknown'."""
    device = namespace.get("DEVICE")
    return device.type if isinstance(device, torch.device) else "unknown"


def run_cell(source: str, namespace: dict) -> tuple[str, str | None]:
    """Run one cell as a kernel would; (what it printed, the error it raised or None)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            tree = ast.parse(source)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        except Exception as exc:  # noqa: BLE001 - a failing cell is a finding, not a crash
            return printed.getvalue(), f"{type(exc).__name__}: {exc}"
    return printed.getvalue(), None


def check_lesson(any_torch: bool, lesson: Path = LESSON) -> dict:
    """Run every code cell in order; compare the checked ones with what was stored.

    A cell marked with PATH_MARK is compared when the lesson took the cpu path (DEVICE
    as its earlier cells and itself left it) and only run, counted in "path_only",
    on any other."""
    rules, namespace = sanitizers(), {"__name__": "__main__", "display": print}
    cells = [c for c in json.loads(lesson.read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"]
    report = {"checked": 0, "matched": 0, "unchecked": 0, "path_only": 0, "problems": [],
              "printed": {}}  # what each path-only cell printed, by id (--record-outputs)
    for number, cell in enumerate(cells, 1):
        source = _source(cell)
        with contextlib.chdir(lesson.parent):  # a kernel's folder is its notebook's
            printed, error = run_cell(source, namespace)
        ignored = IGNORE_MARK in source or (any_torch and VERSION_MARK in source)
        path_only = not ignored and differs_by_path(source) and _path(namespace) != "cpu"
        checked = not ignored and not path_only
        report["checked" if checked else "path_only" if path_only else "unchecked"] += 1
        if path_only and not error:
            report["printed"][cell.get("id", f"code cell {number}")] = printed
        first_line = _label(source)
        if error:
            report["problems"].append(f"code cell {number} ({first_line}) raised {error}")
        elif checked and sanitize(printed, rules) != sanitize(stored_output(cell), rules):
            report["problems"].append(f"code cell {number} ({first_line}) printed:\n"
                                      f"{printed}--- but the notebook stores:\n"
                                      f"{stored_output(cell)}---")
        else:
            report["matched"] += checked
    report["path"] = _path(namespace)
    return report


# --- 2. the hidden checks ---------------------------------------------------------------


def gpu_only_checks() -> set[str]:
    """Names of the hidden checks that need CUDA."""
    return set(re.findall(r"^def (test_cuda_\w+)", HIDDEN.read_text(encoding="utf-8"), re.M))


class _Skips:
    """pytest plugin: why each skipped check was skipped."""

    def __init__(self):
        self.reasons: dict[str, str] = {}

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            why = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
            self.reasons[report.nodeid.rsplit("::", 1)[-1]] = str(why)


def local_verdict() -> dict:
    """The hidden checks in this process, the solution's code run here (--student-local)."""
    import pytest

    from grader.judge._plugin import Grading

    grading, skips = Grading(), _Skips()
    args = [str(HIDDEN), "--student-code", str(SOLUTION),
            "--student-local", "-q", "--tb=short", "--noconftest", "-p", "no:cacheprovider",
            "-o", "addopts=", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            "--rootdir", str(HIDDEN.parents[1]),
            "-c", str(HIDDEN.parents[1] / "pytest.ini")]
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    with contextlib.redirect_stdout(sys.stderr):
        code = pytest.main(args, plugins=[grading, skips])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"the hidden checks did not run (pytest exit {code})")
    for name, why in sorted(skips.reasons.items()):
        print(f"skipped {name}: {why}")
    return {"exercises": grading.verdict()}


def judge_verdict(allow_local: bool) -> tuple[dict, str]:
    """The real judge's verdict. If the judge cannot start here, the local one only when
    asked for (``--allow-local``); otherwise no verdict, which fails the run."""
    from grader.judge._judge_server import judge

    nb = json.loads(SOLUTION.read_text(encoding="utf-8"))
    try:
        return judge(nb, ASSIGNMENT, timeout=600), "judge"
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"The judge could not run here:\n{exc}")
        if not allow_local:
            return {"exercises": {}}, "the judge could not start"
        return local_verdict(), "--student-local (the judge could not start)"


def tally(verdict: dict) -> dict:
    """Passed and total checks, failures by name, and which GPU-only checks ran."""
    checks = [c for record in verdict["exercises"].values() for c in record["checks"]]
    gpu = gpu_only_checks()
    return {"passed": sum(c["passed"] for c in checks), "total": len(checks),
            "failures": [f"{c['check']}: {c['detail']}" for c in checks if not c["passed"]],
            "gpu_ran": {c["check"] for c in checks} & gpu,
            "gpu_passed": {c["check"] for c in checks if c["passed"]} & gpu}


def check_hidden(allow_local: bool) -> dict:
    verdict, mode = judge_verdict(allow_local)
    result = {**tally(verdict), "mode": mode, "gpu_expected": gpu_only_checks()}
    if torch.cuda.is_available():
        in_judge = result["gpu_ran"] if mode == "judge" else set()
        missing = sorted(result["gpu_expected"] - in_judge)
        if missing:
            print("CUDA is here, but GPU-only checks did not run in the judge:", *missing)
        result["failures"] += [f"{name}: did not run in the judge" for name in missing]
    return result


# --- 3. the GPU trace -------------------------------------------------------------------


def record_gpu_trace(out: Path = GPU_TRACE) -> tuple[str | None, bool]:
    """With CUDA, chapter 4's timeline trace recorded on this GPU into ``out`` (a file to
    commit): (what happened, whether it worked); (None, True) without CUDA."""
    if not torch.cuda.is_available():
        return None, True
    # A fresh process: the profiler starts on a clean CUDA context, not the lesson's.
    done = subprocess.run([sys.executable, str(RECORDER), str(out)], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    if done.returncode != 0:
        return f"GPU TRACE FAILED: {done.stderr[-2000:]}", False
    return (f"GPU trace: {done.stdout.strip()}; commit {out.relative_to(ROOT)}, then "
            f"re-execute {LESSON.relative_to(ROOT)}"), True


def record_outputs(english: dict, any_torch: bool) -> str:
    """``--record-outputs``: the Chinese lesson run too, then what both printed on this
    GPU's path written by ``tests/gpu_record.py``; the line to print about it."""
    import gpu_record

    chinese = check_lesson(any_torch, LESSON.parent / "zh-CN" / LESSON.name)
    for problem in chinese["problems"]:
        print(f"LESSON (zh-CN): {problem}")
    cells = [c for c in json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code" and differs_by_path(_source(c))]
    return gpu_record.from_gpu_runs({"en": english, "zh-CN": chinese},
                                    [c["id"] for c in cells], torch.cuda.get_device_name(0),
                                    torch.__version__)


# --- 4. the verdict ---------------------------------------------------------------------


def describe_device(path: str) -> str:
    if path == "cuda":
        return f"cuda ({torch.cuda.get_device_name(0)})"
    return "cpu (no GPU)" if path == "cpu" else path


def summary(lesson: dict, hidden: dict, traced: bool = True) -> tuple[str, bool]:
    gpu = (f"GPU-only {len(hidden['gpu_passed'])}/{len(hidden['gpu_expected'])} passed"
           if torch.cuda.is_available() else "GPU-only checks skipped: no CUDA")
    ok = not lesson["problems"] and not hidden["failures"] and \
        hidden["passed"] == hidden["total"] > 0
    if torch.cuda.is_available():
        ok = ok and hidden["gpu_passed"] == hidden["gpu_expected"] and traced
    trace = ("GPU trace written" if traced else "GPU trace FAILED") \
        if torch.cuda.is_available() else "no GPU trace: no CUDA"
    line = (f"GPU verify: device={describe_device(lesson['path'])} "
            f"lesson {lesson['matched']}/{lesson['checked']} checked cells match "
            f"({lesson['unchecked']} unchecked ran, {lesson['path_only']} CPU-path-only ran), "
            f"hidden checks "
            f"{hidden['passed']}/{hidden['total']} passed ({hidden['mode']}; {gpu}); {trace}; "
            f"torch {torch.__version__}: {'OK' if ok else 'FAILED'}")
    return line, ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--any-torch", action="store_true",
                        help="do not compare the version-stamp cell (torch is not 2.13.0)")
    parser.add_argument("--allow-local", action="store_true",
                        help="if the judge cannot start, run the hidden checks in this process")
    parser.add_argument("--record-outputs", action="store_true",
                        help="with CUDA, record what the path-dependent cells printed, in each "
                             "language, into course/traces/gpu_outputs.json (commit it)")
    options = parser.parse_args(argv)
    lesson = check_lesson(options.any_torch)
    for problem in lesson["problems"]:
        print(f"LESSON: {problem}")
    hidden = check_hidden(options.allow_local)
    for failure in hidden["failures"]:
        print(f"HIDDEN CHECK FAILED: {failure}")
    trace, traced = record_gpu_trace()
    if options.record_outputs and torch.cuda.is_available() and lesson["path"] == "cuda":
        trace = "\n".join(filter(None, [trace, record_outputs(lesson, options.any_torch)]))
    if trace:
        print(trace)
    line, ok = summary(lesson, hidden, traced)
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
