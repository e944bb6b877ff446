"""A long nbgrader step on a terminal: one progress line with rate and ETA.

nbgrader logs a line per student; we count those. Its full output goes to a
log file either way; without a terminal (CI, pipes) it is passed through as it
comes, so logs stay complete.
"""

import re
import subprocess
import sys
import time

__all__ = ["run_with_progress"]

_BAR = 24


def _line(done: int, total: int, started: float) -> str:
    elapsed = time.monotonic() - started
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = f"{(total - done) / rate:4.0f} s" if rate and done < total else "   - "
    filled = _BAR * done // max(total, 1)
    return (f"\r  [{'#' * filled}{'.' * (_BAR - filled)}] {done}/{total} notebooks"
            f"  {rate * 60:5.1f}/min  ETA {eta}")


def run_with_progress(cmd: list[str], log_path, total: int, pattern: str, **popen) -> int:
    """Run ``cmd``; each output line matching ``pattern`` is one of ``total`` items done."""
    on_terminal = sys.stderr.isatty()
    marker, done, started = re.compile(pattern), 0, time.monotonic()
    with open(log_path, "w", encoding="utf-8") as log, subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", **popen) as proc:
        for line in proc.stdout:
            log.write(line)
            if not on_terminal:
                sys.stdout.write(line)
            elif marker.search(line):
                done += 1
                sys.stderr.write(_line(min(done, total), total, started))
        code = proc.wait()
    if on_terminal:
        sys.stderr.write(_line(total if code == 0 else done, total, started) + "\n")
    return code
