"""nbgrader bridge: the hidden checks' verdict becomes each test cell's output.

``JudgeHiddenChecks`` runs after nbgrader's ``Execute``. It hands the
notebook (as nbgrader restored it: locked cells back to the instructor's
version) to a judge process, then REPLACES every test cell's outputs with the
verdict: a readable report on stdout and the points as the cell's result,
which nbgrader reads as partial credit. Whatever the student's kernel printed
in a test cell is discarded, so it cannot decide a grade.
"""

from nbconvert.preprocessors import Preprocessor
from nbformat import v4
from traitlets import Float

from . import _notebook
from ._judge import judge_in_subprocess

__all__ = ["JudgeHiddenChecks", "autograde_pipeline", "report_lines", "score"]


def score(record: dict, points: float) -> float:
    """Points earned: the fraction of checks passed, rounded to 2 decimals."""
    if not record["total"]:
        return 0.0
    return round(points * record["passed"] / record["total"], 2)


def report_lines(name: str, record: dict, points: float) -> list[str]:
    """What the student reads in the test cell: one line per hidden check."""
    head = (f"Hidden checks for {name}: {record['passed']} of {record['total']} passed"
            f" → {score(record, points):g} / {points:g} points")
    lines = [head]
    for check in record["checks"]:
        lines.append(f"  {'✓' if check['passed'] else '✗'} {check['description']}")
        lines += [f"      {line}" for line in check["detail"].splitlines() if not check["passed"]]
    return lines


class JudgeHiddenChecks(Preprocessor):
    """Grade test cells with the hidden checks, in a process of their own."""

    timeout = Float(900.0, help="seconds one notebook's hidden checks may take").tag(config=True)

    def preprocess(self, nb, resources):
        assignment = resources["nbgrader"]["assignment"]
        verdict = self._judge(nb, assignment)
        exercises = verdict["exercises"]
        for name, cell in _notebook.exercise_cells(nb).items():
            if name not in exercises:
                raise RuntimeError(f"{assignment}: test cell {name!r} has no hidden checks")
            points = float(cell.metadata.nbgrader["points"])
            text = "\n".join(report_lines(name, exercises[name], points)) + "\n"
            earned = f"{score(exercises[name], points):g}"
            cell.outputs = [
                v4.new_output("stream", name="stdout", text=text),
                v4.new_output("execute_result", data={"text/plain": earned},
                              execution_count=cell.get("execution_count")),
            ]
        return nb, resources

    def _judge(self, nb, assignment: str) -> dict:
        return judge_in_subprocess(nb, assignment, self.timeout)


def autograde_pipeline() -> list:
    """nbgrader's own autograde preprocessors, with ours right after Execute."""
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    pipeline = list(Autograde().autograde_preprocessors)
    pipeline.insert(pipeline.index(Execute) + 1, JudgeHiddenChecks)
    return pipeline
