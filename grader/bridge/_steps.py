"""nbgrader's steps for a whole batch, in this process: its start-up paid once.

Each stock ``nbgrader`` command imports nbgrader, nbconvert and the Jupyter
server before it does anything (about 6 s on a 2-core machine), and a batch
needs four commands per assignment. The grading command runs the same apps
through nbgrader's own Python API (``NbGraderAPI``) with the course's
``nbgrader_config.py``, one notebook at a time with a progress line, and
keeps every step's log under ``instructor/logs/``.
"""

import contextlib
import os
import re
import sys
import time
from pathlib import Path

from grader._course import Course
from grader._ids import terminal_safe
from grader._progress import ProgressLine
from grader.bridge import _step_warnings

__all__ = ["NbgraderSteps", "advice", "reason", "scripts_first_on_path", "with_scripts_on_path"]

# Per student, in this order; each with its phase in the run's timings (``_phases``).
STEPS = {"autograde": "nbgrader autograde", "generate_feedback": "feedback"}


def with_scripts_on_path() -> dict:
    """The environment with this interpreter's scripts first on PATH (once: a PATH that
    has them first already is kept as it is).

    nbgrader runs ``alembic`` by name when it creates a gradebook, so it must
    be found even if the virtual environment is not activated.
    """
    scripts, path = os.path.dirname(sys.executable), os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != scripts:
        path = os.pathsep.join(filter(None, [scripts, path]))
    return {**os.environ, "PATH": path}


def scripts_first_on_path() -> None:
    """Put this interpreter's scripts first on this process's PATH, if they are not.

    A judge is started with PATH among its environment, and an idle judge started
    under another one is replaced (``_judge_server``): the grading run does this before
    its judges start, so that nbgrader's start-up beside them changes nothing.
    """
    os.environ["PATH"] = with_scripts_on_path()["PATH"]


class NbgraderSteps:
    """The course's nbgrader, configured once; each step returns True if it succeeded."""

    def __init__(self, course: Course, release_directory: Path, timed=None, ahead=None):
        # ``timed(phase)``: a context that times a block as that phase (``_phases``);
        # ``ahead``: the run's notebooks restored ahead (``_structure.RestoredAhead``).
        self._timed = timed or (lambda phase: contextlib.nullcontext())
        with self._timed("nbgrader start-up"):
            self._start(course, release_directory, ahead)

    def _start(self, course: Course, release_directory: Path, ahead) -> None:
        # jsonschema, imported with nbformat, builds an IRI grammar (about 2 s of CPU)
        # for a format check ("iri") that no notebook or gradebook schema uses.
        sys.modules.setdefault("rfc3987_syntax", None)
        from nbgrader.apps import NbGraderAPI
        from traitlets.config.loader import PyFileConfigLoader

        scripts_first_on_path()
        config = PyFileConfigLoader("nbgrader_config.py", path=str(course.root)).load_config()
        config.CourseDirectory.root = str(course.root)
        # Grading registers the release in the gradebook; exercises/ stays untouched.
        config.CourseDirectory.release_directory = str(release_directory)
        if ahead is not None:  # nbgrader's sanitize step takes what this run restored
            from grader.bridge._nbgrader import sanitize_pipeline

            config.Autograde.sanitize_preprocessors = sanitize_pipeline(ahead)
        self.api, self.logs = NbGraderAPI(config=config), course.instructor / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self._begun: set[str] = set()
        self._create_gradebook()

    def _create_gradebook(self, attempts: int = 3) -> None:
        """Create the gradebook's tables, if they are missing, before any step.

        Two graders starting together on a fresh PostgreSQL gradebook race to
        create them; the loser's step would fail. It opens the gradebook again,
        and then finds the tables.
        """
        from nbgrader.api import Gradebook
        from sqlalchemy.exc import SQLAlchemyError

        for attempt in range(attempts):
            try:
                _create_tables(self.api.coursedir.db_url)
                with Gradebook(self.api.coursedir.db_url, self.api.coursedir.course_id):
                    return
            except SQLAlchemyError:
                time.sleep(0.5 * (attempt + 1))  # the steps report it, if it persists

    def generate_assignment(self, assignment: str) -> bool:
        """Register the source cells and their checksums in the gradebook."""
        print(f"nbgrader generate_assignment {assignment}", flush=True)
        with self._timed("register releases"), _step_warnings.kept() as warned:
            result = self.api.generate_assignment(assignment, force=True)
        return self._record(f"generate_assignment-{assignment}", "", result, warned)

    def grade(self, assignment: str, students: list[str]) -> list[str]:
        """autograde, then generate_feedback, for each student in turn; the steps that failed.

        A student's feedback needs only that student's autograded notebook, so
        the grading command sends each notebook through as soon as it is judged.
        """
        # A batch gets a progress line; a notebook sent through as it is judged needs none.
        progress = ProgressLine(len(students), "notebooks") if len(students) > 1 else None
        if progress:
            print(f"nbgrader {', '.join(STEPS)} {assignment} ({len(students)} notebooks)",
                  flush=True)
        failed = []
        for student in students:
            for step, phase in STEPS.items():
                with self._timed(phase), _step_warnings.kept() as warned:
                    result = getattr(self.api, step)(assignment, student, force=True)
                if not self._record(self._log(step, assignment), student, result, warned):
                    failed.append(f"{step} {assignment} ({student})")
            if progress:
                progress.advance()
        if progress:
            progress.close()
        return failed

    def report(self, assignment: str, count: int) -> None:
        """Say that all of ``assignment`` went through nbgrader, and where the logs are."""
        for step in STEPS:
            print(f"nbgrader {step} {assignment} ({count} notebooks)  "
                  f"log: {self.logs / self._log(step, assignment)}.log", flush=True)

    def export(self, csv: Path) -> bool:
        """Every assignment's grades as CSV (nbgrader's columns, written by the csv module)."""
        from nbgrader.api import Gradebook

        from grader.bridge._csv_export import SafeCsvExportPlugin

        print(f"nbgrader export --to={csv}", flush=True)
        coursedir = self.api.coursedir
        try:
            with Gradebook(coursedir.db_url, coursedir.course_id) as gradebook:
                SafeCsvExportPlugin(parent=self.api, to=str(csv)).export(gradebook)
        except Exception as exc:  # noqa: BLE001 - reported as a failed step, like nbgrader's
            return self._record("export", "", {"success": False, "error": repr(exc)})
        return True

    def _log(self, step: str, assignment: str) -> str:
        """The name of a step's log for an assignment, emptied at its first use in this run."""
        name = f"{step}-{assignment}"
        if name not in self._begun:
            (self.logs / f"{name}.log").write_text("", encoding="utf-8")
            self._begun.add(name)
        return name

    def _record(self, name: str, student: str, result: dict, warned: list[str] = ()) -> bool:
        """Append nbgrader's log of one step, and the warnings it raised (``_step_warnings``),
        to its log file; say why it failed, if it did."""
        text = result.get("log", "") + "".join(warned) + (result.get("error") or "")
        with open(self.logs / f"{name}.log", "a", encoding="utf-8") as log:
            log.write(f"--- {student}\n{text}\n" if student else text)
        if not result.get("success"):
            who = f" for {terminal_safe(student)}" if student else ""  # a name the student chose
            print(f"nbgrader {name} failed{who}: {terminal_safe(reason(text))}\n  (whole log: "
                  f"{self.logs / name}.log){advice(text, name)}", file=sys.stderr, flush=True)
        return bool(result.get("success"))


_RAISED = re.compile(r"^\s*(?:[\w.]+\.)?(\w+(?:Error|Exception)): (.+)$", re.M)
_GENERIC = ("NbGraderException",)  # nbgrader's "see the above traceback": not the reason


def reason(log: str) -> str:
    """The error nbgrader's log names last, other than its own "see above" wrapper."""
    raised = [(kind, message) for kind, message in _RAISED.findall(log) if kind not in _GENERIC]
    if raised:
        return f"{raised[-1][0]}: {raised[-1][1].strip()}"
    lines = [line for line in log.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no reason given"


def advice(log: str, step: str) -> str:
    """What to do next, where the reason is one an instructor meets after a change."""
    if "Cannot add or remove cells" in log:
        assignment = step.removeprefix("generate_assignment-")
        return ("\n  The assignment's cells changed after students' notebooks were graded. "
                "To grade them again with the new cells (their submissions stay):\n"
                f"    .venv/bin/nbgrader db assignment remove {assignment} --force\n"
                f"    make grade ASSIGNMENT={assignment}\n"
                "  (README: \"Changing an assignment after grading\")")
    return ""


def _create_tables(db_url: str) -> None:
    """A fresh gradebook's schema, as nbgrader's ``Gradebook`` creates it.

    nbgrader stamps a new gradebook with the schema's alembic revision, which
    it asks of an ``alembic heads`` subprocess: about 6 s of CPU (it imports
    nbgrader again) while the judges start. Here alembic reads the same
    revision in this process. An existing gradebook is left as it is.
    """
    import nbgrader.api
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(db_url, future=True)
    try:
        with engine.begin() as connection:
            if inspect(connection).get_table_names():
                return
            nbgrader.api.Base.metadata.create_all(bind=connection)
            scripts = ScriptDirectory(str(Path(nbgrader.api.__file__).parent / "alembic"))
            connection.execute(text("CREATE TABLE alembic_version "
                                    "(version_num VARCHAR(32) NOT NULL)"))
            connection.execute(text("INSERT INTO alembic_version (version_num) VALUES (:head)"),
                               {"head": scripts.get_current_head()})
    finally:
        engine.dispose()
