"""Two grading commands on one instructor folder: the second waits for the first, and says so."""

import fcntl
import subprocess
import sys
import time

WAITER = """
import sys, time
from pathlib import Path
from grader.batch._run import one_grader_at_a_time
with one_grader_at_a_time(Path(sys.argv[1])):
    print(f"got the lock at {time.time()}", flush=True)
"""


def test_a_second_grading_command_waits_for_the_first_and_says_so(tmp_path):
    with open(tmp_path / ".grading.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        waiter = subprocess.Popen([sys.executable, "-c", WAITER, str(tmp_path)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Read its first line of stderr rather than sleeping a fixed time: on a loaded
        # CI machine importing the grader took over 3 s, so the lock was free again
        # before the waiter ever tried it (the CI failure of stop 35).
        said = waiter.stderr.readline()
        time.sleep(0.5)
        assert waiter.poll() is None  # still waiting, after saying so
        released = time.time()
    out, err = waiter.communicate(timeout=60)
    assert "another grading command is grading" in said, said + err
    assert float(out.split()[-1]) >= released
