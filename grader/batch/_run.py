"""The grading run behind ``grade``: judge ahead in parallel, nbgrader's steps beside it,
then per assignment a check that every notebook was judged by us, a summary table and a
plot, the misconceptions' table and plot, and the exports."""

import collections
import contextlib
import fcntl
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import _notebook
from grader._course import Course, speed_pieces_off
from grader._ids import terminal_safe
from grader.batch import _gradebook, _phases, _student_ids, _triage
from grader.batch._misconception_report import write_misconception_report
from grader.batch._parallel import judge_batch
from grader.batch._regrade import previous_verdicts, report_regrade
from grader.batch._report import plot_scores
from grader.bridge._engines import shared_engines
from grader.bridge._steps import NbgraderSteps, scripts_first_on_path
from grader.bridge._structure import RestoredAhead
from grader.judge._judge_server import started_ahead

__all__ = ["GradingRun", "export_for_lms", "grade", "one_grader_at_a_time"]


def _submitted(course: Course, assignment: str, skip=()) -> list[Path]:
    name = course.release_notebook(assignment).name
    return [folder / name for folder in
            sorted((course.instructor / "submitted").glob(f"*/{assignment}"))
            if folder.parent.name not in skip]


def _students(submissions: list[Path]) -> list[str]:
    """The students of submitted notebooks (``submitted/<student>/<assignment>/<nb>``)."""
    return [path.parent.parent.name for path in submissions]


def grade(course: Course, assignments: list[str], jobs: int | None = None,
          scheduler: str | None = None) -> int:
    """Autograde, feedback, CSV export and summary for each assignment.

    ``jobs`` judges that many notebooks at once on a local Dask cluster (default:
    one per core; 1 = no cluster), ``scheduler`` on an existing cluster instead.
    nbgrader takes each notebook as soon as it is judged, and sums up each
    assignment as soon as all its notebooks are.
    """
    course.instructor.mkdir(parents=True, exist_ok=True)  # sqlite will not make folders
    with one_grader_at_a_time(course.instructor):
        return GradingRun(course, assignments, jobs, scheduler).run()


@contextlib.contextmanager
def one_grader_at_a_time(instructor: Path):
    """Hold the instructor folder's grading lock; wait, saying so, while another command does.

    Two commands grading one folder at once would race for the same gradebook
    rows; the second waits, then finds the first one's verdicts stored.
    """
    with open(instructor / ".grading.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another grading command is grading {instructor}: waiting for it to finish",
                  file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


class GradingRun:
    """One ``grade`` command, from triage to the exports, and what it holds meanwhile.

    Owned here instead of in closures: the ids refused and the files set aside by
    triage, each assignment's verdicts before this run (the regrade report's "before"),
    the notebooks restored for judging (``ahead``, which nbgrader's sanitize step takes
    from), the students already sent through nbgrader, and the steps that failed. The cluster
    judges; nbgrader's lane (one thread) calls ``through_nbgrader`` as notebooks are
    judged and ``finish`` as assignments are; the main thread exports at the end.
    """

    def __init__(self, course: Course, assignments: list[str], jobs: int | None,
                 scheduler: str | None):
        self.course, self.assignments, self.jobs, self.scheduler = \
            course, assignments, jobs, scheduler
        self.phases = _phases.Phases()  # each phase's seconds: grading_phases.json, for the bench
        self.failed: list[str] = []
        self.through: dict[str, set[str]] = collections.defaultdict(set)
        self.ahead = RestoredAhead()
        self._steps: NbgraderSteps | None = None
        self._judges = contextlib.ExitStack()  # judges started ahead, until judging ends

    @property
    def steps(self) -> NbgraderSteps:
        """nbgrader's steps, made when first needed (in nbgrader's lane)."""
        if self._steps is None:
            self._steps = NbgraderSteps(self.course, self.course.instructor / "release",
                                        timed=self.phases.timed, ahead=self.ahead)
        return self._steps

    def run(self) -> int:
        with self._engines():
            with self._judges:
                self.triage()
                self.judge_and_grade()
            self.export()
        if self.failed:
            print(terminal_safe(f"FAILED steps: {', '.join(self.failed)} (see the log above)"),
                  file=sys.stderr)  # a step names its student
        return int(bool(self.failed))

    @staticmethod
    def _engines():
        """nbgrader's gradebooks share an engine per database for the run (``_engines``)."""
        if "shared-engines" in speed_pieces_off():
            return contextlib.nullcontext()
        return shared_engines()

    def triage(self) -> None:
        submitted = self.course.instructor / "submitted"
        with self.phases.timed("triage"):
            # A refused id's submissions are never read, judged, or put in the gradebook.
            self.refused = _student_ids.check_ids(submitted, self.assignments)
            self.problems = {a: _triage.triage(submitted, a, self.course.release_notebook(a),
                                               skip=self.refused) for a in self.assignments}
        # What the cluster judges: every submission but the ungradable and the refused.
        self.to_judge = {a: _submitted(self.course, a, {*self.problems[a], *self.refused})
                         for a in self.assignments}
        # Read before nbgrader overwrites them: what the regrade report compares with.
        self.before = previous_verdicts(self.course.instructor, self.assignments)

    def register_releases(self) -> None:  # needs no verdict: done while the cluster starts
        self.failed.extend(f"generate_assignment {a}" for a in self.assignments
                           if not self.steps.generate_assignment(a))

    def through_nbgrader(self, assignment: str, students: list[str]) -> None:
        students = [s for s in students if s not in self.through[assignment]]
        self.through[assignment].update(students)
        self.failed.extend(self.steps.grade(assignment, students))

    def finish(self, assignment: str) -> None:
        # The rest: judged in an earlier run, ungradable, or judged by nbgrader now.
        students = _students(_submitted(self.course, assignment, self.refused))
        self.through_nbgrader(assignment, students)
        with self.phases.timed("reports"):
            self.steps.report(assignment, len(students))
            self.failed.extend(_verify_and_summarize(self.course, assignment,
                                                     self.problems[assignment]))
            self.failed.extend(_report_refused(self.course, assignment, self.refused))
            report_regrade(self.course, assignment, self.before[assignment])

    def judge_and_grade(self) -> None:
        """Judge ahead on the cluster while nbgrader's lane takes each notebook judged."""
        scripts_first_on_path()  # before any judge starts, as nbgrader's start-up would
        parallel = self.jobs != 1 or self.scheduler
        if parallel and not self.scheduler and "judges-ahead" not in speed_pieces_off():
            self._judges.enter_context(started_ahead(self._judges_wanted()))
        if parallel and "overlap" in speed_pieces_off():  # benched: nbgrader after judging
            with self.phases.remainder("judging"):
                self._judge_ahead(None, None)
            parallel = False
        if parallel:
            # Imported before the nbgrader lane starts: while one thread imports distributed,
            # another thread importing it sees it half-initialised (ImportError, a flaky run).
            with self.phases.timed("judging"):
                import distributed  # noqa: F401
        # Judging is what the run spends meanwhile, less the lane's (``_phases``).
        with self.phases.remainder("judging"), \
                ThreadPoolExecutor(max_workers=1, thread_name_prefix="nbgrader") as lane:
            queued = [lane.submit(self.register_releases)]
            if parallel:  # the cluster's callbacks only queue work in the lane
                self._judge_ahead(
                    lambda a, paths: queued.append(
                        lane.submit(self.through_nbgrader, a, _students(paths))),
                    lambda a: queued.append(lane.submit(self.finish, a)))
            else:
                queued += [lane.submit(self.finish, a) for a in self.assignments]
            for step in queued:
                step.result()

    def _judges_wanted(self) -> int:
        """One judge per worker of the local cluster, none for a worker with nothing to
        judge (a notebook already judged is found stored; its judge is stopped unused)."""
        submissions = sum(map(len, self.to_judge.values()))
        return min(self.jobs or os.cpu_count() or 1, submissions)

    def _judge_ahead(self, each_judged, when_judged) -> None:
        """Judge the whole batch in parallel, calling back as notebooks and assignments
        are judged."""
        course, assignments = self.course, self.assignments
        batch = {a: (_notebook.load(course.release_notebook(a)), self.to_judge[a])
                 for a in assignments}
        count = sum(len(paths) for _, paths in batch.values())
        print(f"judging {count} submission(s) of {', '.join(assignments)} in parallel",
              flush=True)
        started = time.monotonic()
        translations = {a: [_notebook.load(p) for p in course.translated_release_notebooks(a)]
                        for a in assignments}
        failures = judge_batch(batch, course.instructor / "verdicts", workers=self.jobs,
                               scheduler=self.scheduler, each_judged=each_judged,
                               when_judged=when_judged, translations=translations,
                               ahead=self.ahead)
        self._judges.close()  # judging is over: a judge started ahead and not taken would idle
        print(f"judged in {time.monotonic() - started:.1f} s", flush=True)
        for failure in failures:
            print(f"  judged again by nbgrader: {terminal_safe(failure)}", file=sys.stderr)

    def export(self) -> None:
        instructor = self.course.instructor
        with self.phases.timed("export"):
            self.failed += [] if self.steps.export(instructor / "grades.csv") else ["export"]
            print(f"CSV: {instructor / 'grades.csv'}   feedback: {instructor / 'feedback'}")
            export_for_lms(self.course)
        self.phases.write(instructor / "reports" / "grading_phases.json", notebooks=sum(
            len(_submitted(self.course, a)) for a in self.assignments))


def export_for_lms(course: Course) -> int:
    """The LMS files beside nbgrader's CSV (``_export``): wide, Canvas, Moodle."""
    from grader.batch._export import export_for_lms as write

    written = write(course.db_url, course.instructor / "export")
    print("for your LMS: " + "   ".join(str(path) for path in written))
    return 0


def _verify_and_summarize(course: Course, assignment: str, problems: dict[str, str]) -> list:
    failed = []
    unjudged = _unjudged_notebooks(course, assignment)
    if unjudged:
        print("NOT GRADED BY THE HIDDEN CHECKS (scores invalid):\n  " + "\n  ".join(unjudged),
              file=sys.stderr)
        failed.append(f"verify {assignment}")
    _summarize(course, assignment)
    _report_problems(course, assignment, problems)
    return failed + ([f"ungradable submissions of {assignment}"] if problems else [])


def _summarize(course: Course, assignment: str) -> None:
    """The score table, and a plot of each exercise's score distribution."""
    cells = _notebook.exercise_cells(_notebook.load(course.source_notebook(assignment)))
    table = _gradebook.scores(course.db_url, assignment)
    print(f"\n{assignment}\n" + _gradebook.format_table(table, list(cells)))
    if table:
        plot = course.instructor / "reports" / f"{assignment}_scores.png"
        plot.parent.mkdir(parents=True, exist_ok=True)
        points = {n: float(c["metadata"]["nbgrader"]["points"]) for n, c in cells.items()}
        plot_scores(table, points, plot, assignment)
        print(f"score distribution: {plot}")
    _report_misconceptions(course, assignment)


def _report_misconceptions(course: Course, assignment: str) -> None:
    """The table and plot of named misconceptions: a hint, so a failure only says so."""
    try:
        table, plot = write_misconception_report(course.instructor, assignment)
    except Exception as exc:  # noqa: BLE001 - the grades stand without it
        print(f"no misconception report for {assignment}: {exc!r}", file=sys.stderr)
        return
    print(f"misconceptions: {table}   {plot}")


def _report_problems(course: Course, assignment: str, problems: dict[str, str]) -> None:
    """Say why each ungradable submission scored 0, here and in its feedback."""
    if not problems:
        return
    print(f"\nCould not grade {len(problems)} submission(s) of {assignment} (scored 0):")
    name = course.release_notebook(assignment).name
    for student, problem in problems.items():
        print(terminal_safe(f"  {student}: {problem}"))  # both may hold what a student typed
        _triage.write_problem_feedback(
            course.instructor / "feedback" / student / assignment, assignment, name, problem)


def _report_refused(course: Course, assignment: str, refused: dict[str, str]) -> list[str]:
    """Count the submissions of ``assignment`` refused for their ids: none is silently skipped."""
    here = [s for s in refused if (course.instructor / "submitted" / s / assignment).is_dir()]
    if not here:
        return []
    print(f"\nRefused {len(here)} submission(s) of {assignment}: their student ids cannot be "
          "graded (each named above, with why)")
    return [f"refused student ids of {assignment}"]


def _unjudged_notebooks(course: Course, assignment: str) -> list[str]:
    """Autograded notebooks with a test cell that our judge did not fill in: its verdict
    is believed only where the verdict store (no student can write it) holds the same."""
    from grader.bridge._variants import variants_of
    from grader.store._verdicts import stored_verdict

    found = []
    for path in sorted((course.instructor / "autograded").glob(f"*/{assignment}/*.ipynb")):
        nb = _notebook.load(path)
        # autograded/<student>/<assignment>/<notebook>: judged on that student's variant.
        variants = variants_of(course.instructor, assignment, path.parents[1].name)
        stored = stored_verdict(course.instructor / "verdicts", nb, assignment, variants)
        missing = _nbgrader_bridge().missing_verdicts(nb, stored)
        if missing:
            found.append(terminal_safe(f"{path}: {', '.join(missing)}"))  # a student's folder
    return found


def _nbgrader_bridge():
    """Imported when needed: nbconvert alone takes seconds, and judging need not wait."""
    from grader.bridge import _nbgrader

    return _nbgrader
