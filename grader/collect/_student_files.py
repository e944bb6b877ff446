"""Copy a submission folder that a student wrote, trusting nothing in it.

The exchange's inbound folder is writable by every student, and collect runs as the
instructor: whatever it follows or opens, it reads with the instructor's rights. So
a folder is walked from file descriptors (``dir_fd``, ``O_NOFOLLOW``), never by path,
and each entry is judged twice: by ``lstat`` before it is opened (a symbolic link,
FIFO, device or socket is never opened), then by ``fstat`` of what was opened (what
was swapped in between is refused too). Only directories and plain regular files of
the student's, with one link and within the sizes, are copied; only ``st_size`` bytes
of a file are read, so a file that grows while it is read cannot fill the disk.
Copies are written fresh, ``0o644`` and ``0o755``: no mode of the student's survives.
"""

import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Limits", "Refused", "copy_folder"]

DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: a FIFO swapped in after lstat opens at once (and is then refused), never hangs.
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
WRITTEN = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_MODE, FOLDER_MODE = 0o644, 0o755
DEEPEST = 16  # folders within folders: each level holds a descriptor open
CHUNK = 1 << 20


class Refused(Exception):
    """Why a submission folder is not collected, in a few words."""


@dataclass(frozen=True)
class Limits:
    """What one submission may hold. ``ignore`` and ``include`` are nbgrader's
    ``CourseDirectory`` globs: an ignored entry is counted, never opened or copied."""

    max_entries: int
    max_file_bytes: int
    max_total_bytes: int
    ignore: tuple[str, ...] = ()
    include: tuple[str, ...] = ("*",)

    def skips(self, name: str, is_folder: bool) -> bool:
        if any(fnmatch.fnmatch(name, glob) for glob in self.ignore):
            return True
        return not is_folder and not any(fnmatch.fnmatch(name, glob) for glob in self.include)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a plain file"


def copy_folder(parent_fd: int, name: str, owner: int, limits: Limits, into: Path) -> int:
    """Copy the folder ``name`` of the folder open as ``parent_fd`` to ``into`` (which
    must not exist), if it and all it holds belong to ``owner``. Returns the newest
    ``st_ctime_ns`` of all it read: the one time a student cannot set back (``utime``
    sets modification times, never the change time). Raises Refused."""
    walk = _Walk(owner, limits)
    walk.folder(parent_fd, name, os.lstat(name, dir_fd=parent_fd), into, depth=0)
    return walk.newest


class _Walk:
    """One folder's copy: the counts and the newest change time so far."""

    def __init__(self, owner: int, limits: Limits):
        self.owner, self.limits = owner, limits
        self.entries = self.total = self.newest = 0

    def folder(self, parent_fd: int, name: str, seen: os.stat_result, into: Path,
               depth: int) -> None:
        if depth > DEEPEST:
            raise Refused(f"folders nested deeper than {DEEPEST}")
        fd = self._open(parent_fd, name, seen, DIRECTORY, stat.S_ISDIR)
        try:
            into.mkdir(mode=0o700)  # opened up once full: nobody reads a half copy
            with os.scandir(fd) as entries:
                for entry in entries:
                    self._entry(fd, entry, into, depth)
            into.chmod(FOLDER_MODE)
        finally:
            os.close(fd)

    def _entry(self, fd: int, entry: os.DirEntry, into: Path, depth: int) -> None:
        self.entries += 1
        if self.entries > self.limits.max_entries:
            raise Refused(f"more than {self.limits.max_entries} files and folders")
        seen = entry.stat(follow_symlinks=False)  # lstat, relative to fd
        if self.limits.skips(entry.name, stat.S_ISDIR(seen.st_mode)):
            return
        if stat.S_ISDIR(seen.st_mode):
            self.folder(fd, entry.name, seen, into / entry.name, depth + 1)
        elif stat.S_ISREG(seen.st_mode):
            self._file(fd, entry.name, seen, into / entry.name)
        else:
            raise Refused(f"{entry.name!r} is {_kind(seen.st_mode)}")

    def _file(self, parent_fd: int, name: str, seen: os.stat_result, into: Path) -> None:
        self._judge(name, seen)  # by lstat: an oversized file is refused unopened
        fd = self._open(parent_fd, name, seen, FILE, stat.S_ISREG)
        try:
            size = os.fstat(fd).st_size
            self.total += size
            if self.total > self.limits.max_total_bytes:
                raise Refused(f"over {self.limits.max_total_bytes} bytes in all")
            with open(os.open(into, WRITTEN, FILE_MODE), "wb") as out:
                os.fchmod(out.fileno(), FILE_MODE)  # whatever the instructor's umask
                while size > 0:
                    chunk = os.read(fd, min(size, CHUNK))
                    if not chunk:
                        raise Refused(f"{name!r} shrank while it was read")
                    out.write(chunk)
                    size -= len(chunk)
        finally:
            os.close(fd)

    def _open(self, parent_fd: int, name: str, seen: os.stat_result, flags: int,
              right_kind) -> int:
        """Open ``name`` as lstat saw it, or refuse: the opened thing is judged by fstat."""
        try:
            fd = os.open(name, flags, dir_fd=parent_fd)
        except OSError as error:
            raise Refused(f"{name!r} cannot be opened safely ({error.strerror})") from None
        opened = os.fstat(fd)
        if not right_kind(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
                seen.st_dev, seen.st_ino):
            os.close(fd)
            raise Refused(f"{name!r} was replaced while it was collected")
        try:
            self._judge(name, opened)
        except Refused:
            os.close(fd)
            raise
        self.newest = max(self.newest, opened.st_ctime_ns)
        return fd

    def _judge(self, name: str, status: os.stat_result) -> None:
        if stat.S_ISREG(status.st_mode):
            if status.st_nlink > 1:  # the same file is also somewhere the student may not read
                raise Refused(f"{name!r} is a hard link")
            if status.st_size > self.limits.max_file_bytes:
                raise Refused(f"{name!r} is over {self.limits.max_file_bytes} bytes")
        if status.st_uid != self.owner:
            raise Refused(f"{name!r} belongs to uid {status.st_uid}, not the submitter")
