"""``nbgrader collect`` through the exchange, trusting nothing a student wrote.

Stock collect copies each inbound folder with ``shutil.copytree`` as the instructor,
following symbolic links, and stops the whole batch at the first folder it cannot
copy. ``SafeCollect`` (``c.ExchangeFactory.collect``) keeps nbgrader's command, its
options (``--update``, ``--before-duedate``, ``--student``) and its folders, and
changes what it trusts:

* a folder counts only if its name holds a gradable id (``grader._ids``) and it
  belongs to the OS user it names (``check_owner``);
* its files are copied by ``_student_files``: no link, FIFO, device, socket, hard
  link, oversized file or foreign file is ever read, nothing keeps a student's mode;
* its time is the newest change time of all it holds, never its ``timestamp.txt``;
* a refused folder costs its student alone: one error line, the batch goes on.
"""

import datetime
import os
import shutil
import stat
import tempfile
from collections import defaultdict
from pathlib import Path

from dateutil.tz import gettz
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import parse_utc
from traitlets import Bool, Integer

from grader._ids import terminal_safe

from . import _inbound
from ._student_files import DIRECTORY, FILE_MODE, Limits, Refused, copy_folder

__all__ = ["SafeCollect"]

# nbgrader submit writes its timestamp before it copies: an honest one is seconds early.
SLACK = datetime.timedelta(minutes=1)
TIMESTAMP_CHARACTERS = 200


class SafeCollect(ExchangeCollect):
    """nbgrader's exchange collect, for an inbound folder every student can write to."""

    check_owner = Bool(
        True,
        help="Collect a submission folder only if it belongs to the OS user whose id it is "
             "filed under; refuse it otherwise. Turn off only for an exchange whose students "
             "are not OS users (then its files must still all belong to its owner).",
    ).tag(config=True)

    max_entries = Integer(
        1000,
        help="The most files and folders one submission may hold; a submission with more "
             "is refused, unread.",
    ).tag(config=True)

    def init_src(self):
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.inbound_path = os.path.join(self.root, self.coursedir.course_id, "inbound")
        self.inbound_fd = self._open_inbound()
        folders = defaultdict(list)
        for candidate in _inbound.candidates(self.inbound_fd, self.coursedir.assignment_id,
                                             self.coursedir.student_id):
            reason = _inbound.problem(candidate, self.check_owner)
            if reason:
                self._refuse(candidate, reason)
            else:
                folders[candidate.student].append(candidate)
        due = self._due_date() if self.before_duedate else None
        self.src_records = [_inbound.newest(each, due) for each in folders.values()]

    def _open_inbound(self) -> int:
        try:
            fd = os.open(self.inbound_path, DIRECTORY)
        except OSError as error:
            self.fail(f"Course not found: {self.inbound_path} ({error.strerror})")
        owner = os.fstat(fd).st_uid
        if not self.coursedir.groupshared and owner != os.geteuid():
            os.close(fd)  # a student who could rename it may have put their own in its place
            self.fail(f"{self.inbound_path} belongs to uid {owner}, not to you: not collected")
        return fd

    def _due_date(self) -> datetime.datetime | None:
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                return gradebook.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                return None

    def copy_files(self):
        assignment = self.coursedir.assignment_id
        self.log.info("Processing %d submissions of '%s' for course '%s'",
                      len(self.src_records), assignment, self.coursedir.course_id)
        try:
            for candidate in self.src_records:
                self._collect(candidate)
        finally:
            os.close(self.inbound_fd)

    def _collect(self, candidate: _inbound.Candidate) -> None:
        dest = Path(self.coursedir.format_path(self.coursedir.submitted_directory,
                                               candidate.student, self.coursedir.assignment_id))
        if not self._replaces(candidate, dest):
            return
        new_student = not dest.parent.exists()  # then a refusal leaves no folder of theirs
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".collecting-", dir=dest.parent))
        try:
            copy = staging / "submission"
            changed = copy_folder(self.inbound_fd, candidate.folder, candidate.status.st_uid,
                                  self._limits(), copy)
            self._stamp(candidate, copy / "timestamp.txt", changed)
            if dest.exists():
                shutil.rmtree(dest)
            copy.rename(dest)
            self.log.info("Collecting submission: %s %s", terminal_safe(candidate.student),
                          self.coursedir.assignment_id)
        except Refused as why:
            self._refuse(candidate, str(why))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        if new_student and not dest.exists():
            dest.parent.rmdir()

    def _replaces(self, candidate: _inbound.Candidate, dest: Path) -> bool:
        """nbgrader's rule: an existing copy is replaced with --update by a newer folder,
        with --before-duedate by another one; the folder's own change time is its time."""
        if not dest.is_dir():
            return True
        existing = _written_time(dest / "timestamp.txt")
        folder = _inbound.changed_at(candidate.status.st_ctime_ns)
        if self.update and (existing is None or folder > existing):
            return True
        if self.before_duedate and existing != folder:
            return True
        self.log.info("Submission already exists, use --update to update: %s %s",
                      terminal_safe(candidate.student), self.coursedir.assignment_id)
        return False

    def _limits(self) -> Limits:
        return Limits(max_entries=self.max_entries,
                      max_file_bytes=1000 * self.coursedir.max_file_size,  # nbgrader's kB
                      max_total_bytes=1000 * self.coursedir.max_dir_size,
                      ignore=tuple(self.coursedir.ignore), include=tuple(self.coursedir.include))

    def _stamp(self, candidate: _inbound.Candidate, path: Path, changed_ns: int) -> None:
        """Write the submission's time, the newest change of its files, in nbgrader's
        format; say so where the student's own timestamp.txt claimed an earlier one."""
        claimed = _written_time(path)
        trusted = _inbound.changed_at(changed_ns)
        if claimed is not None and claimed < trusted - SLACK:
            self.log.warning("%s: timestamp.txt claims %s, its files changed last at %s: "
                             "that is its time", terminal_safe(candidate.folder), claimed, trusted)
        when = _inbound.changed_at(changed_ns, gettz(self.timezone))
        path.unlink(missing_ok=True)
        path.write_text(when.strftime(self.timestamp_format), encoding="utf-8")
        path.chmod(FILE_MODE)

    def _refuse(self, candidate: _inbound.Candidate, reason: str) -> None:
        self.log.error("%s: %s: refused", terminal_safe(candidate.folder), terminal_safe(reason))


def _written_time(path: Path) -> datetime.datetime | None:
    """The time a timestamp.txt holds (naive UTC), or None: an unreadable one costs nothing."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        with path.open(encoding="utf-8", errors="replace") as text:
            return parse_utc(text.read(TIMESTAMP_CHARACTERS).strip() or None)
    except (OSError, ValueError, OverflowError, TypeError):
        return None
