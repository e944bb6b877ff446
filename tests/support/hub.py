"""A hub's students and instructors in a browser: the room a hub serves, logging in,
the Nbgrader menu and the Assignment List (JupyterHub from ``deploy/``).

Both hub tests (hub/test_hub_browser.py: one class; hub/test_hub_two_classes.py:
two) drive the same pages; the hub itself is started by ``tests/hub/running.py``.
"""

import json
import os
import re
import subprocess
import uuid
from pathlib import Path

from grader.batch import _gradebook

from . import COURSE, ROOT

ASSIGNMENT = "01_storage_strides"
COURSE_ID = "tensor-anatomy-hub-test"
STUDENT_FOLDER = "tensor-anatomy-student"  # deploy/jupyterhub_config.py clones it there
TIMEOUT_MS = 60_000
SPAWN_TIMEOUT_MS = 120_000  # login, first clone, JupyterLab's start and first page load


class Room:
    """The instructor's side (an exchange, an instructor folder) and the students' homes."""

    def __init__(self, top: Path):
        self.top, self.exchange, self.instructor = top, top / "exchange", top / "instructor"
        self.env = {**os.environ, "TENSOR_ANATOMY_EXCHANGE": str(self.exchange),
                    "TENSOR_ANATOMY_COURSE_ID": COURSE_ID,
                    "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(self.instructor)}
        self.password = uuid.uuid4().hex
        self.url = ""

    def home(self, user: str) -> Path:
        return self.top / "home" / user

    def notebook(self, user: str) -> Path:
        return (self.home(user) / STUDENT_FOLDER / ASSIGNMENT
                / COURSE.release_notebook(ASSIGNMENT).name)

    def instructor_runs(self, *cmd: str) -> str:
        done = subprocess.run(list(cmd), cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        return done.stdout + done.stderr

    def scores(self) -> dict:
        return _gradebook.scores(f"sqlite:///{self.instructor / 'gradebook.db'}", ASSIGNMENT)


def quiet_lab(home: Path) -> None:
    """No news or update checks in the student's JupyterLab: offline, and their toasts
    cover buttons."""
    path = (home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
            / "notification.jupyterlab-settings")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    entry = home.stat()
    for made in home.rglob("*"):
        os.chown(made, entry.st_uid, entry.st_gid, follow_symlinks=False)


def new_page(browser):
    """A page with cookies of its own: one user's session."""
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    # Nothing leaves localhost (only other hosts are routed, to be refused).
    page.route(re.compile(r"^(?!http://127\.0\.0\.1[:/]|data:|blob:)"), _refuse)
    return page


def _refuse(route) -> None:
    route.abort()


def log_in(page, room: Room, user: str) -> None:
    """Through the hub's login page, until the user's JupyterLab has started and loaded."""
    page.goto(f"{room.url}/hub/login")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(room.password)
    page.locator("#login_submit").click()
    page.wait_for_url(re.compile(rf"/user/{user}/lab"), timeout=SPAWN_TIMEOUT_MS)
    page.locator(".lm-MenuBar-item", has_text="Nbgrader").wait_for(timeout=SPAWN_TIMEOUT_MS)


def screenshot(page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"{name}.png")


def nbgrader_menu(page):
    page.locator(".lm-MenuBar-item", has_text="Nbgrader").click()
    menu = page.locator("#jp-mainmenu-nbgrader")
    menu.wait_for()
    return menu


def menu_labels(menu) -> list[str]:
    """The menu's items, in lower case (nbgrader spells "Create assignment" so)."""
    return [t.strip().lower() for t in menu.locator(".lm-Menu-itemLabel").all_inner_texts()]


def assignment_list(page):
    """The Assignment List, opened from the Nbgrader menu."""
    listing = page.locator("#assignments")
    if not listing.is_visible():
        nbgrader_menu(page).locator(".lm-Menu-item", has_text="Assignment List").click()
        listing.wait_for()
    return listing


def kernel_tries(paths: dict[str, Path]) -> str:
    """A cell that tries to read each path (a file's first byte, a folder's names)."""
    return f"""import json, os
tried = {{}}
for name, path in {json.dumps({k: str(v) for k, v in paths.items()})}.items():
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        tried[name] = "read"
    except OSError as refused:
        tried[name] = type(refused).__name__
print(json.dumps(tried))"""
