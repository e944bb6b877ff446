"""``nbgrader zip_collect`` over an LMS zip that hostile students filled (issue 29).

One Canvas "download all" zip holds every attack and two innocent students; it is
collected once (``collected``), then each case reads what that run did. The limits are
checked in-process, each on a small zip of its own, with the limit set low.
"""

import io
import json
import os
import stat
import struct
import subprocess
import sys
import tracemalloc
import zipfile
from functools import cache
from pathlib import Path

import pytest
from support import ASSIGNMENTS, COURSE, ROOT, submission

ASSIGNMENT = ASSIGNMENTS[0]
NOTEBOOK = COURSE.release_notebook(ASSIGNMENT).name
STEM = NOTEBOOK.removesuffix(".ipynb")
MiB = 2**20
BOMB = 64 * MiB  # of zeros: about 64 KiB deflated, past both the ratio and the size limits
FULLWIDTH_ID = "１２３４５"  # NFKC makes it 12345, the innocent Ada's id


@cache
def _notebook(share: float) -> bytes:
    return json.dumps(submission(ASSIGNMENT, share)).encode()


def _member(name: str, data: bytes, mode: int = 0o644, kind: int = stat.S_IFREG):
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.create_system = 3  # Unix: the high 16 bits of external_attr are st_mode
    info.external_attr = (kind | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, data


def _nested_zip() -> bytes:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zipped:
        zipped.writestr(f"victimvic_78901_2_{NOTEBOOK}", _notebook(1.0))
    return inner.getvalue()


def _hostile_members() -> list:
    """Canvas's names: sortable name, user id, attachment id, the file as uploaded."""
    return [
        _member(f"lovelaceada_12345_67890_{NOTEBOOK}", _notebook(1.0)),
        _member(f"hoppergrace_23456_78901_{STEM}.ipynb", _notebook(0.0)),
        _member(f"hoppergrace_23456_78901_{STEM}-2.ipynb", _notebook(0.5)),
        _member(f"hoppergrace_23456_78901_{STEM}-1.ipynb", _notebook(0.25)),
        _member(f"bombbob_34567_1_{NOTEBOOK}", bytes(BOMB)),
        _member(f"setuidsam_45678_1_{NOTEBOOK}", _notebook(1.0), mode=0o4755),
        _member("setuidsam_45678_1_id", b"\x7fELF not really", mode=0o6777),
        _member("setuidsam_45678_1_shared.txt", b"anyone may write me", mode=0o777),
        _member(f"linklee_56789_1_{NOTEBOOK}", b"/etc/shadow", mode=0o777, kind=stat.S_IFLNK),
        _member(f"evemallory_67890_1_{STEM}.zip", _nested_zip()),
        _member(f"../../../climber_89012_1_{NOTEBOOK}", _notebook(1.0)),
        _member(f"/rooted_89013_1_{NOTEBOOK}", _notebook(1.0)),
        _member(f"twinty_90123_1_{NOTEBOOK}", _notebook(1.0)),
        _member(f"twinty_90123_2_{NOTEBOOK}", _notebook(0.5)),
        _member(f"fullwidthfay_{FULLWIDTH_ID}_1_{NOTEBOOK}", _notebook(1.0)),
        _member(f"badnewest_11223_1_{STEM}.ipynb", _notebook(1.0)),
        _member(f"badnewest_11223_1_{STEM}-1.ipynb", b"/etc/shadow", kind=stat.S_IFLNK),
    ]


def _write_zip(path: Path, members) -> None:
    with zipfile.ZipFile(path, "w") as zipped:
        for info, data in members:
            zipped.writestr(info, data)


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """One ``zip_collect --force`` over the hostile zip: (its run, the instructor folder)."""
    tmp = tmp_path_factory.mktemp("hostile-zip")
    instructor = tmp / "instructor"
    archive = instructor / "downloaded" / ASSIGNMENT / "archive"
    archive.mkdir(parents=True)
    _write_zip(archive / "canvas-submissions.zip", _hostile_members())
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "TENSOR_ANATOMY_LMS": "canvas"}
    done = subprocess.run([sys.executable, "-m", "nbgrader", "zip_collect", ASSIGNMENT,
                           "--force"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    return done, instructor


def _filed(instructor: Path) -> dict[str, bytes]:
    submitted = instructor / "submitted"
    return {p.relative_to(submitted).parts[0]: p.read_bytes()
            for p in submitted.rglob("*.ipynb")} if submitted.exists() else {}


def _line(done, *words: str) -> str:
    """The one line of the run's log that holds every word, or an assertion that says none."""
    lines = [line for line in done.stderr.splitlines() if all(w in line for w in words)]
    assert lines, f"no line with {words} in:\n{done.stderr[-4000:]}"
    return lines[0]


def test_everyone_else_is_collected_and_the_run_succeeds(collected):
    done, instructor = collected
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(_filed(instructor)) == ["12345", "23456", "45678"], done.stderr[-3000:]
    assert _filed(instructor)["12345"] == _notebook(1.0)


def test_only_the_newest_canvas_reupload_is_kept_and_said(collected):
    done, instructor = collected
    assert _filed(instructor).get("23456") == _notebook(0.5)  # -2, not -1 nor the first
    assert "-2" in _line(done, "23456", "newest")


def test_a_zip_bomb_costs_its_owner_alone(collected):
    done, instructor = collected
    assert "34567" not in _filed(instructor)
    _line(done, "bombbob_34567", "not extracted")
    extracted = instructor / "downloaded" / ASSIGNMENT / "extracted"
    assert all(p.stat().st_size < 2 * MiB for p in extracted.rglob("*") if p.is_file())


def test_no_extracted_file_keeps_a_set_id_or_writable_mode(collected):
    done, instructor = collected
    extracted = instructor / "downloaded" / ASSIGNMENT / "extracted"
    modes = {str(p.relative_to(extracted)): stat.S_IMODE(p.lstat().st_mode)
             for p in extracted.rglob("*")}
    assert modes and {m for p, m in modes.items() if (extracted / p).is_file()} == {0o644}
    assert {m for p, m in modes.items() if (extracted / p).is_dir()} <= {0o755}
    filed = instructor / "submitted" / "45678" / ASSIGNMENT / NOTEBOOK
    assert stat.S_IMODE(filed.stat().st_mode) == 0o644, done.stderr[-3000:]


def test_a_symlink_member_is_never_extracted(collected):
    done, instructor = collected
    extracted = instructor / "downloaded" / ASSIGNMENT / "extracted"
    assert not any(p.is_symlink() for p in extracted.rglob("*"))
    assert not list(extracted.rglob("linklee_*")) and "56789" not in _filed(instructor)
    _line(done, "linklee_56789", "symbolic link")


def test_a_nested_archive_files_nobody_under_an_id_spelt_inside_it(collected):
    done, instructor = collected
    assert "78901" not in _filed(instructor) and "67890" not in _filed(instructor)
    _line(done, "evemallory_67890", "archive inside")


def test_nothing_is_written_outside_the_instructors_folders(collected):
    done, instructor = collected
    outside = [p for p in instructor.parent.rglob("*")
               if p.is_file() and instructor not in p.parents]
    assert outside == [], outside
    assert not Path(f"/rooted_89013_1_{NOTEBOOK}").exists()
    _line(done, "climber_89012", "..")
    _line(done, "rooted_89013", "absolute")


def test_uploads_that_cannot_be_ordered_cost_their_owner_only(collected):
    done, instructor = collected
    assert "90123" not in _filed(instructor)
    _line(done, "90123", "no way to tell")


def test_an_id_that_is_not_plain_is_refused_with_its_reason(collected):
    done, instructor = collected
    assert FULLWIDTH_ID not in _filed(instructor)
    _line(done, FULLWIDTH_ID, "normal form")


def test_a_refused_newest_upload_refuses_that_students_file(collected):
    done, instructor = collected
    assert "11223" not in _filed(instructor)
    _line(done, "11223", "newest upload", "refused")


# The limits, in-process: each zip is small, and so is each limit.

def _prepared(tmp_path: Path, zip_bytes: bytes, **limits):
    """An extractor with ``limits``, and (archive folder, extracted folder) holding one zip."""
    from grader.collect._zip_extract import SafeZipExtractor

    archive, extracted = tmp_path / "archive", tmp_path / "extracted"
    archive.mkdir()
    extracted.mkdir()
    (archive / "lms.zip").write_bytes(zip_bytes)
    return SafeZipExtractor(**limits), str(archive), str(extracted)


def _zipped(members) -> bytes:
    buffer = io.BytesIO()
    _write_zip(buffer, members)
    return buffer.getvalue()


def _extract(tmp_path: Path, members, **limits):
    """Extract ``members`` with ``limits``: ({name: why refused, or None}, extracted folder)."""
    extractor, archive, extracted = _prepared(tmp_path, _zipped(members), **limits)
    extractor.extract(archive, extracted)
    return {m.name: m.refused for m in extractor.members}, Path(extracted)


def test_each_limit_refuses_the_member_that_passes_it(tmp_path):
    noise = os.urandom(24 * 1024)  # incompressible: its ratio is about 1
    refused, extracted = _extract(tmp_path, [
        _member("a_1_1_fits.ipynb", noise[:8192]),
        _member("b_2_1_large.ipynb", noise),
        _member("c_3_1_zeros.ipynb", bytes(10 * 1024)),  # deflated to tens of bytes
        _member("d_4_1_fits.ipynb", noise[:8192]),
        _member("e_5_1_over_total.ipynb", noise[:8192]),  # 16 KiB written: 6 KiB left
    ], max_member_bytes=12 * 1024, max_ratio=50, max_total_bytes=22 * 1024)
    assert refused["a_1_1_fits.ipynb"] is None and refused["d_4_1_fits.ipynb"] is None
    assert "max_member_bytes" in refused["b_2_1_large.ipynb"]
    assert "max_ratio" in refused["c_3_1_zeros.ipynb"]
    assert "max_total_bytes" in refused["e_5_1_over_total.ipynb"]
    assert sorted(p.name for p in extracted.rglob("*.ipynb")) == [
        "a_1_1_fits.ipynb", "d_4_1_fits.ipynb"]


def test_an_archive_over_the_entry_limit_is_not_extracted(tmp_path):
    refused, extracted = _extract(tmp_path, [_member(f"s_{i}_1_x.ipynb", b"{}")
                                             for i in range(11)], max_entries=10)
    assert refused == {} and not any(extracted.rglob("*.ipynb"))


def test_a_header_that_understates_the_size_is_not_believed(tmp_path):
    honest = _zipped([_member("liar_1_1_x.ipynb", bytes(4 * MiB))])
    real, claimed = struct.pack("<I", 4 * MiB), struct.pack("<I", 100)
    assert honest.count(real) == 2  # the local header's size and the central directory's
    extractor, archive, extracted = _prepared(tmp_path, honest.replace(real, claimed))
    extractor.extract(archive, extracted)
    assert [m.refused is not None for m in extractor.members] == [True], extractor.members
    assert not any(Path(extracted).rglob("*.ipynb"))


def test_a_bomb_is_never_held_whole_in_memory(tmp_path):
    extractor, archive, extracted = _prepared(
        tmp_path, _zipped([_member("bomb_1_1_x.ipynb", bytes(BOMB))]))
    tracemalloc.start()
    try:
        extractor.extract(archive, extracted)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert extractor.members[0].refused, extractor.members
    assert peak < BOMB // 8, f"{peak / MiB:.0f} MiB held while extracting"


def test_an_id_spelt_deeper_in_a_folder_a_student_named_is_never_filed():
    import re

    from grader.collect._zip_names import LAYOUTS

    # Moodle keeps the folders of an upload: Eve's folder holds one named for Vic
    nested = (f"Eve Mallory_345678_assignsubmission_file_/"
              f"Vic_456789_assignsubmission_file_/{NOTEBOOK}")
    assert re.fullmatch(LAYOUTS["moodle"], nested) is None
