"""tests/gpu_verify.py passes here, on the path this machine takes (the CPU, without a GPU).

The same script, run on a GPU machine, checks the GPU path of chapter 4; here it
proves that the script itself works: the lesson runs without Jupyter and matches
its stored outputs, and the hidden checks pass through the real judge. The tests
after the first check, without the judge, how it treats each kind of cell (compared,
ignored, compared only on the CPU path) and that the sanitizer hides no claim.
"""

import importlib
import json
import os
import re
import subprocess
import sys

import pytest
import torch
from support import ROOT, load_notebook


def test_gpu_verify_passes_on_this_machines_path():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_verify.py")],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert last.startswith("GPU verify: device=") and last.endswith(": OK"), last
    path = "cuda" if torch.cuda.is_available() else "cpu (no GPU)"
    assert f"device={path}" in last, last
    assert "passed (judge;" in last, last  # the real judge, not a local fallback
    matched = re.search(r"lesson (\d+)/(\d+) checked cells match", last)
    assert matched and matched[1] == matched[2] and int(matched[1]) > 0, last


# --- the lesson's cell kinds, without running the judge -------------------------------


@pytest.fixture()
def gpu_verify(monkeypatch):
    """tests/gpu_verify.py as a module; what its import changes (PYTHONPATH, sys.path)
    is undone after the test."""
    monkeypatch.setitem(os.environ, "PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    monkeypatch.setattr(sys, "path", [str(ROOT / "tests"), *sys.path])
    return importlib.import_module("gpu_verify")


def _notebook(path, device, cells):
    """A lesson of code cells (source, stored stdout) whose first cell sets DEVICE."""
    code = [(f"import torch\nDEVICE = torch.device({device!r})\n", "")] + cells
    path.write_text(json.dumps({"cells": [
        {"cell_type": "code", "source": source,
         "outputs": [{"output_type": "stream", "name": "stdout", "text": out}] if out else []}
        for source, out in code]}), encoding="utf-8")
    return path


MARKED = "# Output differs by path: checked on the CPU (CI), only run elsewhere.\n"


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_a_cell_marked_as_differing_by_path_is_compared_only_on_the_cpu_path(
        gpu_verify, tmp_path, device):
    # "meta" stands for any path that is not the CPU's (cuda, mps).
    lesson = _notebook(tmp_path / "lesson.ipynb", device, [
        (MARKED + 'print("took the", "cpu", "path")', "took the cpu path\n"),
        (MARKED + 'print("ran on", DEVICE.type)', "ran on cpu\n"),
        ("# NBVAL_IGNORE_OUTPUT\nprint(2)", "1\n"),
        ('print("copy: 12.50 ms, 6.1 GB/s, ratio 37.1x; 128 copies cost more: True")',
         "copy: 3.25 ms, 0.9 GB/s, ratio 0.5x; 128 copies cost more: True\n"),
    ])
    report = gpu_verify.check_lesson(False, lesson)
    assert report["path"] == device
    assert report["problems"] == []
    assert report["unchecked"] == 1
    if device == "cpu":
        assert (report["checked"], report["matched"], report["path_only"]) == (4, 4, 0)
    else:
        assert (report["checked"], report["matched"], report["path_only"]) == (2, 2, 2)


def test_a_marked_cell_that_differs_on_the_cpu_path_or_raises_anywhere_is_a_problem(
        gpu_verify, tmp_path):
    cells = [(MARKED + 'print("ran on", DEVICE.type)', "ran on cuda\n"),
             (MARKED + "raise ValueError('broken')", ""),
             ('print("128 copies cost more:", False)', "128 copies cost more: True\n")]
    on_cpu = gpu_verify.check_lesson(False, _notebook(tmp_path / "cpu.ipynb", "cpu", cells))
    elsewhere = gpu_verify.check_lesson(False, _notebook(tmp_path / "gpu.ipynb", "meta", cells))
    assert [p.split(" printed")[0].split(" raised")[0] for p in on_cpu["problems"]] == [
        "code cell 2 (print(\"ran on\", DEVICE.type))", "code cell 3 (raise ValueError('broken'))",
        "code cell 4 (print(\"128 copies cost more:\", False))"]
    assert "raised ValueError: broken" in on_cpu["problems"][1]
    # Elsewhere the first cell only runs; the one that raises and the sign still count.
    assert len(elsewhere["problems"]) == 2 and elsewhere["path_only"] == 2
    assert "raised ValueError: broken" in elsewhere["problems"][0]


def test_every_cell_of_the_lesson_is_checked_and_every_path_dependent_one_marked(gpu_verify):
    cells = [gpu_verify._source(c) for c in load_notebook(gpu_verify.LESSON)["cells"]
             if c["cell_type"] == "code"]
    assert not [s for s in cells if gpu_verify.IGNORE_MARK in s], \
        "CI must check every cell of chapter 4 (sanitize varying numbers instead)"
    # A cell that prints a NOTE prints which path ran: on a GPU it differs by design.
    unmarked = [s.splitlines()[0] for s in cells
                if re.search(r"^note\(", s, re.M) and not gpu_verify.differs_by_path(s)]
    assert unmarked == []


def test_the_sanitizer_replaces_measured_numbers_and_never_a_claim(gpu_verify):
    rules = gpu_verify.sanitizers()
    assert gpu_verify.sanitize(
        "returned after 94.233 ms, 157.8 \u00b5s, 6.1 GB/s (sync / call: 1.0x), ratio 37.1x",
        rules) == "returned after <time>, <time>, <bandwidth> (sync / call: <ratio>), ratio <ratio>"
    for fixed in ("over 5x longer: True", "= v * 2x", "under 5 ms: False"):
        assert gpu_verify.sanitize(fixed, rules) == fixed
    for lesson in sorted((ROOT / "course").glob("*.ipynb")):
        for cell in load_notebook(lesson)["cells"]:
            for line in gpu_verify.stored_output(cell).splitlines() if "outputs" in cell else []:
                clean = gpu_verify.sanitize(line, rules)
                if line.startswith("NOTE:"):
                    assert clean == line, (lesson.name, line)
                for claim in ("True", "False"):
                    assert clean.count(claim) == line.count(claim), (lesson.name, line)


def test_without_cuda_no_gpu_trace_is_recorded(gpu_verify, tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert gpu_verify.record_gpu_trace(tmp_path / "gpu_trace.json") == (None, True)
    assert not (tmp_path / "gpu_trace.json").exists()


# --- no GPU-only check skipped in silence (simulated: CUDA said present) ------------


def test_on_a_gpu_a_gpu_only_check_that_did_not_run_in_the_judge_fails_the_run(
        gpu_verify, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=0: "a simulated GPU")
    ran = [{"check": "test_cuda_pack", "passed": True, "detail": ""},
           {"check": "test_pack", "passed": True, "detail": ""}]
    verdict = {"exercises": {"pack": {"checks": ran}}}
    monkeypatch.setattr(gpu_verify, "judge_verdict", lambda allow_local: (verdict, "judge"))
    monkeypatch.setattr(gpu_verify, "check_lesson", lambda any_torch: {
        "problems": [], "matched": 1, "checked": 1, "unchecked": 0, "path_only": 0,
        "path": "cuda"})
    monkeypatch.setattr(gpu_verify, "record_gpu_trace", lambda: ("GPU trace: recorded", True))
    assert gpu_verify.main([]) == 1
    printed = capsys.readouterr().out.splitlines()
    missing = sorted(gpu_verify.gpu_only_checks() - {"test_cuda_pack"})
    assert "CUDA is here, but GPU-only checks did not run in the judge: " + " ".join(missing) \
        in printed
    assert f"HIDDEN CHECK FAILED: {missing[0]}: did not run in the judge" in printed
    assert printed[-1].endswith(": FAILED") and "(judge; GPU-only 1/" in printed[-1]
