"""Extract an LMS's "download all" zip for ``nbgrader zip_collect``, trusting no member.

Canvas and Moodle keep each uploaded file's name and bytes, so every member of the
zip was named and filled by a student. nbgrader's own extractor believes them: it
unpacks an archive found inside into a folder whose name then decides whose work a
file is, keeps each member's mode (a 04755 member stays set-uid), reads a member
whole into memory, and stops the class's collection at the first path it dislikes.
``SafeZipExtractor`` instead

* extracts only the archives the instructor put in the archive folder, never one
  inside them (its author could spell anyone's id in it);
* refuses, with one line each, a member that is a link or another non-regular file,
  whose path leaves the folder or hides a control character, or that passes a limit;
  the limits count the bytes really decompressed, never the sizes a header claims;
* writes every file 0o644 and every folder 0o755, whatever the zip says;
* keeps a ``Member`` for each entry, written or refused: the collector
  (``_zip_names``) files a notebook only by the name it had in the archive.
"""

import os
import stat
import zipfile
import zlib
from dataclasses import dataclass, replace

from nbgrader.plugins import ExtractorPlugin
from traitlets import Integer

from grader._ids import terminal_safe

__all__ = ["Member", "SafeZipExtractor"]

FILE_MODE, FOLDER_MODE = 0o644, 0o755
CHUNK = 64 * 1024  # what is held in memory at once, whatever a member expands to
ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst")
UNREADABLE = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError)


@dataclass(frozen=True)
class Member:
    """One file of a download: the archive and name it came with, where it went or why not."""

    archive: str  # the archive's path in the archive folder; "" for a loose file there
    name: str  # its path inside the archive (a loose file's, inside the archive folder)
    path: str | None  # where it was written (absolute, normalised); None when refused
    refused: str | None  # why it was not written


class Refused(Exception):
    """A member is not written: its reason, in a few words."""


def path_problem(name: str) -> str | None:
    """Why a member's path cannot be written under the extraction folder; None if it can."""
    parts = name.split("/")
    if name.startswith("/"):
        return "an absolute path"
    if ".." in parts:
        return "a path that climbs out of the folder (..)"
    if "\\" in name:
        return "a backslash in its path"
    if terminal_safe(name) != name:
        return "a control or invisible character in its name"
    if any(part in ("", ".") for part in parts):
        return "an empty or '.' part in its path"
    return None


def entry_problem(info: zipfile.ZipInfo) -> str | None:
    """Why a zip entry is not extracted; None if it may be."""
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the zip was made without modes
    if kind == stat.S_IFLNK:
        return "a symbolic link"
    if kind not in (0, stat.S_IFREG):
        return "not a regular file"
    if info.flag_bits & 0x1:
        return "encrypted"
    if info.filename.lower().endswith(ARCHIVE_SUFFIXES):
        return "an archive inside the download, never extracted (upload the notebook itself)"
    return path_problem(info.filename)


def make_folders(root: str, parts: list[str]) -> str:
    """``root/parts...``, each folder made 0o755 if missing (never through a link)."""
    folder = root
    for part in parts:
        folder = os.path.join(folder, part)
        try:
            os.mkdir(folder, FOLDER_MODE)
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                raise Refused(f"its folder {part!r} is also a file") from None
            continue
        os.chmod(folder, FOLDER_MODE)  # mkdir's mode went through the umask
    return folder


class SafeZipExtractor(ExtractorPlugin):
    """nbgrader's extractor, less everything a student's upload could turn (see above)."""

    max_entries = Integer(10_000, help=(
        "An archive with more entries than this is not extracted at all (one line says so)."
    )).tag(config=True)
    max_member_bytes = Integer(32 * 2**20, help=(
        "A member that decompresses to more bytes than this is refused, its bytes counted "
        "as they are read."
    )).tag(config=True)
    max_total_bytes = Integer(2 * 2**30, help=(
        "Bytes written by one extraction in all; once spent, each further member is refused."
    )).tag(config=True)
    max_ratio = Integer(200, help=(
        "A member that decompresses to more than this many times its compressed size "
        "is refused (a zip bomb; notebooks deflate about 3 to 20 times)."
    )).tag(config=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.members: list[Member] = []  # every entry of this run's extraction, in order
        self._spent = 0

    def extract(self, archive_path: str, extracted_path: str) -> None:
        """Each zip in ``archive_path`` into ``extracted_path/<its path less .zip>/``,
        each other file copied to ``extracted_path/<its path>``."""
        for source in self._instructors_files(archive_path):
            relative = os.path.relpath(source, archive_path)
            if relative.endswith(".zip"):
                self._extract_zip(source, relative, extracted_path)
            else:
                self._keep(self._copy_loose(source, relative, extracted_path))

    def _instructors_files(self, archive_path: str) -> list[str]:
        """The files the instructor put in the archive folder, links left out."""
        found = []
        for root, folders, files in os.walk(archive_path):
            folders.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                if os.path.islink(path):
                    self.log.warning("%s not extracted: a symbolic link", terminal_safe(path))
                else:
                    found.append(path)
        return found

    def _extract_zip(self, source: str, relative: str, extracted_path: str) -> None:
        try:
            zipped = zipfile.ZipFile(source)
        except (OSError, zipfile.BadZipFile) as error:
            self.log.warning("%s not extracted: not a readable zip (%s)",
                             terminal_safe(relative), type(error).__name__)
            return
        with zipped:
            entries = zipped.infolist()
            if len(entries) > self.max_entries:
                self.log.warning("%s not extracted: %d entries, over SafeZipExtractor."
                                 "max_entries=%d", terminal_safe(relative), len(entries),
                                 self.max_entries)
                return
            into = [extracted_path, *relative.removesuffix(".zip").split(os.sep)]
            seen = set()
            for info in entries:
                if info.is_dir():  # folders are made for the files in them
                    continue
                if info.filename in seen:
                    self._refuse_twins(relative, info.filename)
                    continue
                seen.add(info.filename)
                self._keep(self._extract_entry(zipped, info, relative, into))

    def _extract_entry(self, zipped, info, archive: str, into: list[str]) -> Member:
        try:
            if problem := entry_problem(info):
                raise Refused(problem)
            *folders, name = info.filename.split("/")
            target = os.path.join(make_folders(into[0], into[1:] + folders), name)
            with zipped.open(info) as stream:
                self._write_bounded(stream, target, info.compress_size)
        except Refused as refused:
            return Member(archive, info.filename, None, str(refused))
        except (OSError, *UNREADABLE) as error:
            return Member(archive, info.filename, None, f"unreadable ({type(error).__name__})")
        return Member(archive, info.filename, os.path.abspath(target), None)

    def _copy_loose(self, source: str, relative: str, extracted_path: str) -> Member:
        try:
            if problem := path_problem(relative):
                raise Refused(problem)
            *folders, name = relative.split(os.sep)
            target = os.path.join(make_folders(extracted_path, folders), name)
            with open(os.open(source, os.O_RDONLY | os.O_NOFOLLOW), "rb") as stream:
                if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                    raise Refused("not a regular file")
                self._write_bounded(stream, target, None)
        except Refused as refused:
            return Member("", relative, None, str(refused))
        except OSError as error:
            return Member("", relative, None, f"unreadable ({type(error).__name__})")
        return Member("", relative, os.path.abspath(target), None)

    def _bound(self, compressed: int | None) -> tuple[int, str]:
        """The fewest bytes a member may expand to, and the limit that says so."""
        bounds = [(self.max_member_bytes, f"over SafeZipExtractor.max_member_bytes="
                                          f"{self.max_member_bytes}"),
                  (self.max_total_bytes - self._spent, "over what SafeZipExtractor."
                   f"max_total_bytes={self.max_total_bytes} left")]
        if compressed is not None:
            bounds.append((self.max_ratio * max(compressed, 1), "expands over SafeZipExtractor"
                           f".max_ratio={self.max_ratio} times its compressed size"))
        return min(bounds)

    def _write_bounded(self, stream, target: str, compressed: int | None) -> None:
        """``stream`` into a new file ``target`` (0o644), read a chunk at a time and stopped,
        the file removed, as soon as it passes its bound."""
        limit, why = self._bound(compressed)
        written = 0
        # O_EXCL, O_NOFOLLOW: never into a file or link already there
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
        try:
            with os.fdopen(out, "wb") as file:
                os.fchmod(file.fileno(), FILE_MODE)  # exactly 0o644, whatever the umask
                while chunk := stream.read(CHUNK):
                    written += len(chunk)
                    if written > limit:
                        raise Refused(why)
                    file.write(chunk)
        except BaseException:
            os.unlink(target)
            raise
        self._spent += written

    def _keep(self, member: Member) -> None:
        self.members.append(member)
        if member.refused:
            self.log.warning("%s: %s not extracted: %s", terminal_safe(member.archive or "."),
                             terminal_safe(member.name), member.refused)

    def _refuse_twins(self, archive: str, name: str) -> None:
        """A second entry of a name: neither is extracted (which one is the upload?)."""
        twice = "two entries of this name in the archive"
        for index, earlier in enumerate(self.members):
            if (earlier.archive, earlier.name) == (archive, name) and earlier.path:
                os.unlink(earlier.path)
                self.members[index] = replace(earlier, path=None, refused=twice)
        self._keep(Member(archive, name, None, twice))
