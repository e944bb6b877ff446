"""Whose notebook each file of an LMS's "download all" zip is, for ``nbgrader zip_collect``.

The layout of ``$TENSOR_ANATOMY_LMS`` is matched against each file's name *inside the
archive* it came from (``SafeZipExtractor`` keeps it), whole, from its first
character: the student id is the one the LMS wrote there, never one spelt deeper in a
path a student chose. The id is the LMS's own number for the student, which the
Canvas export writes back into Canvas's ID column.

* Canvas: ``lovelaceada_12345_67890_01_storage_strides.ipynb`` (name, user id,
  attachment id, the file as uploaded), ``LATE_`` before the user id when late,
  ``-1``, ``-2`` before the extension for a file uploaded again (the highest is newest).
* Moodle: ``Ada Lovelace_123456_assignsubmission_file_/01_storage_strides.ipynb``
  (a folder per participant: full name, participant id).

``LmsNameCollector`` files one notebook per student and notebook, each refusal costing
that student alone, with one line: an id ``id_problem`` refuses, uploads of the same
notebook that cannot be ordered, a newest upload that the extractor refused.
"""

import os
import re
from collections import defaultdict

from nbgrader.plugins import FileNameCollectorPlugin

from grader._ids import id_problem, terminal_safe
from grader._settings import Settings, variable

__all__ = ["LAYOUTS", "LmsNameCollector", "named_regexp"]

LAYOUTS = {
    "canvas": r"[^/_]+_(?:LATE_)?(?P<student_id>\d+)_\d+_(?P<file_id>[^/]+?)"
              r"(?:-(?P<upload>\d+))?\.ipynb",
    "moodle": r"[^/]+_(?P<student_id>\d+)_assignsubmission_file_?/(?P<file_id>[^/]+?)\.ipynb",
}


def named_regexp() -> str:
    """The layout of ``$TENSOR_ANATOMY_LMS`` (canvas, the default, or moodle)."""
    lms = Settings.from_environment().lms
    if lms not in LAYOUTS:
        raise ValueError(f"{variable('lms')}={lms!r}: one of {sorted(LAYOUTS)}")
    return LAYOUTS[lms]


class LmsNameCollector(FileNameCollectorPlugin):
    """nbgrader's file-name collector, reading names as the archive held them."""

    _plan: dict | None = None  # written path -> nbgrader's info, built at the first file

    def collect(self, submitted_file: str) -> dict | None:
        if self._plan is None:
            members = getattr(self.parent.extractor_plugin_inst, "members", None)
            if members is None:
                self.log.error("Nothing collected: the files were not extracted by "
                               "SafeZipExtractor (c.ZipCollectApp.extractor_plugin)")
            self._plan = self._filing(members or [])
        info = self._plan.get(os.path.abspath(submitted_file))
        return dict(info) if info else None

    def _filing(self, members) -> dict[str, dict]:
        uploads = defaultdict(list)  # (student id, notebook) -> [(upload number, member)]
        for member in members:
            found = re.fullmatch(self.named_regexp, member.name)
            if not found:
                continue
            student_id = found["student_id"]
            if problem := id_problem(student_id):
                self.log.warning("%s not collected: student id %s: %s",
                                 terminal_safe(member.name), terminal_safe(student_id), problem)
                continue
            upload = int(found.groupdict().get("upload") or 0)
            uploads[student_id, found["file_id"]].append((upload, member))
        plan = {}
        for (student_id, file_id), candidates in uploads.items():
            if newest := self._newest(student_id, file_id, candidates):
                plan[newest.path] = {"student_id": student_id, "file_id": file_id}
        return plan

    def _newest(self, student_id: str, file_id: str, candidates: list):
        """The member to file for this student's notebook, or None (one line says why)."""
        last = max(upload for upload, _ in candidates)
        latest = [member for upload, member in candidates if upload == last]
        where = f"student {student_id}: {terminal_safe(file_id)}"
        if len(latest) > 1:
            self.log.warning("%s not collected: %d uploads of it and no way to tell which "
                             "is newest", where, len(latest))
            return None
        if latest[0].refused:
            if len(candidates) > 1:  # alone, the extractor's line has said why already
                self.log.warning("%s not collected: its newest upload %s was refused (%s)",
                                 where, terminal_safe(latest[0].name), latest[0].refused)
            return None
        if len(candidates) > 1:
            self.log.warning("%s: kept %s, the newest of %d uploads", where,
                             terminal_safe(latest[0].name), len(candidates))
        return latest[0]
