"""What chapter 4's path-dependent cells printed on a GPU, shown to a CPU-only reader.

``course/traces/gpu_outputs.json`` holds, per cell, the text and the hash of the code
that printed it (``tests/gpu_record.py``); a cell whose code changed since must be
re-recorded on a GPU (``python tests/gpu_verify.py --record-outputs``), or listed under
``to_rerecord``, where the lesson shows no GPU output for it. These tests read the
committed files and a recording made here in a temporary folder; no GPU is needed.
"""

import datetime
import importlib
import json
import os
import re
import sys

import pytest
import torch
from support import ROOT, load_notebook

from anatomy_widgets import _gpu_outputs
from anatomy_widgets._gpu_outputs import code_hash, gpu_printed

LESSON = ROOT / "course" / "04_devices.ipynb"
CHINESE = ROOT / "course" / "zh-CN" / "04_devices.ipynb"
PATH_MARK = "# Output differs by path:"
RERECORD = "python tests/gpu_verify.py --record-outputs"


@pytest.fixture(scope="module")
def committed():
    return json.loads(_gpu_outputs.RECORDING.read_text(encoding="utf-8"))


def _code(path) -> dict[str, str]:
    return {c["id"]: "".join(c["source"]) for c in load_notebook(path)["cells"]
            if c["cell_type"] == "code"}


def _marked(path) -> dict[str, str]:
    return {cell_id: source for cell_id, source in _code(path).items()
            if any(line.startswith(PATH_MARK) for line in source.splitlines())}


def test_every_recorded_output_was_printed_by_its_cells_current_code(committed):
    for path in (LESSON, CHINESE):
        code = _code(path)
        stale = [cell_id for cell_id, cell in committed["cells"].items()
                 if cell_id not in code or code_hash(code[cell_id]) != cell["code_sha256"]]
        assert stale == [], (f"{path.name}: the code of {stale} changed since it was recorded "
                             f"on {committed['gpu']}: re-record on a GPU ({RERECORD})")


def test_every_path_dependent_cell_ends_showing_its_recording_or_is_to_rerecord(committed):
    marked = _marked(LESSON)
    recorded, later = set(committed["cells"]), set(committed["to_rerecord"])
    assert recorded.isdisjoint(later)
    assert recorded | later == set(marked), "each marked cell: recorded, or to re-record"
    for cell_id, source in marked.items():
        assert source.rstrip().splitlines()[-1] == f'gpu_printed("{cell_id}", DEVICE)', cell_id


def test_the_stamp_names_the_gpu_torch_date_and_who_recorded(committed):
    assert committed["gpu"].startswith("NVIDIA ") and "+cu" in committed["torch"]
    datetime.date.fromisoformat(committed["date"])
    assert "gpu_verify.py --record-outputs" in committed["recorded_by"]
    for cell in committed["cells"].values():
        assert cell["printed"]["en"].strip() and set(cell["printed"]) <= {"en", "zh-CN"}


def test_the_stored_lessons_show_what_the_gpu_printed_on_the_cpu_path(committed):
    header = (f"On an {committed['gpu']} (torch {committed['torch']}, {committed['date']}) "
              "this cell printed:")
    stored = {c["id"]: "".join(c["outputs"][-1]["text"]) for c in load_notebook(LESSON)["cells"]
              if c["cell_type"] == "code" and c["id"] in committed["cells"]}
    for cell_id, cell in committed["cells"].items():
        quoted = "\n".join("    " + line for line in cell["printed"]["en"].splitlines())
        assert stored[cell_id].endswith(f"{header}\n{quoted}\n"), cell_id


# --- the helper, on a recording made here ------------------------------------------------


@pytest.fixture()
def recording(tmp_path):
    path = tmp_path / "gpu_outputs.json"
    path.write_text(json.dumps({
        "gpu": "NVIDIA T", "torch": "9.9.9+cu999", "date": "2031-01-02", "recorded_by": "test",
        "cells": {"c1": {"code_sha256": "x", "printed": {"en": "ran on cuda\nNOTE: fast\n",
                                                         "zh-CN": "在 cuda 上运行\n"}}},
        "to_rerecord": ["c2"]}), encoding="utf-8")
    yield path
    _gpu_outputs.recording.cache_clear()


def _shown(capsys, *args, **kwargs) -> str:
    gpu_printed(*args, **kwargs)
    return capsys.readouterr().out


def test_on_the_cpu_path_a_cell_shows_the_gpus_text_under_its_stamp(recording, capsys):
    assert _shown(capsys, "c1", torch.device("cpu"), recording) == (
        "On an NVIDIA T (torch 9.9.9+cu999, 2031-01-02) this cell printed:\n"
        "    ran on cuda\n    NOTE: fast\n")
    assert _shown(capsys, "c2", torch.device("cpu"), recording).startswith(
        "No GPU recording of this cell's current code yet")


@pytest.mark.parametrize("device", ["cuda", "mps", "meta"])
def test_on_any_other_path_the_cell_shows_its_own_output_only(recording, capsys, device):
    assert _shown(capsys, "c1", torch.device(device), recording) == ""


def test_in_a_chinese_kernel_the_stamp_and_the_text_are_chinese(recording, capsys, monkeypatch):
    monkeypatch.setitem(os.environ, "TENSOR_ANATOMY_LANG", "zh-CN")
    shown = _shown(capsys, "c1", torch.device("cpu"), recording)
    assert shown.splitlines()[1:] == ["    在 cuda 上运行"]
    assert "NVIDIA T" in shown and "this cell printed" not in shown
    assert not re.search(r"[A-Za-z]{4,}", _shown(capsys, "c2", torch.device("cpu"), recording)
                         .replace("tests/gpu_verify.py --record-outputs", "").replace("GPU", ""))


# --- the recorder, fed by gpu_verify's run of a lesson off the CPU path -------------------


@pytest.fixture()
def recorder(monkeypatch):
    monkeypatch.setitem(os.environ, "PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    monkeypatch.setattr(sys, "path", [str(ROOT / "tests"), *sys.path])
    return importlib.import_module("gpu_verify"), importlib.import_module("gpu_record")


def test_a_cell_whose_code_changed_since_it_printed_is_to_rerecord(recorder):
    _, gpu_record = recorder
    ran = {"a": "print(1)", "b": "print(2)"}
    now = {"a": 'print(1)\ngpu_printed("a", DEVICE)', "b": "print(3)"}
    found = gpu_record.recorded(ran, {"en": {"a": "1\n", "b": "2\n"}}, now, ["a", "b"], {})
    assert list(found["cells"]) == ["a"] and found["to_rerecord"] == ["b"]
    assert found["cells"]["a"]["code_sha256"] == code_hash(now["a"])


def test_pruning_moves_only_the_cells_whose_code_changed_to_rerecord(recorder):
    _, gpu_record = recorder
    now = {"a": "print(1)", "b": "print(3)", "c": "print(4)"}
    recording = {"gpu": "NVIDIA T", "to_rerecord": ["c"], "cells": {
        "a": {"code_sha256": code_hash("print(1)"), "printed": {"en": "1\n"}},
        "b": {"code_sha256": code_hash("print(2)"), "printed": {"en": "2\n"}}}}
    found = gpu_record.pruned(recording, now)
    assert list(found["cells"]) == ["a"] and found["to_rerecord"] == ["b", "c"]
    assert found["gpu"] == "NVIDIA T" and found["cells"]["a"] == recording["cells"]["a"]


def test_what_gpu_verify_ran_off_the_cpu_path_is_what_the_lesson_shows(recorder, tmp_path,
                                                                       capsys):
    gpu_verify, gpu_record = recorder
    lesson = tmp_path / "lesson.ipynb"  # "meta" stands for a GPU's path, as in test_gpu_verify
    lesson.write_text(json.dumps({"cells": [
        {"cell_type": "code", "id": "setup", "outputs": [],
         "source": "import torch\nDEVICE = torch.device('meta')\n"},
        {"cell_type": "code", "id": "m", "outputs": [],
         "source": f"{PATH_MARK} test\nprint('on', DEVICE.type)\n"}]}), encoding="utf-8")
    report = gpu_verify.check_lesson(False, lesson)
    assert report["printed"] == {"m": "on meta\n"} and report["problems"] == []
    now = {"m": "".join(json.loads(lesson.read_text())["cells"][1]["source"])}
    found = gpu_record.recorded(now, {"en": report["printed"]}, now, ["m"],
                                {"gpu": "NVIDIA T", "torch": "9+cu1", "date": "2031-01-02"})
    gpu_record.write(found, tmp_path / "out.json")
    try:
        assert _shown(capsys, "m", torch.device("cpu"), tmp_path / "out.json").endswith(
            "this cell printed:\n    on meta\n")
    finally:
        _gpu_outputs.recording.cache_clear()
