"""What CUDA needs is allowed in the student's process; its memory is bounded whatever kind.

CUDA starts only where a process may map shared anonymous memory and name its
threads through ``/proc/self/task/<tid>/comm`` (opened with ``O_TRUNC``): both
are tried here, on the CPU, as CUDA makes them. Memory: a student who touches
6 GiB loses the cell (or the call) that did it, with a verdict that names the
memory limit, and nothing else: the next cells run, the functions answer, and
the next student has the whole limit. Each kind is tried alone (6 GiB at a time):
private memory is refused when it is mapped (``RLIMIT_DATA``), memfd by the
syscall filter, and the kinds no rlimit counts are stopped by the judge's watch.
"""

import pytest
import torch

from grader.judge._remote import MemoryLimitExceeded, RemoteStudent

# A student's process here touches up to its 4 GiB limit: two at once could exhaust a
# small CI machine, so make test runs this file by itself (marker "alone").
pytestmark = pytest.mark.alone

DEFINITIONS = """
import ctypes, mmap, os, threading, torch
SIZE = 6 * 2**30
def touch(buffer):
    torch.frombuffer(buffer, dtype=torch.uint8)[::4096].fill_(1)  # one byte a page
    print('touched 6 GiB')
def grows_down(size):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t] + [ctypes.c_int] * 3 + [ctypes.c_long]
    address = libc.mmap(None, size, 3, 0x02 | 0x20 | 0x0100, -1, 0)  # PRIVATE|ANON|GROWSDOWN
    if address in (None, 2**64 - 1):
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return (ctypes.c_char * size).from_address(address)
def hog():
    touch(mmap.mmap(-1, SIZE, flags=mmap.MAP_SHARED))
def double(x):
    return x * 2
"""
KINDS = {
    "shared anonymous": "touch(mmap.mmap(-1, SIZE, flags=mmap.MAP_SHARED))",
    "shared /dev/zero": "touch(mmap.mmap(os.open('/dev/zero', os.O_RDWR), SIZE, "
                        "flags=mmap.MAP_SHARED))",
    "private, grows down": "touch(grows_down(SIZE))",
}
STOPPED = ("this cell went over the 4 GiB memory limit and stopped the process running it, "
           "so it was skipped")
CUDA_NEEDS = """
import mmap, os, threading
shared = mmap.mmap(-1, 2**20, flags=mmap.MAP_SHARED)
shared[:5] = b'cuda!'
print('shared anonymous mapping:', shared[:5].decode())
def name_myself(said):
    tid = threading.get_native_id()
    fd = os.open(f'/proc/self/task/{tid}/comm', os.O_WRONLY | os.O_TRUNC)
    os.write(fd, b'cuda-worker')
    os.close(fd)
    said.append(open(f'/proc/self/task/{tid}/comm').read().strip())
said = []
thread = threading.Thread(target=name_myself, args=(said,))
thread.start()
thread.join()
print('a new thread named itself:', said)
"""


def _reports(cells: list[str]) -> dict:
    student = RemoteStudent(cells, cell_timeout=60.0)
    try:
        student.start()
        return student.cell_reports()
    finally:
        student.close()


def test_what_cuda_needs_is_allowed_in_the_students_process():
    report = _reports([CUDA_NEEDS])[0]
    assert "error" not in report, report
    assert report["stdout"].splitlines() == [
        "shared anonymous mapping: cuda!", "a new thread named itself: ['cuda-worker']"]


def test_the_process_may_write_its_threads_names_and_nothing_else_of_proc():
    cell = ("import os\nfor path in ('/proc/self/comm', '/proc/self/oom_score_adj'):\n"
            "    try:\n        open(path, 'w').close()\n        print(path, 'written')\n"
            "    except OSError as exc:\n        print(path, exc.strerror)")
    assert _reports([cell])[0]["stdout"].splitlines() == [
        "/proc/self/comm Permission denied", "/proc/self/oom_score_adj Permission denied"]


@pytest.mark.parametrize("kind", KINDS)
def test_6_gib_of_memory_no_rlimit_counts_costs_only_its_cell(kind):
    reports = _reports([DEFINITIONS, KINDS[kind], "print('next cell')", "double(21)"])
    assert reports[1] == {"skipped": STOPPED}, reports[1]
    assert reports[2]["stdout"] == "next cell\n"
    assert reports[3]["result"] == "42"


@pytest.mark.parametrize(("kind", "refusal"), [
    ("touch(mmap.mmap(-1, SIZE, flags=mmap.MAP_PRIVATE))", "Cannot allocate memory"),
    ("os.memfd_create('hog')", "Operation not permitted"),
])
def test_private_memory_and_memfd_are_refused_when_asked_for(kind, refusal):
    reports = _reports([DEFINITIONS, kind, "print('next cell')"])
    assert refusal in reports[1]["error"][1], reports[1]
    assert reports[2]["stdout"] == "next cell\n"


def test_a_call_over_the_limit_fails_saying_so_and_the_next_student_has_the_whole_limit():
    student = RemoteStudent([DEFINITIONS], call_timeout=60.0)
    try:
        with pytest.raises(MemoryLimitExceeded) as stopped:
            student.hog()
        assert student.double(torch.ones(2)).tolist() == [2.0, 2.0]
    finally:
        student.close()
    assert str(stopped.value) == \
        "your code went over its 4 GiB memory limit, so its process was stopped"
    # 3.5 GiB more than the zygote holds, on every build (the limit is counted above it).
    fits = "import torch\nbig = torch.empty(7 * 2**28, dtype=torch.uint8).fill_(1)\nprint('fits')"
    assert _reports([fits])[0] == {"stdout": "fits\n"}
