"""How an LMS names the submissions in its "download all" zip, for ``nbgrader zip_collect``.

nbgrader's ``FileNameCollector`` matches a regular expression against each
extracted file's path: it must name the student (``student_id``) and the
notebook (``file_id``; the extension is put back by nbgrader). The student id
is the LMS's own number for the student, which the Canvas export writes back
into Canvas's ID column.

* Canvas: ``lovelaceada_12345_67890_01_storage_strides.ipynb`` (name, user id,
  submission id, the file as uploaded), ``LATE_`` before the user id when
  late, ``-1``, ``-2`` before the extension for a file uploaded again.
* Moodle: ``Ada Lovelace_123456_assignsubmission_file_/01_storage_strides.ipynb``
  (a folder per participant: full name, participant id).
"""

import os

__all__ = ["LAYOUTS", "named_regexp"]

LAYOUTS = {
    "canvas": r".*/[^/_]+_(?:LATE_)?(?P<student_id>\d+)_\d+_(?P<file_id>[^/]+?)(?:-\d+)?\.ipynb$",
    "moodle": r".*/[^/]+_(?P<student_id>\d+)_assignsubmission_file_?/(?P<file_id>[^/]+?)\.ipynb$",
}


def named_regexp() -> str:
    """The layout of ``$TENSOR_ANATOMY_LMS`` (canvas, the default, or moodle)."""
    lms = os.environ.get("TENSOR_ANATOMY_LMS", "canvas").lower()
    if lms not in LAYOUTS:
        raise ValueError(f"TENSOR_ANATOMY_LMS={lms!r}: one of {sorted(LAYOUTS)}")
    return LAYOUTS[lms]
