"""Submissions from an LMS's "download all" zip (``nbgrader zip_collect``), laid out as
Canvas and Moodle lay theirs out (``grader/collect/_zip_names.py``)."""

import json
import os
import sys
import zipfile

import pytest
from support import ASSIGNMENTS, COURSE, ROOT, submission

ASSIGNMENT = ASSIGNMENTS[0]
NOTEBOOK = COURSE.release_notebook(ASSIGNMENT).name
STEM = NOTEBOOK.removesuffix(".ipynb")
# LMS → (member of the zip, student id nbgrader should file it under, share of answers)
ZIPS = {
    "canvas": [(f"lovelaceada_12345_67890_{NOTEBOOK}", "12345", 1.0),
               (f"hoppergrace_LATE_23456_78901_{STEM}-1.ipynb", "23456", 0.5),
               ("hoppergrace_LATE_23456_78901_notes.txt", None, 0.0)],
    "moodle": [(f"Ada Lovelace_123456_assignsubmission_file_/{NOTEBOOK}", "123456", 1.0),
               (f"Grace Hopper_234567_assignsubmission_file_/{NOTEBOOK}", "234567", 0.5)],
}


def _notebook(share: float) -> str:
    return json.dumps(submission(ASSIGNMENT, share))


@pytest.mark.parametrize("lms", sorted(ZIPS))
def test_a_downloaded_zip_is_filed_under_each_students_lms_id(lms, tmp_path):
    instructor = tmp_path / "instructor"
    archive = instructor / "downloaded" / ASSIGNMENT / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / f"{lms}-submissions.zip", "w") as zipped:
        for member, _, share in ZIPS[lms]:
            zipped.writestr(member, _notebook(share) if member.endswith(".ipynb") else "hi")
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "TENSOR_ANATOMY_LMS": lms}
    import subprocess

    done = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", ASSIGNMENT,
                           "--force"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    submitted = instructor / "submitted"
    filed = sorted(str(p.relative_to(submitted)) for p in submitted.rglob("*.ipynb"))
    expected = sorted(f"{sid}/{ASSIGNMENT}/{NOTEBOOK}" for _, sid, _ in ZIPS[lms] if sid)
    assert filed == expected, done.stderr[-3000:]
    for _, sid, share in ZIPS[lms]:
        if sid:
            assert (submitted / sid / ASSIGNMENT / NOTEBOOK).read_text() == _notebook(share)


def test_an_unknown_lms_is_refused_by_name(tmp_path):
    import subprocess

    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(tmp_path),
           "TENSOR_ANATOMY_LMS": "blackboard"}
    done = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", ASSIGNMENT],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "TENSOR_ANATOMY_LMS='blackboard': one of" in done.stderr
    assert not (tmp_path / "submitted").exists()


def test_the_layouts_name_student_and_notebook(tmp_path):
    import re

    from grader.collect._zip_names import LAYOUTS

    for lms, members in ZIPS.items():
        for member, sid, _ in members:
            found = re.fullmatch(LAYOUTS[lms], member)  # the name inside the archive, whole
            assert (found and found["student_id"]) == (sid or None) or not member.endswith(
                ".ipynb")
            if sid:
                assert found["file_id"] == STEM
