"""nbgrader bridge: the hidden checks' verdict becomes each test cell's output.

``JudgeHiddenChecks`` takes the place of nbgrader's ``Execute``. It hands the
notebook (as nbgrader restored it: locked cells back to the instructor's
version) to a judge process, which runs the student's cells in a sandboxed
worker and the hidden checks beside it. Every student cell gets the outputs
the worker saw; every test cell gets the verdict: as data in its metadata
(``grader._verdict``, which every reader renders in its own words), a readable
report on stdout and the points as the cell's result, which nbgrader reads as
partial credit. No student code runs in a kernel, so nothing it prints can
decide a grade.
"""

import nbformat
from nbconvert.preprocessors import Preprocessor
from nbformat import v4
from traitlets import Bool, Float

from grader import _language, _notebook
from grader._course import Course
from grader._language import ENGLISH
from grader._verdict import verdict_of, with_verdict
from grader.bridge._bounded_data import BoundEmbeddedData
from grader.bridge._sanitize_html import SanitizeOutputs
from grader.bridge._structure import RestoredAhead, restore_structure
from grader.bridge._variants import variants_of
from grader.bridge._verdict_text import report_lines, score, verdict_outputs
from grader.judge._judge_server import judge
from grader.store._verdicts import examples_file, verdict_for

__all__ = ["JudgeHiddenChecks", "RestoreStructure", "autograde_pipeline",
           "feedback_pipeline", "missing_verdicts", "report_lines", "sanitize_pipeline",
           "score"]


def _cell_outputs(report: dict) -> list:
    """A student cell's outputs as the sandbox saw them (nothing from a kernel)."""
    outputs = []
    if report.get("stdout"):
        outputs.append(v4.new_output("stream", name="stdout", text=report["stdout"]))
    if "result" in report:
        outputs.append(v4.new_output("execute_result", data={"text/plain": report["result"]}))
    if "error" in report:
        ename, evalue = report["error"]
        outputs.append(v4.new_output("error", ename=ename, evalue=evalue,
                                     traceback=[f"{ename}: {evalue}"]))
    if "skipped" in report:
        outputs.append(v4.new_output("error", ename="GradingLimit", evalue=report["skipped"],
                                     traceback=[f"GradingLimit: {report['skipped']}"]))
    return outputs


class JudgeHiddenChecks(Preprocessor):
    """Run the notebook in the sandbox and grade its test cells with the hidden checks.

    Takes the place of nbgrader's ``Execute``: the student's code never runs
    in a kernel of the grading machine, only in the judge's worker process.
    """

    # nbconvert preprocessors are off unless enabled; off would mean no verdict,
    # and nbgrader gives full marks to a test cell without outputs.
    enabled = Bool(True)
    timeout = Float(900.0, help="seconds one notebook's hidden checks may take").tag(config=True)

    def preprocess(self, nb, resources):
        assignment = resources["nbgrader"]["assignment"]
        instructor = Course.find().instructor
        # The student's variant, from the id nbgrader collected the submission under
        # (its submitted/<id>/ folder), never from the notebook.
        variants = variants_of(instructor, assignment, resources["nbgrader"].get("student"))

        def judge_now() -> dict:
            self.log.info("judging %s now (no verdict judged ahead)", assignment)
            return judge(nb, assignment, self.timeout, variants=variants,
                         kept=examples_file(instructor / "verdicts", assignment))

        # The store judges what it lacks and keeps it (its one writer): ``missing_verdicts``
        # believes a test cell's verdict only where the store holds the same.
        verdict = verdict_for(instructor / "verdicts", nb, assignment, judge_now, variants)
        for index, cell in enumerate(_notebook.student_cells(nb)):
            cell.outputs = _cell_outputs(verdict["cells"].get(str(index), {}))
        exercises = verdict["exercises"]
        for name, cell in _notebook.exercise_cells(nb).items():
            if name not in exercises:
                raise RuntimeError(f"{assignment}: test cell {name!r} has no hidden checks")
            with_verdict(cell, name, exercises[name], float(cell.metadata.nbgrader["points"]))
            # The points, which nbgrader reads; and the verdict in English, because the
            # instructor reads this notebook in the formgrader. Nothing reads that text
            # back: every other reader renders the data (``verdict_of``) in its language.
            cell.outputs = verdict_outputs(verdict_of(cell), ENGLISH)
        return nb, resources


class RestoreStructure(Preprocessor):
    """Grade the student's code in the released notebook's shape (see ``_structure``).

    First in nbgrader's sanitize step: before nbgrader validates any metadata
    the student could have forged.
    """

    enabled = Bool(True)
    # The grading run's notebooks restored ahead, on a subclass made for that run
    # (``sanitize_pipeline``): a class, since nbgrader deep-copies its config's values.
    ahead: RestoredAhead | None = None

    def preprocess(self, nb, resources):
        from grader.bridge._feedback_language import with_language

        assignment = resources["nbgrader"]["assignment"]
        course = Course.find()
        submitted = course.submitted(resources["nbgrader"]["student"], assignment) / \
            f"{resources['nbgrader']['notebook']}.ipynb"
        releases = _language.releases(course, assignment)
        english = releases.pop(_language.ENGLISH)
        # Restored already when it was judged ahead of nbgrader: not again.
        restored, changes = (self.ahead and self.ahead.take(submitted)) or restore_structure(
            nb, english, list(releases.values()))
        for change in changes:
            self.log.warning("%s/%s: %s", resources["nbgrader"].get("student"), assignment, change)
        # The feedback page is written in the language the student worked in.
        language = _language.notebook_language(nb, {_language.ENGLISH: english, **releases})
        return nbformat.from_dict(with_language(restored, language)), resources


def sanitize_pipeline(ahead: RestoredAhead | None = None) -> list:
    """nbgrader's sanitize preprocessors (``CheckCellMetadataOnce`` in the place of
    ``CheckCellMetadata``), after ``RestoreStructure``: one that takes the notebooks a
    grading run restored ahead (``ahead``), where one is given."""
    from nbgrader.converters import Autograde

    restore = RestoreStructure if ahead is None else type(
        "RestoreStructure", (RestoreStructure,), {"ahead": ahead})
    return [restore, *_schema_checked_once(Autograde().sanitize_preprocessors)]


def _schema_checked_once(pipeline: list) -> list:
    """``pipeline`` with nbgrader's ``CheckCellMetadata`` as ``CheckCellMetadataOnce``."""
    from nbgrader.preprocessors import CheckCellMetadata

    from grader.bridge._cell_metadata import CheckCellMetadataOnce

    return [CheckCellMetadataOnce if step is CheckCellMetadata else step for step in pipeline]


def autograde_pipeline() -> list:
    """nbgrader's own autograde preprocessors, ours in the place of ``Execute``, and
    ``CheckCellMetadataOnce`` in the place of ``CheckCellMetadata`` (``_cell_metadata``)."""
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    pipeline = _schema_checked_once(Autograde().autograde_preprocessors)
    # What the student embedded or displayed, bounded and cleaned before it is stored:
    # the formgrader shows the autograded notebook to the instructor.
    at = pipeline.index(Execute)
    pipeline[at:at + 1] = [JudgeHiddenChecks, BoundEmbeddedData, SanitizeOutputs]
    return pipeline


def missing_verdicts(nb, stored: dict | None) -> list[str]:
    """Test cells of an autograded notebook that carry no verdict of ours.

    Fail closed: such a cell would get full marks from nbgrader. ``stored``: the verdict
    store's entry for ``nb`` (``stored_verdict``). A cell's verdict counts only where the
    store holds the same record: a student writes a test cell's metadata too, and stock
    nbgrader (``OverwriteCells``) keeps it, where ``RestoreStructure`` would not.
    """
    exercises = (stored or {}).get("exercises", {})

    def judged(name: str, cell) -> bool:
        verdict = verdict_of(cell)
        return verdict is not None and verdict["exercise"] == name \
            and exercises.get(name) == verdict["record"]

    return [name for name, cell in _notebook.exercise_cells(nb).items()
            if not judged(name, cell)]


def feedback_pipeline() -> list:
    """nbgrader's feedback preprocessors, then ours.

    ``ClearHiddenTests``: stock ``generate_feedback`` shows the autograded notebook
    as it is, hidden test regions included; students must never see them.
    ``InStudentLanguage`` (before the Markdown's maths is rendered): the Markdown and
    the structure note in the language the student worked in. ``VerdictsOnThePage``
    (after nbgrader's ``GetGrades``): each test cell's verdict rendered from its data,
    in that language, with the gradebook's points. ``DrawFailingInputs``: a picture of
    each first failing input. ``MathAsMathML``: the page's maths renders offline.
    ``WrapLongLines``: a verdict's long lines wrap at the page's edge.
    ``DescribedPictures`` (last): every picture has alternative text.
    ``BoundEmbeddedData``, ``SanitizeOutputs`` (before our own pictures and maths, which
    are trusted): nothing the student embedded or displayed runs or weighs on the page.
    """
    from nbgrader.converters import GenerateFeedback
    from nbgrader.preprocessors import ClearHiddenTests

    from grader.bridge._drawn_inputs import DrawFailingInputs
    from grader.bridge._feedback_language import InStudentLanguage
    from grader.bridge._feedback_page import DescribedPictures
    from grader.bridge._feedback_verdict import VerdictsOnThePage
    from grader.bridge._offline_math import MathAsMathML
    from grader.bridge._page_style import WrapLongLines

    # GetGrades first (it reads the gradebook), then CSSHTMLHeaderPreprocessor (it starts
    # the page's styles, which WrapLongLines adds to).
    stock = GenerateFeedback().preprocessors
    return [*stock, ClearHiddenTests, BoundEmbeddedData, SanitizeOutputs,
            InStudentLanguage, VerdictsOnThePage,
            DrawFailingInputs, MathAsMathML, WrapLongLines, DescribedPictures]
