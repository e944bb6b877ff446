"""The submission folders of an assignment in the exchange's inbound folder, and which count.

``nbgrader submit`` files a hand-in as ``<student>+<assignment>+<timestamp>+<random>``,
but any student may ``mkdir`` there under any name. A folder counts only if its name
holds a gradable id and, where students are OS users, the folder belongs to the user
it names. That is judged before a student's folders are compared, so a classmate's
forged folder can never stand in front of the student's own.
"""

import datetime
import fnmatch
import os
import pwd
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from grader._ids import id_problem

__all__ = ["Candidate", "candidates", "changed_at", "newest", "problem"]


@dataclass(frozen=True)
class Candidate:
    """One folder of the inbound folder, as ``lstat`` saw it (never followed)."""

    folder: str
    student: str
    status: os.stat_result


def candidates(inbound_fd: int, assignment: str, students: str = "*") -> Iterator[Candidate]:
    """The folders filed for ``assignment`` by students whose id matches the glob
    ``students`` (nbgrader's ``--student``)."""
    with os.scandir(inbound_fd) as entries:
        for entry in entries:
            named, found, _ = entry.name.partition(f"+{assignment}+")
            if found and named and fnmatch.fnmatchcase(named, students or "*"):
                yield Candidate(entry.name, named, entry.stat(follow_symlinks=False))


def problem(candidate: Candidate, check_owner: bool) -> str | None:
    """Why this folder cannot be its student's submission; None if it can."""
    reason = id_problem(candidate.student)
    if reason:
        return reason
    if stat.S_ISLNK(candidate.status.st_mode):
        return "the folder is a symbolic link"
    if not stat.S_ISDIR(candidate.status.st_mode):
        return "not a folder"
    return _owner_problem(candidate) if check_owner else None


def _owner_problem(candidate: Candidate) -> str | None:
    try:
        expected = pwd.getpwnam(candidate.student).pw_uid
    except KeyError:
        return f"no OS user is named {candidate.student}"
    uid = candidate.status.st_uid
    if uid == expected:
        return None
    try:
        owner = pwd.getpwuid(uid).pw_name
    except KeyError:
        owner = "no user"
    return f"filed under {candidate.student} by uid {uid} ({owner})"


def changed_at(ctime_ns: int, zone: datetime.tzinfo | None = None) -> datetime.datetime:
    """A change time, to the microsecond, in ``zone``; without one, as nbgrader compares
    times: naive, in UTC."""
    seconds, nanoseconds = divmod(ctime_ns, 10**9)  # no float: exact microseconds
    moment = datetime.datetime.fromtimestamp(seconds, zone or datetime.UTC)
    moment += datetime.timedelta(microseconds=nanoseconds // 1000)
    return moment if zone else moment.replace(tzinfo=None)


def newest(folders: list[Candidate], due: datetime.datetime | None = None) -> Candidate:
    """The folder changed last (its own change time: the student cannot set it back);
    with ``due``, the last one changed by then, if any, as ``--before-duedate`` asks."""
    ordered = sorted(folders, key=lambda c: c.status.st_ctime_ns, reverse=True)
    if due is not None:
        in_time = [c for c in ordered if changed_at(c.status.st_ctime_ns) <= due]
        return (in_time or ordered)[0]
    return ordered[0]
