"""The Python warnings an nbgrader step raises, kept in that step's log, not the terminal.

nbgrader 0.9 under SQLAlchemy 2 warns on every autograde of a new submission ("Object
of type <SubmittedAssignment> not in session, add operation along 'Student.submissions'
will not proceed": its own autoflush, while it builds the submission it adds just
after), and nbformat warns on each notebook without cell ids (``MissingIDFieldWarning``:
it adds them). Neither changes a grade; printed, they were two lines each among the
grading command's progress lines (measured: 23 warnings, 46 lines of stderr, for 12
notebooks). Kept in the step's log, an instructor still finds them there.

Warnings reach ``warnings.showwarning``. While a thread runs a step (``kept``), a hook
stands in for it that keeps that thread's warnings and hands every other thread's (the
judges' client, the main thread) to the hook it stood in for. ``catch_warnings`` cannot
do this: it records every thread's warnings at once. The hook belongs to the step, not
to this module: a run's state stays with its run (``tests/store/test_run_state.py``).
"""

import contextlib
import threading
import warnings

__all__ = ["kept"]


@contextlib.contextmanager
def kept():
    """The warnings this thread raises in the block, formatted, instead of on stderr."""
    caught, step, shown = [], threading.get_ident(), warnings.showwarning
    running = True  # once the step is over, a hook left in a chain only hands warnings on

    def hook(message, category, filename, lineno, file=None, line=None):
        if running and threading.get_ident() == step:
            caught.append(warnings.formatwarning(message, category, filename, lineno, line))
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = hook
    try:
        yield caught
    finally:
        running = False
        if warnings.showwarning is hook:  # another thread's step may stand in for it now
            warnings.showwarning = shown
