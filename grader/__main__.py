"""``python -m grader validate NB``: the same commands as ``python -m grader.cli``."""

from grader.cli import run

run()
