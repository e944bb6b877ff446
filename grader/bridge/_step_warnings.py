"""The Python warnings an nbgrader step raises, kept in that step's log, not the terminal.

nbgrader 0.9 under SQLAlchemy 2 warns on every autograde of a new submission ("Object
of type <SubmittedAssignment> not in session, add operation along 'Student.submissions'
will not proceed": its own autoflush, while it builds the submission it adds just
after), and nbformat warns on each notebook without cell ids (``MissingIDFieldWarning``:
it adds them). Neither changes a grade; printed, they were two lines each among the
grading command's progress lines (measured: 23 warnings, 46 lines of stderr, for 12
notebooks). Kept in the step's log, an instructor still finds them there.

Warnings reach ``warnings.showwarning``; while a thread runs a step (``kept``), the hook
this module installs hands that thread's warnings to the step, and every other thread's
(the judges' client, the main thread) to the hook it replaced. ``catch_warnings`` cannot
do this: it swaps the hook for every thread at once.
"""

import contextlib
import threading
import warnings

__all__ = ["kept"]

_steps_running: dict[int, list[str]] = {}  # thread → the warnings of the step it runs


def _route(message, category, filename, lineno, file=None, line=None) -> None:
    caught = _steps_running.get(threading.get_ident())
    if caught is None:
        _route.replaced(message, category, filename, lineno, file, line)
    else:
        caught.append(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def kept():
    """The warnings this thread raises in the block, formatted, instead of on stderr."""
    if warnings.showwarning is not _route:  # installed once (a test may have reset it)
        _route.replaced, warnings.showwarning = warnings.showwarning, _route
    caught = _steps_running[threading.get_ident()] = []
    try:
        yield caught
    finally:
        del _steps_running[threading.get_ident()]
