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

Several courses on one hub (the English and the Chinese class, say): set instead
``TENSOR_ANATOMY_HUB_COURSES`` to a course list, a TOML or JSON file, one entry per course
(``COURSE_KEYS``: its id, language, edition, exchange, instructor folder, database,
instructors and students). Each instructor's server is their course's Formgrader: it runs
with that course's settings, as in the one-course form. A student's server lists every
course they are enrolled in (the hub group ``nbgrader-<id>``, which nbgrader's
``JupyterHubAuthPlugin`` asks the hub for) and clones each course's edition into
``~/tensor-anatomy-student/<id>/``, where nbgrader fetches that course's assignments
(``Exchange.path_includes_course``, ``deploy/student_courses/``). ``deploy/README.md``,
"Two classes on one hub", says why this design and how to set it up.

Logging in is PAM (the users' system passwords), JupyterHub's default; see
``deploy/README.md`` for OAuth or JupyterHub's own user database instead.
``tests/hub/test_hub_browser.py`` loads this file and only swaps the authenticator for
one with a test password, the ports for free ones and the users' homes.
"""

import asyncio
import json
import os
import pwd
import re
import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

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


# --- several courses on one hub (TENSOR_ANATOMY_HUB_COURSES) ---------------------------

COURSES_VARIABLE = "TENSOR_ANATOMY_HUB_COURSES"
COURSE_KEYS = {  # a course list entry's keys; those with None must be given
    "id": None,  # the course id: the exchange's folder, nbgrader's course_id
    "language": "en",  # the language of its edition (`make student-edition LANGUAGE=...`)
    "edition": "",  # its student edition, cloned to ~/tensor-anatomy-student/<id>/
    "exchange": None,  # nbgrader's exchange root (the list's top-level `exchange` if unset)
    "instructor_dir": None,  # its gradebook, submissions and feedback: its instructors' alone
    "db_url": "",  # default: SQLite in instructor_dir
    "root": "",  # the checkout its instructors work in (default: TENSOR_ANATOMY_COURSE_ROOT)
    "instructors": [],  # hub and OS user names
    "students": [],
}
STUDENT_COURSES_CONFIG = HERE / "student_courses"  # nbgrader's settings for their servers
_COURSE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class HubCourse(NamedTuple):
    id: str
    language: str
    edition: str
    exchange: str
    instructor_dir: str
    db_url: str
    root: Path
    instructors: tuple[str, ...]
    students: tuple[str, ...]


def _course(entry: dict, default_exchange: str) -> HubCourse:
    unknown = sorted(set(entry) - set(COURSE_KEYS))
    values = {**COURSE_KEYS, "exchange": default_exchange or None, **entry}
    missing = sorted(key for key, value in values.items() if value is None)
    if unknown or missing:
        raise ValueError(f"{COURSES_VARIABLE}: course {entry.get('id', '?')!r}: "
                         + (f"unknown keys {unknown}" if unknown else f"missing {missing}"))
    if not isinstance(values["id"], str) or not _COURSE_ID.fullmatch(values["id"]):
        raise ValueError(f"{COURSES_VARIABLE}: course id {values['id']!r}: letters, digits, "
                         "'.', '_' and '-' only (it names a folder and a hub group)")
    if any(not isinstance(values[key], list) or not all(isinstance(n, str) for n in values[key])
           for key in ("instructors", "students")):
        raise ValueError(f"{COURSES_VARIABLE}: course {values['id']!r}: instructors and "
                         "students are lists of user names")
    people = {key: tuple(sorted(set(values[key]))) for key in ("instructors", "students")}
    return HubCourse(**{**values, **people, "root": Path(values["root"] or COURSE_ROOT).resolve()})


def read_courses(path: Path) -> list[HubCourse]:
    """The course list at ``path`` (TOML, or JSON for a ``.json`` file): ``exchange`` (the
    default for each course) and ``courses``, a list of entries with ``COURSE_KEYS``.
    Refused: a course id twice, an instructor of two courses (their server is one course's
    Formgrader), an instructor who is a student, a student of courses in two exchanges."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    courses = [_course(entry, data.get("exchange", os.environ.get("TENSOR_ANATOMY_EXCHANGE", "")))
               for entry in data.get("courses", [])]
    ids = [course.id for course in courses]
    teachers = [name for course in courses for name in course.instructors]
    learners = {name for course in courses for name in course.students}
    problems = [f"course {i!r} is listed twice" for i in sorted(set(ids)) if ids.count(i) > 1]
    problems += [f"{name} teaches two courses: one server is one course's Formgrader"
                 for name in sorted(set(teachers)) if teachers.count(name) > 1]
    problems += [f"{name} is an instructor and a student"
                 for name in sorted(learners & set(teachers))]
    problems += [f"{name}'s courses are in different exchanges: one Assignment List reads one"
                 for name in sorted(learners)
                 if len({c.exchange for c in courses if name in c.students}) > 1]
    if not courses or problems:
        raise ValueError(f"{COURSES_VARIABLE}={path}: " + ("; ".join(problems) or "no course"))
    return courses


COURSES = read_courses(Path(os.environ[COURSES_VARIABLE])) if os.environ.get(COURSES_VARIABLE) \
    else []
if COURSES and (os.environ.get("TENSOR_ANATOMY_HUB_STUDENTS")
                or os.environ.get("TENSOR_ANATOMY_HUB_INSTRUCTORS")):
    raise ValueError(f"{COURSES_VARIABLE} names who is who: unset TENSOR_ANATOMY_HUB_STUDENTS "
                     "and TENSOR_ANATOMY_HUB_INSTRUCTORS")
TEACHES = {name: course for course in COURSES for name in course.instructors}

if COURSES:
    STUDENTS = sorted({name for course in COURSES for name in course.students})
    INSTRUCTORS = sorted(TEACHES)
else:
    STUDENTS = _names("TENSOR_ANATOMY_HUB_STUDENTS")
    INSTRUCTORS = _names("TENSOR_ANATOMY_HUB_INSTRUCTORS")

# Who may log in, and who teaches (a hub group: an admin can add to it from the admin page).
c.Authenticator.allowed_users = set(STUDENTS) | set(INSTRUCTORS)
c.JupyterHub.load_groups = {INSTRUCTOR_GROUP: {"users": INSTRUCTORS}}
# Several courses: nbgrader's groups, read by JupyterHubAuthPlugin (a student's courses).
for _each in COURSES:
    c.JupyterHub.load_groups[f"nbgrader-{_each.id}"] = {"users": list(_each.students)}
    c.JupyterHub.load_groups[f"formgrade-{_each.id}"] = {"users": list(_each.instructors)}
if COURSES:
    # A server may read its own user's groups (JupyterHub's `server` role, plus that).
    c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server",
                                     "read:users:groups!user"]

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


async def _clone_edition(user: pwd.struct_passwd, folder: Path, edition: str = EDITION) -> None:
    """The student's own clone of the student edition, made as the student."""
    clone = await asyncio.create_subprocess_exec(
        "git", "clone", "--quiet", "--no-hardlinks", edition, str(folder),
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


def _course_settings(course: HubCourse) -> dict[str, str]:
    """An instructor's server environment: their course's, as FOR_INSTRUCTORS in one course."""
    settings = {"TENSOR_ANATOMY_EXCHANGE": course.exchange, "TENSOR_ANATOMY_COURSE_ID": course.id,
                "TENSOR_ANATOMY_INSTRUCTOR_DIR": course.instructor_dir,
                "TENSOR_ANATOMY_LANG": course.language}
    return settings | ({"TENSOR_ANATOMY_DB_URL": course.db_url} if course.db_url else {})


async def _student_of_courses(user: pwd.struct_passwd, environment: dict) -> Path:
    """A student's folder when the hub serves several courses: a clone of each of their
    courses' editions in it, named by the course id, where nbgrader fetches that course's
    assignments; their courses' exchange and, where all are in one, language."""
    mine = [course for course in COURSES if user.pw_name in course.students]
    folder = Path(user.pw_dir) / STUDENT_FOLDER
    for course in mine:
        if course.edition and not (folder / course.id).exists():
            await _clone_edition(user, folder / course.id, course.edition)
    environment["JUPYTER_CONFIG_PATH"] += os.pathsep + str(STUDENT_COURSES_CONFIG)
    if mine:
        environment["TENSOR_ANATOMY_EXCHANGE"] = mine[0].exchange  # one, read_courses says
    if len({course.language for course in mine}) == 1:
        environment["TENSOR_ANATOMY_LANG"] = mine[0].language
    return folder if folder.is_dir() else Path(user.pw_dir)


async def _by_role(spawner) -> None:
    """Where each user's server runs and which nbgrader tools it shows."""
    environment = dict(spawner.environment)
    if _is_instructor(spawner) and COURSES:
        course = TEACHES.get(spawner.user.name)
        if course is None:
            raise RuntimeError(f"{spawner.user.name} is in the hub group {INSTRUCTOR_GROUP} "
                               f"but teaches no course of {os.environ[COURSES_VARIABLE]}")
        folder = course.root
        environment.update(_course_settings(course))
    elif _is_instructor(spawner):
        folder = COURSE_ROOT
        environment.update({k: os.environ[k] for k in FOR_INSTRUCTORS if k in os.environ})
    else:
        user = pwd.getpwnam(spawner.user.name)
        # Formgrader, Course List and Create Assignment off (deploy/student/).
        environment["JUPYTER_CONFIG_PATH"] = str(HERE / "student")
        if COURSES:
            folder = await _student_of_courses(user, environment)
        else:
            folder = Path(user.pw_dir) / STUDENT_FOLDER
            if not folder.exists() and EDITION:
                await _clone_edition(user, folder)
            if not folder.is_dir():
                folder = Path(user.pw_dir)
    spawner.notebook_dir = str(folder)
    spawner.cmd = _started_in(folder)
    # grader.lab is importable from the server's folder; a student of several courses has
    # their clones there, and imports it from the course's venv (installed from this checkout).
    if ((CHECKOUT if COURSES and not _is_instructor(spawner) else folder)
            / "grader" / "lab").is_dir():
        # Opening a notebook does not mark it modified (grader/lab).
        spawner.cmd.append(f"--ServerApp.contents_manager_class={KERNEL_METADATA_CONTENTS}")
    spawner.environment = environment


c.Spawner.pre_spawn_hook = _by_role
