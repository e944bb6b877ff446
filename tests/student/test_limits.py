"""Limits the trusted side enforces, whatever the student's process does.

Memory: a student may reserve address space as CUDA does and is still stopped
when it makes more than the limit writable. Output: bounded by the judge, per
cell and per notebook. Replies: refused before they cost the judge memory.
Time: a wall-clock budget per notebook. And no silent weakening: grading
stops where the sandbox cannot be built, unless the instructor accepts it.
"""

import json
import struct
import time
import tracemalloc

import pytest
import torch
from support import ROOT

from grader import cli
from grader._errors import StudentCrashed, StudentTimeout
from grader._wire import (
    CELL_OUTPUT_LIMIT,
    MAX_FRAME_BYTES,
    NOTEBOOK_OUTPUT_LIMIT,
    WireError,
    receive,
)
from grader.judge._remote import RemoteStudent, configured_student
from grader.student import _sandbox

RESERVE_LIKE_CUDA = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t] + [ctypes.c_int] * 3 + [ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
GiB, NONE, READ_WRITE, PRIVATE_ANONYMOUS_NORESERVE = 1 << 30, 0, 3, 0x22 | 0x4000
base = libc.mmap(None, 64 * GiB, NONE, PRIVATE_ANONYMOUS_NORESERVE, -1, 0)
print('reserved 64 GiB:', base not in (None, 2**64 - 1))
print('1 GiB made writable:', libc.mprotect(base, GiB, READ_WRITE) == 0)
ctypes.memset(base, 1, GiB)
print('1 GiB touched')
print('8 GiB made writable:', libc.mprotect(base, 8 * GiB, READ_WRITE) == 0)
"""


def _report(cells: list[str], **options) -> dict:
    student = RemoteStudent(cells, cell_timeout=30.0, **options)
    try:
        student.start()
        return student.cell_reports()
    finally:
        student.close()


def test_address_space_may_be_reserved_as_cuda_does_but_memory_is_still_limited():
    report = _report([RESERVE_LIKE_CUDA])[0]
    assert report["stdout"].splitlines() == [
        "reserved 64 GiB: True", "1 GiB made writable: True", "1 GiB touched",
        "8 GiB made writable: False"], report


def test_output_is_bounded_by_the_judge_not_by_the_students_process():
    unbounded = "import grader._wire as w\nw.CELL_OUTPUT_LIMIT = 10**9\n"
    reports = _report([unbounded + "print('x' * 3_000_000)",
                       unbounded + "raise ValueError('y' * 3_000_000)",
                       unbounded + "'z' * 3_000_000"] + ["print('w' * 9_999)"] * 15)
    lengths = [len(json.dumps(report)) for report in reports.values()]
    assert max(lengths) < CELL_OUTPUT_LIMIT + 100
    assert sum(lengths) < NOTEBOOK_OUTPUT_LIMIT + 100 * len(reports)
    assert "output cut" in reports[0]["stdout"] and "output cut" in reports[17]["stdout"]


@pytest.mark.parametrize("body", [b"[" * 24_000_000, b"[1," * 2_000_000 + b"1"])
def test_a_forged_reply_is_refused_before_it_is_decoded(body):
    frame = struct.pack(">I", len(body)) + body
    tracemalloc.start()
    try:
        with pytest.raises(WireError):
            receive(_reader(frame))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * len(body) + 2**20  # the frame and a copy: no object per item


def test_a_reply_nested_too_deeply_is_refused():
    body = b"[" * 200_000 + b"]" * 200_000
    with pytest.raises(WireError):
        receive(_reader(struct.pack(">I", len(body)) + body))


def test_a_frame_over_the_bound_is_refused_unread():
    with pytest.raises(WireError):
        receive(_reader(struct.pack(">I", MAX_FRAME_BYTES + 1)))


def _reader(data: bytes):
    position = 0

    def read_exactly(n: int) -> bytes:
        nonlocal position
        chunk = data[position:position + n]
        position += n
        if len(chunk) < n:
            raise EOFError
        return chunk

    return read_exactly


def test_a_slow_notebook_stops_at_its_budget_and_says_so():
    slow = "import time\ndef double(x):\n    time.sleep(1.5)\n    return x * 2"
    student = RemoteStudent([slow], call_timeout=10.0, notebook_timeout=6.0)
    started, answers = time.monotonic(), 0
    try:
        with pytest.raises(StudentTimeout, match="used up its 6 s"):
            for _ in range(100):
                student.double(torch.ones(2))
                answers += 1
        with pytest.raises(StudentTimeout, match="used up its 6 s"):
            student.double(torch.ones(2))  # and fast from then on
    finally:
        student.close()
    assert 2 <= answers <= 4
    assert time.monotonic() - started < 12


def test_grading_stops_where_the_sandbox_cannot_be_built(monkeypatch, capsys):
    monkeypatch.setenv(_sandbox.UNCONFINED_VARIABLE, "")  # restored (unset) at teardown
    monkeypatch.setattr(_sandbox, "support", lambda: "user namespaces refused (test)")
    assert cli._sandbox_ready(allow_unconfined=False) is False
    assert "cannot grade safely: user namespaces refused (test)" in capsys.readouterr().err
    assert cli._sandbox_ready(allow_unconfined=True) is True
    assert "WARNING: grading without the sandbox" in capsys.readouterr().err
    monkeypatch.setenv(_sandbox.UNCONFINED_VARIABLE, "")
    with pytest.raises(RuntimeError, match="cannot grade safely"):
        _sandbox.require()


def test_this_machine_can_build_the_sandbox():
    """CI and graders must not quietly fall back: the namespaces work here."""
    assert _sandbox.support() == ""


def test_without_libseccomp_no_flag_grades(monkeypatch):
    from grader.student import _syscalls

    monkeypatch.setattr(_syscalls, "MISSING", "libseccomp is missing (test)")
    assert _sandbox.support.__wrapped__() == "libseccomp is missing (test)"
    monkeypatch.setattr(_sandbox, "support", _sandbox.support.__wrapped__)
    monkeypatch.setenv(_sandbox.UNCONFINED_VARIABLE, "1")
    with pytest.raises(RuntimeError, match="libseccomp is missing"):
        _sandbox.require()


# --- the process limits, each seen from inside the student's process ------------------

WRITE_PAST = """
import errno, os
def write(path, mib):
    try:
        with open(path, 'wb') as f:
            for _ in range(mib):
                f.write(b'x' * 2**20)
                f.flush()
    except OSError as exc:
        return errno.errorcode[exc.errno]
    return 'wrote'
print('one file of 17 MiB:', write('big', 17), os.path.getsize('big') // 2**20, 'MiB kept')
os.remove('big')
print('files of 15 MiB:', [write(f'part{i}', 15) for i in range(6)])
"""
OPEN_FILES = """
import os
opened = []
try:
    while len(opened) < 10_000:
        opened.append(os.open('/dev/null', os.O_RDONLY))
except OSError as exc:
    print('refused after', len(opened), exc.strerror)
"""
BURN_CPU = "while True:\n    pass"


def test_a_file_stops_at_16_mib_and_the_folder_at_64_mib():
    lines = _report([WRITE_PAST])[0]["stdout"].splitlines()
    assert lines[0] == "one file of 17 MiB: EFBIG 16 MiB kept"
    # 15 MiB each: four fit in the 64 MiB tmpfs, the fifth finds no room.
    assert lines[1] == ("files of 15 MiB: ['wrote', 'wrote', 'wrote', 'wrote', 'ENOSPC', "
                        "'ENOSPC']")


def test_open_files_stop_at_the_limit():
    said = _report([OPEN_FILES])[0]["stdout"].split()
    assert said[0] == "refused" and int(said[2]) < _sandbox.DEFAULT_LIMITS.open_files
    assert " ".join(said[3:]) == "Too many open files"


def test_cpu_time_is_limited_even_while_wall_time_is_not():
    limits = _sandbox.Limits(cpu_seconds=2)
    started = time.monotonic()
    report = _report([BURN_CPU, "print('next cell')"], limits=limits)
    assert "stopped the process running it" in report[0]["skipped"]  # killed by SIGXCPU
    assert time.monotonic() - started < 25  # long before the 30 s cell timeout
    assert report[1]["stdout"] == "next cell\n"  # a fresh process runs the rest
    assert _sandbox.DEFAULT_LIMITS.cpu_seconds == 300


def test_the_default_time_limits_are_the_documented_ones(monkeypatch):
    for name in ("CALL", "CELL", "NOTEBOOK"):
        monkeypatch.delenv(f"TENSOR_ANATOMY_{name}_TIMEOUT", raising=False)
    student = configured_student([])
    assert (student._call_timeout, student._cell_timeout, student._notebook_timeout) == \
        (10.0, 60.0, 300.0)


def test_a_process_killed_by_its_calls_is_restarted_three_times_then_no_more():
    dies = "import os\ndef die(x):\n    os._exit(1)\ndef fine(x):\n    return x"
    student = RemoteStudent([dies], call_timeout=30.0)
    try:
        outcomes = []
        for _ in range(6):
            try:
                student.die(torch.zeros(1))
            except StudentCrashed as exc:
                outcomes.append("too often" if "too often" in str(exc) else "crashed")
        assert outcomes == ["crashed"] * 4 + ["too often"] * 2  # the first run, 3 restarts
        with pytest.raises(StudentCrashed, match="too often"):
            student.fine(torch.zeros(1))
    finally:
        student.close()


CONFINEMENT = """
import os
status = dict(line.split(':', 1) for line in open('/proc/self/status').read().splitlines())
print('processes', sorted(p for p in os.listdir('/proc') if p.isdigit()))
print('seccomp', status['Seccomp'].strip(), 'no_new_privs', status['NoNewPrivs'].strip(),
      'capabilities', status['CapEff'].strip())
print('visible', [os.path.exists(os.path.join(COURSE, p)) for p in
                  ('solutions', 'grader/hidden', 'grader/checks', 'grader/givens')])
"""


def test_the_students_process_is_confined():
    """Read from inside, and only read: safe to run even against a broken sandbox."""
    cell = f"COURSE = {str(ROOT)!r}" + CONFINEMENT
    lines = _report([cell])[0]["stdout"].splitlines()
    assert lines[0] == "processes ['1']"  # alone in its PID namespace
    assert lines[1] == "seccomp 2 no_new_privs 1 capabilities 0000000000000000"
    assert lines[2] == "visible [False, False, False, True]"
