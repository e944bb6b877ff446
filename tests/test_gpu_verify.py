"""tests/gpu_verify.py passes here, on the path this machine takes (the CPU, without a GPU).

The same script, run on a GPU machine, checks the GPU path of chapter 4; here it
proves that the script itself works: the lesson runs without Jupyter and matches
its stored outputs, and the hidden checks pass through the real judge.
"""

import re
import subprocess
import sys

import torch
from conftest import ROOT


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
