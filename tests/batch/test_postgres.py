"""The gradebook on PostgreSQL, with concurrent writers.

A real local PostgreSQL server (Debian's package; ``.ci/run`` installs it) is
started in a temporary folder. Two grading runs of different assignments
write to its gradebook at the same time, each judging on its own local Dask
cluster; their grades must equal the serial SQLite run's.
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from support import ASSIGNMENTS, ROOT
from support.batch import ASSIGNMENT, outcome, write_submissions

from grader.batch import _gradebook

SECOND = ASSIGNMENTS[1]


def _postgres_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


def _as_server_user(cmd: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root; Debian's package brings a postgres user.
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


# The server listens on no TCP port at all (listen_addresses=''): only on a Unix
# socket in its own fresh folder, which the port merely names (.s.PGSQL.<port>).
# Any number will do, and no other server can take it: nothing to race for.
PORT = 5432


@pytest.fixture(scope="module")
def postgres_url():
    binaries = _postgres_bin()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    folder = tempfile.mkdtemp(prefix="tensor-anatomy-pg-")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, port = os.path.join(folder, "data"), PORT
    run = lambda *cmd: subprocess.run(_as_server_user(list(cmd)), check=True,  # noqa: E731
                                      capture_output=True, text=True)
    run(f"{binaries}/initdb", "-D", data, "--auth=trust", "-U", "postgres")
    run(f"{binaries}/pg_ctl", "-D", data, "-w", "-l", os.path.join(folder, "server.log"),
        "-o", f"-p {port} -k {folder} -c listen_addresses=''", "start")
    try:
        run(f"{binaries}/createdb", "-h", folder, "-p", str(port), "-U", "postgres", "gradebook")
        yield f"postgresql+psycopg://postgres@/gradebook?host={folder}&port={port}"
    finally:
        run(f"{binaries}/pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_two_concurrent_graders_on_postgres_give_the_serial_grades(postgres_url, tmp_path,
                                                                    serial_reference):
    reference, _ = serial_reference
    instructor = tmp_path / "instructor"
    write_submissions(instructor)
    write_submissions(instructor, SECOND)
    env = {**os.environ, "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor),
           "TENSOR_ANATOMY_DB_URL": postgres_url}
    runs = [subprocess.Popen([sys.executable, "-m", "grader.cli", "grade", assignment],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
            for assignment in (ASSIGNMENT, SECOND)]
    logs = [run.communicate(timeout=1200)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], "\n".join(log[-2000:] for log in logs)
    assert outcome(instructor, postgres_url)["scores"] == reference["scores"]
    second = _gradebook.scores(postgres_url, SECOND)
    assert second["complete"]["total"] == second["complete"]["max"] > 0
    assert second["blank"]["total"] == 0
    assert 0 < second["partial"]["total"] < second["partial"]["max"]
