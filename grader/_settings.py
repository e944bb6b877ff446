"""What an instructor may set, in one place: each setting's variable, type, default and help.

``Settings.from_environment()`` is the grader's only reader of the ``TENSOR_ANATOMY_*``
variables (``tests/core/test_settings.py`` fails on another); ``python -m grader settings``
prints each with its help and the value it has now. A setting marked ``verdict`` changes
what a judge decides: the verdict store hashes all of them, typed, into each verdict's key
(``grader.store._verdicts``), so a new one cannot be forgotten there. A setting marked
``judge`` is handed to the judge's process in its environment (``_sandbox.judge_environment``,
an allow-list: the gradebook's URL never reaches a student), where it is read back here.

The student's kernel reads one variable itself, ``TENSOR_ANATOMY_LANG``
(``anatomy_widgets._language``: the widgets run where the grader is not installed);
``language`` here is the same variable (``tests/core/test_settings.py`` compares the two names).
Nothing of the widgets is imported here: the judge imports this module before it forks
the student's process, whose memory holds only the judge's machinery
(``tests/student/test_reachable.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

__all__ = ["Settings", "judge_variables", "variable"]


def _flag(raw: str) -> bool:
    return raw == "1"


def _pieces(raw: str) -> frozenset[str]:
    return frozenset(filter(None, raw.replace(" ", "").split(",")))


def _setting(name: str, default, help: str, parse: Callable[[str], object] = str, *,
             verdict: bool = False, judge: bool = False, secret: bool = False):
    """A field of ``Settings``: read from ``$TENSOR_ANATOMY_<name>``; unset or empty, the
    default. ``secret``: never printed (``described``)."""
    return field(default=default, metadata={
        "variable": f"TENSOR_ANATOMY_{name}",
        "help": help, "parse": parse, "verdict": verdict, "judge": judge or verdict,
        "secret": secret})


@dataclass(frozen=True)
class Settings:
    call_timeout: float = _setting(
        "CALL_TIMEOUT", 10.0, "seconds a student's function may take, per call of a "
        "hidden check", float, verdict=True)
    cell_timeout: float = _setting(
        "CELL_TIMEOUT", 60.0, "seconds a notebook cell may take when a submission is "
        "run", float, verdict=True)
    notebook_timeout: float = _setting(
        "NOTEBOOK_TIMEOUT", 300.0, "seconds a whole submission may take to run", float,
        verdict=True)
    first_failure: bool = _setting(
        "FIRST_FAILURE", False, "1: a failed hidden check shows the first input it failed "
        "on, not the smallest hypothesis shrinks it to; the same scores, in less time where "
        "many checks fail (measured: README, \"Large classes\")", _flag, verdict=True)
    allow_unconfined: bool = _setting(
        "ALLOW_UNCONFINED", False, "1: grade even where the kernel refuses the sandbox's "
        "namespaces (set by --allow-unconfined)", _flag, verdict=True)
    bench_without: frozenset[str] = _setting(
        "BENCH_WITHOUT", frozenset(), "comma-separated speed pieces to turn off, for "
        "make bench (grader._course.SPEED_PIECES); no piece changes a verdict", _pieces,
        judge=True)
    instructor_dir: Path | None = _setting(
        "INSTRUCTOR_DIR", None, "the instructor folder: gradebook, submissions, verdicts, "
        "reports (default: instructor/ in the checkout)", Path, judge=True)
    db_url: str | None = _setting(
        "DB_URL", None, "the gradebook's database URL, e.g. postgresql+psycopg://user@host/db "
        "(default: SQLite in the instructor folder)", secret=True)
    exchange: Path = _setting(
        "EXCHANGE", Path("/srv/nbgrader/exchange"), "nbgrader's exchange, which every "
        "student and the instructor can write to", Path)
    course_id: str = _setting(
        "COURSE_ID", "tensor-anatomy", "the course's name in the exchange")
    lms: str = _setting(
        "LMS", "canvas", "the layout of a zip of submissions downloaded from an LMS: canvas "
        "or moodle", str.lower)
    language: str | None = _setting(
        "LANG", None, "the language validate and the student's kernel speak (en, zh-CN); "
        "default: the notebook's, or its folder's")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings ``environ`` (default: this process's environment) gives."""
        environ = os.environ if environ is None else environ
        given = {}
        for each in fields(cls):
            name, raw = each.metadata["variable"], environ.get(each.metadata["variable"])
            if raw:
                try:
                    given[each.name] = each.metadata["parse"](raw)
                except ValueError as error:
                    raise ValueError(f"{name}={raw!r}: {error}") from None
        return cls(**given)

    def for_verdicts(self) -> dict[str, object]:
        """The settings a verdict depends on, as JSON values (for the verdict's key)."""
        return {each.name: _json(getattr(self, each.name))
                for each in fields(self) if each.metadata["verdict"]}

    def described(self) -> list[tuple[str, str, str]]:
        """(variable, value now, help) of each setting, for ``python -m grader settings``; a
        secret's value (the database URL may hold a password) only as set or not."""
        return [(each.metadata["variable"], _shown(getattr(self, each.name), each.metadata),
                 each.metadata["help"]) for each in fields(self)]


def _shown(value, metadata) -> str:
    """``value`` as the variable would be written (empty: unset, or off)."""
    if metadata["secret"]:
        return "" if value is None else "(set, not shown)"
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    return ",".join(sorted(value)) if isinstance(value, frozenset) else str(value or "")


def _json(value):
    if isinstance(value, frozenset):
        return sorted(value)
    return str(value) if isinstance(value, Path) else value


def variable(name: str) -> str:
    """The environment variable of the setting ``name`` (``"allow_unconfined"``), for what
    hands a setting to another process."""
    return next(f.metadata["variable"] for f in fields(Settings) if f.name == name)


def judge_variables() -> tuple[str, ...]:
    """The variables a judge's process is given (the settings marked ``judge``)."""
    return tuple(f.metadata["variable"] for f in fields(Settings) if f.metadata["judge"])
