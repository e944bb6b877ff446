"""Where things are in a course checkout; every list is derived from disk."""

from dataclasses import dataclass
from pathlib import Path

from grader._settings import Settings, variable

__all__ = ["COURSE_ID_DEFAULT", "Course", "EXCHANGE_DEFAULT", "SPEED_PIECES",
           "speed_pieces_off"]

EXCHANGE_DEFAULT = str(Settings.exchange)  # nbgrader's own
COURSE_ID_DEFAULT = Settings.course_id

# The pieces that make grading fast, each of which ``benchmarks/grading_bench.py``
# can turn off to measure what it is worth. No piece changes a verdict.
SPEED_PIECES = {
    "replay": "a warm judge replays the examples a check drew for an earlier notebook "
              "that passed it, instead of searching again (grader/judge/_replay.py)",
    "zygote": "students' processes are forked from a process that has imported torch "
              "(grader/student/_zygote.py); off: a fresh interpreter per notebook",
    "warm-judges": "a judge process grades notebook after notebook "
                   "(grader/judge/_judge_server.py); off: a new judge per notebook",
    "overlap": "nbgrader's steps take each notebook as soon as it is judged, while the "
               "others are judged (grader/batch/_run.py); off: after every notebook is judged",
    "judges-ahead": "the grading command starts its judges before its own start-up is done "
                    "(grader/judge/_judge_server.py); off: as judging starts",
    "lane-first": "judges run at a lower CPU priority than nbgrader's lane, which keeps up "
                  "with judging (grader/judge/_judge_server.py); off: the same priority",
    "judge-template": "judges are forked from a template process that has imported what a "
                      "judge imports (grader/judge/_judge_template.py); off: an interpreter "
                      "started per judge",
    "shared-engines": "nbgrader's gradebooks share one SQLAlchemy engine per database for "
                      "the run, so SQL is compiled once (grader/bridge/_engines.py); off: an "
                      "engine per gradebook opened",
}


def speed_pieces_off() -> frozenset[str]:
    """The pieces ``$TENSOR_ANATOMY_BENCH_WITHOUT`` (comma-separated) turns off; for the bench."""
    off = Settings.from_environment().bench_without
    unknown = off - SPEED_PIECES.keys()
    if unknown:
        raise ValueError(f"{variable('bench_without')}: unknown piece(s) {sorted(unknown)}; "
                         f"known: {sorted(SPEED_PIECES)}")
    return off


@dataclass(frozen=True)
class Course:
    root: Path

    @classmethod
    def find(cls, start: Path | None = None) -> "Course":
        """The checkout holding ``nbgrader_config.py``, from ``start`` upwards."""
        here = Path(start or Path.cwd()).resolve()
        for folder in (here, *here.parents):
            if (folder / "nbgrader_config.py").exists() and (folder / "solutions").is_dir():
                return cls(folder)
        raise FileNotFoundError(f"no course (nbgrader_config.py + solutions/) above {here}")

    @property
    def instructor(self) -> Path:
        return (Settings.from_environment().instructor_dir or self.root / "instructor").resolve()

    @property
    def db_url(self) -> str:
        """The gradebook: SQLite in the instructor folder, or ``$TENSOR_ANATOMY_DB_URL``
        (e.g. ``postgresql+psycopg://user@host/db`` for many graders at once)."""
        return Settings.from_environment().db_url or f"sqlite:///{self.instructor / 'gradebook.db'}"

    @property
    def exchange(self) -> Path:
        """nbgrader's exchange, where assignments are released to and submitted through:
        ``$TENSOR_ANATOMY_EXCHANGE``, else nbgrader's own default. Every student and the
        instructor must be able to write to it."""
        return Settings.from_environment().exchange

    @property
    def course_id(self) -> str:
        """The course's name in the exchange (``$TENSOR_ANATOMY_COURSE_ID``)."""
        return Settings.from_environment().course_id

    def assignments(self) -> list[str]:
        """Every assignment: a folder of ``solutions/`` holding a notebook."""
        return sorted(p.parent.name for p in (self.root / "solutions").glob("*/*.ipynb"))

    def source_notebook(self, assignment: str) -> Path:
        return self._only_notebook(self.root / "solutions" / assignment)

    def release_notebook(self, assignment: str) -> Path:
        return self._only_notebook(self.root / "exercises" / assignment)

    def translated_release_notebooks(self, assignment: str) -> list[Path]:
        """The released notebook of ``assignment`` in each other language,
        ``exercises/<language>/<assignment>/`` (``grader.translation``)."""
        return sorted((self.root / "exercises").glob(f"*/{assignment}/*.ipynb"))

    def submitted(self, student: str, assignment: str) -> Path:
        return self.instructor / "submitted" / student / assignment

    @staticmethod
    def _only_notebook(folder: Path) -> Path:
        notebooks = sorted(folder.glob("*.ipynb"))
        if len(notebooks) != 1:
            raise FileNotFoundError(f"expected one notebook in {folder}, found {len(notebooks)}")
        return notebooks[0]
