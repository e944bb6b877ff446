"""Long grading steps: one progress line with rate and ETA.

On a terminal the line redraws in place. Without one (CI, pipes) a plain line
is printed now and then (about every 5 %), so that logs stay short.
"""

import sys
import time

__all__ = ["ProgressLine"]

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
