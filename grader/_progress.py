"""Long grading steps: one progress line with rate and ETA.

On a terminal the line redraws in place. Without one (CI, pipes) a plain line
is printed now and then, and a wrapped command's output passes through as it
comes, so logs stay complete; its full output also goes to a log file.
"""

import re
import subprocess
import sys
import time

__all__ = ["ProgressLine", "run_with_progress"]

_BAR = 24


class ProgressLine:
    """``total`` items of ``what``; call ``advance()`` as each one is done."""

    def __init__(self, total: int, what: str):
        self.total, self.what, self.done = total, what, 0
        self.started = time.monotonic()
        self.on_terminal = sys.stderr.isatty()
        self._every = max(1, total // 20)

    def text(self) -> str:
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = f"{left / rate:4.0f} s" if rate and left > 0 else "   - "
        filled = _BAR * min(self.done, self.total) // max(self.total, 1)
        return (f"  [{'#' * filled}{'.' * (_BAR - filled)}] {self.done}/{self.total} "
                f"{self.what}  {rate * 60:5.1f}/min  ETA {eta}")

    def advance(self) -> None:
        self.done += 1
        if self.on_terminal:
            sys.stderr.write("\r" + self.text())
        elif self.done % self._every == 0 or self.done == self.total:
            print(self.text(), flush=True)

    def close(self) -> None:
        if self.on_terminal:
            sys.stderr.write("\r" + self.text() + "\n")


def run_with_progress(cmd: list[str], log_path, total: int, pattern: str, **popen) -> int:
    """Run ``cmd``; each output line matching ``pattern`` is one of ``total`` items done."""
    progress, marker = ProgressLine(total, "notebooks"), re.compile(pattern)
    with open(log_path, "w", encoding="utf-8") as log, subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", **popen) as proc:
        for line in proc.stdout:
            log.write(line)
            if not progress.on_terminal:
                sys.stdout.write(line)
            elif marker.search(line):
                progress.advance()
        code = proc.wait()
    progress.close()
    return code
