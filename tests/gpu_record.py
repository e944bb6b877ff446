"""Writes ``course/traces/gpu_outputs.json``: what chapter 4's path-dependent cells printed
on a GPU, in each language, for the CPU-only reader (``anatomy_widgets.gpu_printed``).

Written on a CUDA machine by ``python tests/gpu_verify.py --record-outputs``, which runs
the English and the Chinese lesson and hands their printouts to ``recorded``. Layout::

    {"gpu": "NVIDIA H200", "torch": "2.11.0+cu130", "date": "2026-12-04",
     "recorded_by": "...", "lesson": "course/04_devices.ipynb",
     "cells": {"<cell id>": {"code_sha256": "<code_hash of the code that ran>",
                             "printed": {"en": "...", "zh-CN": "..."}}},
     "to_rerecord": ["<cell id>", ...]}

A marked cell whose current code is not the code that printed (``code_hash`` differs) is
never kept: it goes to ``to_rerecord``, and the lesson shows no GPU output for it.

    python tests/gpu_record.py --seed FOLDER --ran-at COMMIT --outputs-now COMMIT

    python tests/gpu_record.py --prune

moves each recorded cell whose code changed since to ``to_rerecord`` (no GPU needed).
The first form wrote the first file from the H200 run of issue 30 (``FOLDER``: its
``lesson04_<language>_outputs.json``; ``--ran-at``: the code they ran), before
``gpu_verify.py`` could record. A language's text is kept only where the cell's stored
CPU output in that language was the same then and at ``--outputs-now`` (numbers aside):
otherwise its catalogue changed since, and what the GPU printed then is not what the
lesson would print now.
"""

import argparse
import datetime
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from anatomy_widgets._gpu_outputs import RECORDING, code_hash  # noqa: E402
from anatomy_widgets._language import ENGLISH  # noqa: E402

LESSON = ROOT / "course" / "04_devices.ipynb"
BY_GPU_VERIFY = "tests/gpu_verify.py --record-outputs"


def code_cells(nb: dict) -> dict[str, str]:
    """Each code cell's id → its source."""
    return {c["id"]: "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"}


def recorded(ran: dict[str, str], printed: dict[str, dict[str, str]], now: dict[str, str],
             marked: list[str], stamp: dict) -> dict:
    """The recording of the ``marked`` cells (ids, in lesson order): ``printed`` (language →
    id → text) by code ``ran`` (id → source), kept for the cells whose code ``now`` is the
    same; the others to re-record."""
    cells, stale = {}, []
    for cell_id in marked:
        texts = {lang: by_id[cell_id] for lang, by_id in printed.items() if cell_id in by_id}
        same = cell_id in ran and code_hash(ran[cell_id]) == code_hash(now[cell_id])
        if same and ENGLISH in texts:
            cells[cell_id] = {"code_sha256": code_hash(now[cell_id]), "printed": texts}
        else:
            stale.append(cell_id)
    return {**stamp, "lesson": str(LESSON.relative_to(ROOT)), "cells": cells,
            "to_rerecord": stale}


def write(recording: dict, path: Path = RECORDING) -> None:
    path.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def from_gpu_runs(reports: dict[str, dict], marked: list[str], gpu: str, torch_version: str,
                  path: Path = RECORDING) -> str:
    """Record what ``gpu_verify.check_lesson`` printed on a GPU (language → its report, whose
    ``printed`` holds each path-only cell's text); the line to print about it."""
    now = code_cells(json.loads(LESSON.read_text(encoding="utf-8")))
    stamp = {"gpu": gpu, "torch": torch_version, "date": datetime.date.today().isoformat(),
             "recorded_by": BY_GPU_VERIFY}
    found = recorded(now, {lang: r["printed"] for lang, r in reports.items()}, now, marked,
                     stamp)
    write(found, path)
    return (f"GPU outputs: {len(found['cells'])} cells recorded, "
            f"{len(found['to_rerecord'])} not; commit {path.relative_to(ROOT)}")


def _at(commit: str, path: Path) -> dict:
    """A notebook as git stored it at ``commit``."""
    return json.loads(subprocess.run(["git", "show", f"{commit}:{path.relative_to(ROOT)}"],
                                     cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout)


def _seed(folder: Path, ran_at: str, outputs_now: str) -> dict:
    """The recording from the H200 run's files (its outputs and its trace's date), for the
    code at ``ran_at``, each language's text kept where its catalogue did not change."""
    sys.path.insert(0, str(ROOT / "tests"))
    from gpu_verify import differs_by_path, sanitize, sanitizers, stored_output

    runs = {lang: json.loads((folder / f"lesson04_{lang}_outputs.json").read_text("utf-8"))
            for lang in (ENGLISH, "zh-CN")}
    rules, printed = sanitizers(), {}
    for lang, run in runs.items():
        lesson = LESSON if lang == ENGLISH else LESSON.parent / lang / LESSON.name
        then = {c["id"]: stored_output(c) for c in _at(outputs_now, lesson)["cells"]
                if c["cell_type"] == "code"}
        printed[lang] = {c["id"]: c["printed"] for c in run["cells"] if not c["error"] and
                         sanitize(c["stored_cpu"], rules) == sanitize(then.get(c["id"], ""), rules)}
    # The same run recorded the trace, which is dated (the outputs files are not).
    trace = json.loads((folder / "gpu_trace_h200.json").read_text("utf-8"))["tensor_anatomy"]
    stamp = {"gpu": runs[ENGLISH]["device"], "torch": runs[ENGLISH]["torch"],
             "date": trace["date"],
             "recorded_by": f"copied from the run of issue 30 ({folder.name}/lesson04_*_"
                            f"outputs.json: each code cell of {ran_at}'s lesson, run in turn), "
                            f"not by {BY_GPU_VERIFY}"}
    now = code_cells(json.loads(LESSON.read_text(encoding="utf-8")))
    marked = [cell_id for cell_id, source in now.items() if differs_by_path(source)]
    return recorded(code_cells(_at(ran_at, LESSON)), printed, now, marked, stamp)


def pruned(recording: dict, now: dict[str, str]) -> dict:
    """``recording`` less each cell whose code ``now`` (id → source) is not the code that
    printed: those go to ``to_rerecord``, in lesson order. For a machine with no GPU whose
    edit of a marked cell must not leave the GPU's text under code that never printed it."""
    stale = {cell_id for cell_id, cell in recording["cells"].items()
             if cell_id not in now or code_hash(now[cell_id]) != cell["code_sha256"]}
    later = set(recording["to_rerecord"]) | stale
    return {**recording,
            "cells": {k: v for k, v in recording["cells"].items() if k not in stale},
            "to_rerecord": [cell_id for cell_id in now if cell_id in later]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=Path)
    parser.add_argument("--ran-at")
    parser.add_argument("--outputs-now")
    parser.add_argument("--prune", action="store_true",
                        help="only move the cells whose code changed to to_rerecord")
    options = parser.parse_args()
    if options.prune:
        write(pruned(json.loads(RECORDING.read_text(encoding="utf-8")),
                     code_cells(json.loads(LESSON.read_text(encoding="utf-8")))))
    elif not (options.seed and options.ran_at and options.outputs_now):
        parser.error("--seed, --ran-at and --outputs-now go together (or --prune alone)")
    else:
        write(_seed(options.seed, options.ran_at, options.outputs_now))
