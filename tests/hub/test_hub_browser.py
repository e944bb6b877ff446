"""The course on one server, through a real browser: JupyterHub from ``deploy/``.

The hub starts from ``deploy/jupyterhub_config.py`` (tests/hub/running.py: a test
password, free ports, configurable-http-proxy from npm) with two students, OS users
``hub-ada`` and ``hub-bob``, whose homes are in a temporary folder. Headless Chromium
(Debian's, driven by Playwright) logs each in: their JupyterLab runs in their own
clone of the student edition (cloned by the hub at first login) and shows nbgrader's
Assignment List, and neither Formgrader nor Create Assignment. Each fetches
``01_storage_strides`` in the Assignment List, the test writes their answers into the
fetched notebook as them (one complete, one half), and each submits it there. The
instructor collects, grades and releases feedback on the command line; each student
fetches their feedback in the Assignment List and opens it: it shows their own score.
Last, the instructor (``hub-teach``, in the hub's group ``instructors``) logs in: their
JupyterLab runs in the course checkout with the instructor tools, and the Formgrader
shows the assignment released, both submissions and both students' scores.

Screenshots of every step go to ``tests/artifacts/hub/`` (git-ignored), with the
hub's log. Needs root (it makes OS users); skipped, with the reason, when Chromium,
Playwright or node/npm is missing.
"""

import grp
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from escape.users import reachable_by_others
from hub.kernel import run_in_kernel
from hub.running import Hub, os_user, proxy_missing
from lab.running import CHROMIUM, chromium
from support import COURSE, ROOT, load_notebook
from support.exchange import nbgrader_command
from support.hub import (
    ASSIGNMENT,
    COURSE_ID,
    STUDENT_FOLDER,
    Room,
    assignment_list,
    kernel_tries,
    log_in,
    menu_labels,
    nbgrader_menu,
    new_page,
    quiet_lab,
    screenshot,
)

from grader import edition
from grader.batch._demo import synthetic_submission
from grader.edition import hub_modes

STUDENTS = {"hub-ada": 1.0, "hub-bob": 0.5}  # OS user → share of the answers filled in
INSTRUCTOR = "hub-teach"  # an OS user too, in the hub's group "instructors"
INSTRUCTORS_GROUP = "hub-instructors"  # the OS group deploy/README.md has root make for them
ARTIFACTS = ROOT / "tests" / "artifacts" / "hub"


pytestmark = [
    # It closes the checkout's private folders to other users while it runs (hub_modes):
    # a test in another worker running as another user would be refused them.
    pytest.mark.alone,
    pytest.mark.skipif(os.geteuid() != 0, reason="makes OS users and runs a hub: needs root"),
    pytest.mark.skipif(CHROMIUM is None,
                       reason="Debian chromium not installed (apt-get install chromium)"),
]
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright not installed (pip install -e '.[dev]')"
)


@pytest.fixture(scope="module")
def room():
    """A running hub over a released assignment; everything removed after, even on failure."""
    top = Path(tempfile.mkdtemp(prefix="tensor-anatomy-hub-"))  # not under a 0700 folder
    top.chmod(0o755)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    room = Room(top)
    hub, closed = None, []
    try:
        missing = proxy_missing()  # installs configurable-http-proxy into .hub-proxy/
        if missing:
            pytest.skip(missing)
        room.exchange.mkdir()
        room.exchange.chmod(0o1777)  # every student writes into it; sticky, as deploy/ says
        (top / "home").mkdir(mode=0o755)
        with pytest.MonkeyPatch.context() as patch, \
                reachable_by_others([Path(sys.executable).resolve(), Path(sys.prefix), ROOT]):
            for name, value in room.env.items():
                patch.setenv(name, value)
            built = top / "edition"
            edition.build(COURSE, built)  # this room's exchange baked into its config
            for user in [*STUDENTS, INSTRUCTOR]:
                os_user(user, room.home(user))
                quiet_lab(room.home(user))
            room.instructor_runs(*nbgrader_command("release_assignment", ASSIGNMENT, "--force"))
            closed += _closed_to_students(room)
            hub_env = {**room.env, "TENSOR_ANATOMY_HUB_STUDENTS": ",".join(STUDENTS),
                       "TENSOR_ANATOMY_HUB_INSTRUCTORS": INSTRUCTOR,
                       "TENSOR_ANATOMY_EDITION": str(built)}
            hub = Hub(top / "hub", hub_env, room.password, [*STUDENTS, INSTRUCTOR])
            with hub:
                room.url = hub.url
                yield room
    finally:
        for path, gid, mode in reversed(closed):  # the checkout's modes as they were
            os.chown(path, -1, gid, follow_symlinks=False)
            path.chmod(mode)
        if hub is not None and hub.log.exists():
            shutil.copy(hub.log, ARTIFACTS / "hub.log")
        shutil.rmtree(top, ignore_errors=True)


def _closed_to_students(room: Room) -> list:
    """deploy/README.md's step: the instructors' group, then the checkout closed to students."""
    try:
        grp.getgrnam(INSTRUCTORS_GROUP)
    except KeyError:
        subprocess.run(["groupadd", "--system", INSTRUCTORS_GROUP], check=True)
    subprocess.run(["usermod", "--append", "--groups", INSTRUCTORS_GROUP, INSTRUCTOR], check=True)
    return hub_modes.close_to_students(ROOT, INSTRUCTORS_GROUP, room.instructor)


@pytest.fixture(scope="module")
def browser(room):
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def pages(browser):
    """One page per student, kept from one step to the next."""
    return {user: new_page(browser) for user in STUDENTS}


def _row(listing, section: str):
    return listing.locator(f"#{section} .list_item", has_text=ASSIGNMENT).first


def test_students_log_in_to_their_own_lab_with_the_assignment_list_only(room, pages):
    for user, page in pages.items():
        log_in(page, room, user)
        # Their server runs in their own clone of the student edition.
        clone = room.home(user) / STUDENT_FOLDER
        assert (clone / "nbgrader_config.py").is_file()
        assert clone.stat().st_uid == room.home(user).stat().st_uid
        page.locator(".jp-DirListing-item", has_text="exercises").wait_for()

        menu = nbgrader_menu(page)
        labels = menu_labels(menu)
        screenshot(page, ARTIFACTS, f"1_{user}nbgrader_menu")
        assert "assignment list" in labels, labels
        for tool in ("formgrader", "formgrader (local)", "course list", "create assignment"):
            assert tool not in labels, labels
        page.keyboard.press("Escape")
        # Nor on their server: the Formgrader's pages are not there at all.
        reply = page.request.get(f"{room.url}/user/{user}/formgrader")
        assert reply.status == 404, reply.status

        listing = assignment_list(page)
        _row(listing, "released_assignments_list").locator("button", has_text="Fetch").wait_for()
        screenshot(page, ARTIFACTS, f"1_{user}assignment_list")


def test_students_fetch_and_submit_in_the_assignment_list(room, pages):
    source = load_notebook(COURSE.source_notebook(ASSIGNMENT))
    for user, page in pages.items():
        listing = assignment_list(page)
        _row(listing, "released_assignments_list").locator("button", has_text="Fetch").click()
        submit = _row(listing, "fetched_assignments_list").locator("button", has_text="Submit")
        submit.wait_for()
        screenshot(page, ARTIFACTS, f"2_{user}_fetched")
        path = room.notebook(user)
        assert path.is_file() and path.stat().st_uid == room.home(user).stat().st_uid

        # Their work, written as them: that share of the answers.
        worked = synthetic_submission(load_notebook(path), source, STUDENTS[user])
        owner = path.stat()
        subprocess.run(["setpriv", f"--reuid={owner.st_uid}", f"--regid={owner.st_gid}",
                        "--clear-groups", "tee", str(path)], input=json.dumps(worked),
                       text=True, stdout=subprocess.DEVNULL, check=True)

        submit.click()
        _row(listing, "submitted_assignments_list").wait_for()
        screenshot(page, ARTIFACTS, f"2_{user}_submitted")
        inbound = room.exchange / COURSE_ID / "inbound"
        assert any(p.name.startswith(f"{user}+{ASSIGNMENT}+") for p in inbound.iterdir())


def test_the_instructor_collects_grades_and_releases_feedback(room):
    room.instructor_runs(*nbgrader_command("collect", ASSIGNMENT))
    room.instructor_runs(sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT)
    room.instructor_runs(*nbgrader_command("release_feedback", ASSIGNMENT))
    table = room.scores()
    assert table["hub-ada"]["total"] == table["hub-ada"]["max"]
    assert 0 < table["hub-bob"]["total"] < table["hub-bob"]["max"]


def test_each_student_fetches_feedback_that_shows_their_own_score(room, pages):
    table = room.scores()
    for user, page in pages.items():
        listing = assignment_list(page)
        listing.locator("#refresh_assignments_list").click()
        submitted = _row(listing, "submitted_assignments_list")
        submitted.get_by_text("(feedback available to fetch)").wait_for()
        submitted.locator("button", has_text="Fetch Feedback").click()
        view = _row(listing, "submitted_assignments_list").get_by_text("(view feedback)")
        view.wait_for()
        screenshot(page, ARTIFACTS, f"4_{user}_feedback_fetched")

        view.click()  # the file browser goes to the feedback's folder
        html = page.locator(".jp-DirListing-item", has_text=".html")
        html.wait_for()
        html.dblclick()
        frame = page.frame_locator(".jp-HTMLViewer iframe")
        total, most = (round(float(table[user][key]), 2) for key in ("total", "max"))
        heading = frame.get_by_text(f"(Score: {total} / {most})").first
        heading.wait_for()
        screenshot(page, ARTIFACTS, f"4_{user}_feedback")
        other = next(u for u in STUDENTS if u != user)
        assert other not in frame.locator("body").inner_text()


def test_a_students_kernel_reads_the_lessons_and_nothing_of_the_instructor_or_a_classmate(
        room, pages):
    user, other = list(STUDENTS)
    mine = COURSE.release_notebook(ASSIGNMENT).name
    secret = {
        "solutions": ROOT / "solutions" / ASSIGNMENT / mine,
        "hidden checks": ROOT / "grader" / "hidden" / ASSIGNMENT.split("_", 1)[1] / "test.py",
        "answer digests": ROOT / "grader" / "checks" / "answer_digests.json",
        "the checkout's history": ROOT / ".git",
        "gradebook": room.instructor / "gradebook.db",
        "classmate's submission": room.instructor / "submitted" / other / ASSIGNMENT / mine,
        "classmate's autograded": room.instructor / "autograded" / other / ASSIGNMENT / mine,
        "classmate's feedback": room.instructor / "feedback" / other / ASSIGNMENT,
        "classmate's home": room.notebook(other),
    }
    public = {"lesson": ROOT / "course" / "01_storage_strides.ipynb",
              "givens": ROOT / "grader" / "givens" / "storage_strides.py"}
    for path in [*secret.values(), *public.values()]:
        assert path.exists(), path  # each is there to be refused
    printed = run_in_kernel(pages[user], f"{room.url}/user/{user}",
                            kernel_tries({**secret, **public}))
    tried = json.loads(printed.strip().splitlines()[-1])
    assert {name: tried[name] for name in public} == dict.fromkeys(public, "read")
    assert {name: tried[name] for name in secret} == dict.fromkeys(secret, "PermissionError")


def test_the_instructor_sees_the_instructor_tools_and_both_submissions(room, browser):
    # The instructor's folder is theirs (here, root made it on the command line).
    for path in [room.instructor, *room.instructor.rglob("*")]:
        os.chown(path, room.home(INSTRUCTOR).stat().st_uid, room.home(INSTRUCTOR).stat().st_gid,
                 follow_symlinks=False)
    page = new_page(browser)
    log_in(page, room, INSTRUCTOR)
    page.locator(".jp-DirListing-item", has_text="solutions").wait_for()  # the checkout
    menu = nbgrader_menu(page)
    labels = menu_labels(menu)
    screenshot(page, ARTIFACTS, f"5_{INSTRUCTOR}nbgrader_menu")
    for tool in ("assignment list", "formgrader", "course list", "create assignment"):
        assert tool in labels, labels
    page.keyboard.press("Escape")

    page.goto(f"{room.url}/user/{INSTRUCTOR}/formgrader")
    row = page.locator("tr", has_text=ASSIGNMENT).first
    row.wait_for()
    screenshot(page, ARTIFACTS, f"5_{INSTRUCTOR}_formgrader")
    assert row.locator("td").nth(2).inner_text().strip() == "released"
    assert row.locator("td").nth(8).inner_text().strip() == str(len(STUDENTS))  # submissions
    page.goto(f"{room.url}/user/{INSTRUCTOR}/formgrader/manage_students")
    for user in STUDENTS:
        page.locator("tr", has_text=user).first.wait_for()
    screenshot(page, ARTIFACTS, f"5_{INSTRUCTOR}_formgrader_students")
