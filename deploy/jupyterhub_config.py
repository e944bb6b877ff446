"""JupyterHub for Tensor Anatomy on one server: every student and instructor an OS user.

Run as root from a folder of the hub's own (it keeps ``jupyterhub.sqlite`` and its
cookie secret there), with the course's venv:

    cd /srv/tensor-anatomy-hub && /path/to/checkout/.venv/bin/python -m jupyterhub \\
        -f /path/to/checkout/deploy/jupyterhub_config.py

Each user gets a single-user JupyterLab started as that OS user (JupyterHub's
``LocalProcessSpawner``) behind ``configurable-http-proxy``:

- an instructor (the hub group ``instructors``) works in the course checkout with
  nbgrader's instructor tools: Formgrader, Create Assignment, Course List;
- a student works in ``~/tensor-anatomy-student``, their own clone of the student
  edition (cloned at their first login, as them, from ``$TENSOR_ANATOMY_EDITION``),
  with the student-side tools only: the Assignment List (fetch, submit, fetch
  feedback) and Validate. Formgrader, Course List and Create Assignment are turned
  off for them in JupyterLab and on their server (``deploy/student/``).

What the real boundary is: file permissions. A student cannot read the instructor's
folder or another student's home; the exchange is the one folder they all write to.

Set in the hub's environment (all optional but the first two):

- ``TENSOR_ANATOMY_HUB_STUDENTS``, ``TENSOR_ANATOMY_HUB_INSTRUCTORS``: who may log in,
  comma-separated OS user names;
- ``TENSOR_ANATOMY_EDITION``: the student edition built by ``make student-edition``
  (a git repository students can read), which each student's folder is cloned from;
- ``TENSOR_ANATOMY_EXCHANGE``, ``TENSOR_ANATOMY_COURSE_ID``,
  ``TENSOR_ANATOMY_INSTRUCTOR_DIR``, ``TENSOR_ANATOMY_DB_URL``: handed to instructors'
  servers (the student edition has the exchange and course id baked in when built);
- ``TENSOR_ANATOMY_COURSE_ROOT``: the instructors' checkout (default: this one).

Logging in is PAM (the users' system passwords), JupyterHub's default; see
``deploy/README.md`` for OAuth or JupyterHub's own user database instead.
``tests/test_hub_browser.py`` loads this file and only swaps the authenticator for
one with a test password, the ports for free ones and the users' homes.
"""

import asyncio
import os
import pwd
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
COURSE_ROOT = Path(os.environ.get("TENSOR_ANATOMY_COURSE_ROOT", CHECKOUT)).resolve()
EDITION = os.environ.get("TENSOR_ANATOMY_EDITION", "")
STUDENT_FOLDER = "tensor-anatomy-student"  # in each student's home
KERNEL_METADATA_CONTENTS = "grader.lab.KernelMetadataContents"
INSTRUCTOR_GROUP = "instructors"
# What an instructor's server needs of the hub's environment to find the course's state.
FOR_INSTRUCTORS = ("TENSOR_ANATOMY_EXCHANGE", "TENSOR_ANATOMY_COURSE_ID",
                   "TENSOR_ANATOMY_INSTRUCTOR_DIR", "TENSOR_ANATOMY_DB_URL")


def _names(variable: str) -> list[str]:
    return sorted({n.strip() for n in os.environ.get(variable, "").split(",") if n.strip()})


STUDENTS = _names("TENSOR_ANATOMY_HUB_STUDENTS")
INSTRUCTORS = _names("TENSOR_ANATOMY_HUB_INSTRUCTORS")

# Who may log in, and who teaches (a hub group: an admin can add to it from the admin page).
c.Authenticator.allowed_users = set(STUDENTS) | set(INSTRUCTORS)
c.JupyterHub.load_groups = {INSTRUCTOR_GROUP: {"users": INSTRUCTORS}}

# The public address (put TLS in front, or set ssl_cert/ssl_key); the hub's API and the
# proxy's REST API stay on localhost (JupyterHub's defaults: 8081 and 8001).
c.JupyterHub.bind_url = "http://:8000"

# configurable-http-proxy from the npm registry: `npm install --prefix .hub-proxy
# configurable-http-proxy@5.3.0` in the checkout, or a global install on PATH.
_LOCAL_PROXY = CHECKOUT / ".hub-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
if _LOCAL_PROXY.exists():
    c.ConfigurableHTTPProxy.command = [str(_LOCAL_PROXY)]

# Each user's JupyterLab, as that user, with the course's interpreter (not whatever
# `jupyterhub-singleuser` is first on PATH).
c.JupyterHub.spawner_class = "localprocess"
SINGLE_USER = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.cmd = SINGLE_USER
c.Spawner.default_url = "/lab"
c.Spawner.http_timeout = 90  # a first JupyterLab start on a busy server is slow
c.Spawner.start_timeout = 120


def _is_instructor(spawner) -> bool:
    return any(group.name == INSTRUCTOR_GROUP for group in spawner.user.groups)


async def _clone_edition(user: pwd.struct_passwd, folder: Path) -> None:
    """The student's own clone of the student edition, made as the student."""
    clone = await asyncio.create_subprocess_exec(
        "git", "clone", "--quiet", "--no-hardlinks", EDITION, str(folder),
        cwd=user.pw_dir, user=user.pw_uid, group=user.pw_gid, extra_groups=[],
        # The edition is the instructor's: git reads it only with safe.directory set.
        env={"HOME": user.pw_dir, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
             "GIT_CONFIG_GLOBAL": str(HERE / "clone.gitconfig")},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    said, _ = await clone.communicate()
    if clone.returncode != 0:
        raise RuntimeError(f"cloning the student edition for {user.pw_name} failed: "
                           f"{said.decode(errors='replace').strip()}")


def _started_in(folder: Path) -> list[str]:
    """The server's command, run from ``folder``: nbgrader's Assignment List fetches into,
    and reads nbgrader_config.py from, the server's current folder (``Exchange.assignment_dir``
    is "."), and LocalProcessSpawner starts every server in the user's home."""
    return ["/bin/sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", str(folder), *SINGLE_USER]


async def _by_role(spawner) -> None:
    """Where each user's server runs and which nbgrader tools it shows."""
    environment = dict(spawner.environment)
    if _is_instructor(spawner):
        folder = COURSE_ROOT
        environment.update({k: os.environ[k] for k in FOR_INSTRUCTORS if k in os.environ})
    else:
        user = pwd.getpwnam(spawner.user.name)
        folder = Path(user.pw_dir) / STUDENT_FOLDER
        if not folder.exists() and EDITION:
            await _clone_edition(user, folder)
        if not folder.is_dir():
            folder = Path(user.pw_dir)
        # Formgrader, Course List and Create Assignment off (deploy/student/).
        environment["JUPYTER_CONFIG_PATH"] = str(HERE / "student")
    spawner.notebook_dir = str(folder)
    spawner.cmd = _started_in(folder)
    if (folder / "grader" / "lab").is_dir():  # importable from the server's folder
        # Opening a notebook does not mark it modified (grader/lab).
        spawner.cmd.append(f"--ServerApp.contents_manager_class={KERNEL_METADATA_CONTENTS}")
    spawner.environment = environment


c.Spawner.pre_spawn_hook = _by_role
