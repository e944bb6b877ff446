"""A skip under CI=true is a failure that names its reason; elsewhere it stays a skip."""

import os
import subprocess
import sys
from pathlib import Path

SKIPS = """
import pytest

def test_needs_something():
    pytest.skip("chromium is not installed")

@pytest.mark.skipif(True, reason="not root")
def test_needs_root():
    pass

@pytest.mark.xfail(reason="known")
def test_known_failure():
    assert False
"""


def _run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess:
    (tmp_path / "test_skips.py").write_text(SKIPS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(Path(__file__).parents[1])  # tests/, where support/ is
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "support.no_silent_skips", "-q",
                           "-p", "no:cacheprovider", "-rA", str(tmp_path)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)


def test_in_ci_a_skip_fails_with_its_reason(tmp_path):
    done = _run(tmp_path, "true")
    assert done.returncode == 1, done.stdout
    assert "1 failed, 1 xfailed, 1 error" in done.stdout  # a skipif skips at setup
    assert "skipped in CI, where every test must run: Skipped: chromium is not installed" \
        in done.stdout
    assert "skipped in CI, where every test must run: Skipped: not root" in done.stdout


def test_elsewhere_a_skip_is_a_skip(tmp_path):
    done = _run(tmp_path, None)
    assert done.returncode == 0, done.stdout
    assert "2 skipped, 1 xfailed" in done.stdout
