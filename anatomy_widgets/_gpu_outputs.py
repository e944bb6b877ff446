"""What a lesson cell printed on a real GPU, shown to a reader whose kernel has none.

Chapter 4's cells marked ``# Output differs by path`` print what the path they took
shows; on a CPU-only machine that is never the GPU's. ``course/traces/gpu_outputs.json``
keeps, per cell id, what the cell printed on a GPU in each language, the hash of the
code that printed it, and one stamp (GPU, torch, date, who recorded it). Its writer is
``python tests/gpu_verify.py --record-outputs`` on a CUDA machine; a cell whose code
changed since is left out and listed under ``to_rerecord`` until a GPU runs it again
(``tests/widgets/test_gpu_outputs.py`` fails on a recording older than its cell's code).

``gpu_printed(cell_id, device)``, the cell's last line, prints that recording only when
``device`` is the CPU: on a GPU the cell's own output is the GPU's.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from ._language import ENGLISH, language, translate

__all__ = ["HELPER", "RECORDING", "code_hash", "gpu_printed", "recording"]

RECORDING = Path(__file__).resolve().parents[1] / "course" / "traces" / "gpu_outputs.json"
HELPER = "gpu_printed("  # a line calling it prints nothing on a GPU: the hash leaves it out
QUOTE = "    "  # the recorded lines are quoted, indented, under the stamp


def code_hash(source: str) -> str:
    """SHA-256 of a cell's code as far as it decides what a GPU prints: every line but the
    ``gpu_printed(...)`` call, trailing blanks stripped."""
    kept = [line.rstrip() for line in source.strip().splitlines() if HELPER not in line]
    return hashlib.sha256("\n".join(kept).encode("utf-8")).hexdigest()


@cache
def recording(path: Path = RECORDING) -> dict:
    """The recorded GPU outputs (read once); an empty recording if the file is missing."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"cells": {}, "to_rerecord": []}


def _quoted(text: str) -> str:
    return "\n".join(QUOTE + line for line in text.rstrip("\n").splitlines())


def gpu_printed(cell_id: str, device, path: Path = RECORDING) -> None:
    """On the CPU path, print what cell ``cell_id`` printed on the recorded GPU, in the
    kernel's language (English where no translation was recorded), or that its current
    code has no GPU recording yet. On any other path, print nothing."""
    if device.type != "cpu":
        return
    found = recording(path)
    cell = found["cells"].get(cell_id)
    if cell is None:
        print(translate("No GPU recording of this cell's current code yet: it is to be "
                        "re-recorded on a GPU (tests/gpu_verify.py --record-outputs).",
                        "gpu outputs"))
        return
    printed = cell["printed"].get(language()) or cell["printed"][ENGLISH]
    print(translate("On an {gpu} (torch {torch}, {date}) this cell printed:", "gpu outputs").format(
        gpu=found["gpu"], torch=found["torch"], date=found["date"]))
    print(_quoted(printed))
