"""Two classes on one JupyterHub, through a real browser: the English and the Chinese class.

The hub starts from ``deploy/jupyterhub_config.py`` with a course list
(``TENSOR_ANATOMY_HUB_COURSES``, a TOML file) of two courses in one exchange, each with
its own id, language, student edition, instructor folder (gradebook) and instructor:
``tensor-anatomy-en`` (students ``hub2-ada`` and ``hub2-mei``, instructor ``hub2-teach``)
and ``tensor-anatomy-zh`` (``hub2-wei`` and ``hub2-mei``, instructor ``hub2-laoshi``).
``hub2-mei`` is enrolled in both. Headless Chromium logs each in:

- each student's Assignment List offers exactly their courses (nbgrader's
  ``JupyterHubAuthPlugin`` reads the hub groups ``nbgrader-<course>``), and each fetches
  ``01_storage_strides`` of each course into that course's own clone of its edition
  (``Exchange.path_includes_course``): the Chinese class's notebook is in Chinese, the
  English one in English; each submits it there;
- each instructor collects and grades their course alone (the grading command with their
  course's settings): their gradebook holds their students and no other; the student of
  both classes is graded twice, once in each, each time for what they handed in there;
- each instructor logs in: their Course List shows their course alone, their Formgrader
  their students and submissions alone, and their own kernel reads their gradebook and is
  refused the other course's (file permissions: the real boundary).

Screenshots go to ``tests/artifacts/hub-two/`` (git-ignored), with the hub's log.
Reuses ``tests/support/hub.py`` (the Room, login and Assignment List helpers) and
``tests/hub/`` (the running hub, kernels). Needs root (it makes OS users).
"""

import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from escape.users import reachable_by_others
from hub.kernel import run_in_kernel
from hub.running import DEPLOY_CONFIG, Hub, os_user, proxy_missing
from support import COURSE, ROOT, load_notebook
from support.exchange import nbgrader_command
from support.hub import (
    ASSIGNMENT,
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
from traitlets.config.loader import PyFileConfigLoader

from grader import edition
from grader.batch._demo import synthetic_submission
from grader.translation import _exercises

pytestmark = [
    # Opens the checkout and the interpreter's folders to the users it makes: by itself,
    # after the parallel run. It grades two classes: scheduled first among those.
    pytest.mark.alone,
    pytest.mark.heavy,
]

ENGLISH, CHINESE = "tensor-anatomy-en", "tensor-anatomy-zh"
# course id → its language, instructor and students (OS user → share of the answers).
CLASSES = {
    ENGLISH: ("en", "hub2-teach", {"hub2-ada": 1.0, "hub2-mei": 0.5}),
    CHINESE: ("zh-CN", "hub2-laoshi", {"hub2-wei": 0.5, "hub2-mei": 1.0}),
}
STUDENTS = sorted({name for _, _, students in CLASSES.values() for name in students})
ARTIFACTS = ROOT / "tests" / "artifacts" / "hub-two"
COURSES_VARIABLE = "TENSOR_ANATOMY_HUB_COURSES"
HAN = re.compile(r"[\u4e00-\u9fff]")  # a Chinese character


class ClassRoom(Room):
    """One course of the hub: support.hub's Room (the shared exchange and homes), with
    this course's id, instructor folder, language, instructor and students."""

    def __init__(self, top: Path, course_id: str):
        super().__init__(top)
        self.id = course_id
        self.language, self.teacher, self.students = CLASSES[course_id]
        self.instructor = top / course_id / "instructor"
        self.env.update({"TENSOR_ANATOMY_COURSE_ID": course_id,
                         "TENSOR_ANATOMY_INSTRUCTOR_DIR": str(self.instructor)})

    def notebook(self, user: str) -> Path:
        """Where the student's Assignment List fetches this course's assignment: in the
        course's clone of its edition."""
        return (self.home(user) / STUDENT_FOLDER / self.id / ASSIGNMENT
                / COURSE.release_notebook(ASSIGNMENT).name)

    def release(self, built: Path) -> None:
        """The course's edition at ``built`` and its assignment in the exchange, in its language."""
        edition.build(COURSE, built, language=self.language)
        released = _exercises.release_folder(COURSE, self.language)  # exercises/<language>
        folder = [] if self.language == "en" else [
            f"--CourseDirectory.release_directory={released}"]
        self.instructor_runs(*nbgrader_command("release_assignment", ASSIGNMENT, "--force",
                                               *folder))

    def entry(self, built: Path) -> dict:
        """This course in the hub's course list."""
        return {"id": self.id, "language": self.language, "edition": str(built),
                "instructor_dir": str(self.instructor), "instructors": [self.teacher],
                "students": sorted(self.students)}


def _toml(courses: list[dict], exchange: Path) -> str:
    """A course list as TOML (its values are strings and lists of strings)."""
    lines = [f"exchange = {json.dumps(str(exchange))}"]
    for course in courses:
        lines.append("\n[[courses]]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in course.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def rooms():
    """A running hub serving both courses, each released; everything removed after."""
    if os.geteuid() != 0:
        pytest.skip("makes OS users and runs a hub: needs root")
    pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    if reason := proxy_missing():  # else installs configurable-http-proxy into .hub-proxy/
        pytest.skip(reason)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    top = Path(tempfile.mkdtemp(prefix="tensor-anatomy-hub-two-"))
    rooms = {course_id: ClassRoom(top, course_id) for course_id in CLASSES}
    first = rooms[ENGLISH]  # the exchange, the homes and the password are the hub's
    people = [*STUDENTS, *(room.teacher for room in rooms.values())]
    # Others enter the top; the exchange is everyone's, sticky, as deploy/README.md says.
    for folder, mode in ((top, 0o755), (first.exchange, 0o1777), (top / "home", 0o755)):
        folder.mkdir(exist_ok=True)
        folder.chmod(mode)
    try:
        with pytest.MonkeyPatch.context() as patch, \
                reachable_by_others([Path(sys.executable).resolve(), Path(sys.prefix), ROOT]):
            entries = []
            for room in rooms.values():
                room.password = first.password
                for name, value in room.env.items():
                    patch.setenv(name, value)  # the edition bakes in this course's id
                room.release(top / f"edition-{room.id}")
                entries.append(room.entry(top / f"edition-{room.id}"))
            for user in people:
                os_user(user, first.home(user))
                quiet_lab(first.home(user))
            listed = top / "courses.toml"
            listed.write_text(_toml(entries, first.exchange), encoding="utf-8")
            hub_env = {key: value for key, value in os.environ.items()
                       if not key.startswith("TENSOR_ANATOMY_")}  # the list says it all
            with Hub(top / "hub", {**hub_env, COURSES_VARIABLE: str(listed)}, first.password,
                     people) as hub:
                for room in rooms.values():
                    room.url = hub.url
                yield rooms
    finally:
        with contextlib.suppress(FileNotFoundError):
            shutil.copy(top / "hub" / "hub.log", ARTIFACTS / "hub.log")
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(rooms):
    from lab.running import CHROMIUM, chromium

    if CHROMIUM is None:
        pytest.skip("Debian chromium not installed (apt-get install chromium)")
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def pages(browser):
    return {user: new_page(browser) for user in STUDENTS}


def _courses_of(user: str) -> list[str]:
    return sorted(course_id for course_id, (_, _, students) in CLASSES.items()
                  if user in students)


def _hub_config(path: Path, monkeypatch) -> object:
    monkeypatch.setenv(COURSES_VARIABLE, str(path))
    return PyFileConfigLoader(DEPLOY_CONFIG.name, str(DEPLOY_CONFIG.parent)).load_config()


def test_the_course_list_makes_nbgraders_groups_and_refuses_what_one_server_cannot_be(
        tmp_path, monkeypatch):
    for name in ("TENSOR_ANATOMY_HUB_STUDENTS", "TENSOR_ANATOMY_HUB_INSTRUCTORS"):
        monkeypatch.delenv(name, raising=False)
    courses = [{"id": course_id, "language": language, "instructor_dir": f"/srv/{course_id}",
                "instructors": [teacher], "students": sorted(students)}
               for course_id, (language, teacher, students) in CLASSES.items()]
    listed = tmp_path / "courses.toml"
    listed.write_text(_toml(courses, tmp_path / "exchange"), encoding="utf-8")
    config = _hub_config(listed, monkeypatch)
    assert config.JupyterHub.load_groups == {
        "instructors": {"users": ["hub2-laoshi", "hub2-teach"]},
        f"nbgrader-{ENGLISH}": {"users": ["hub2-ada", "hub2-mei"]},
        f"formgrade-{ENGLISH}": {"users": ["hub2-teach"]},
        f"nbgrader-{CHINESE}": {"users": ["hub2-mei", "hub2-wei"]},
        f"formgrade-{CHINESE}": {"users": ["hub2-laoshi"]}}
    assert config.Authenticator.allowed_users == {*STUDENTS, "hub2-teach", "hub2-laoshi"}
    # The same list as JSON.
    as_json = tmp_path / "courses.json"
    as_json.write_text(json.dumps({"exchange": str(tmp_path / "exchange"), "courses": courses}))
    assert _hub_config(as_json, monkeypatch).JupyterHub.load_groups == config.JupyterHub.load_groups

    refused = {
        "teaches two courses": [courses[0], {**courses[1], "instructors": ["hub2-teach"]}],
        "different exchanges": [courses[0], {**courses[1], "exchange": "/elsewhere"}],
        "listed twice": [courses[0], courses[0]],
        "an instructor and a student": [courses[0], {**courses[1], "students": ["hub2-teach"]}],
        "unknown keys ['student']": [{**courses[0], "student": ["x"]}],
        "missing ['instructor_dir']": [{k: v for k, v in courses[0].items()
                                        if k != "instructor_dir"}],
        "names a folder": [{**courses[0], "id": "../en"}],
    }
    for said, wrong in refused.items():
        listed.write_text(_toml(wrong, tmp_path / "exchange"), encoding="utf-8")
        with pytest.raises(ValueError, match=re.escape(said)):
            _hub_config(listed, monkeypatch)


def _course_row(listing, section: str, course_id: str):
    """The assignment's row in a section of the Assignment List, for ``course_id``."""
    return (listing.locator(f"#{section} .list_item", has_text=ASSIGNMENT)
            .filter(has_text=course_id).first)


def _offered(page) -> list[str]:
    """The courses in the Assignment List's course menu, once it has loaded."""
    page.locator("#course_list_dropdown:not([disabled])").wait_for()
    return sorted(t.strip() for t in page.locator("#course_list li").all_inner_texts())


def _choose(page, listing, course_id: str) -> None:
    """Show ``course_id``'s assignments in the Assignment List."""
    if page.locator("#course_list_default").inner_text().strip() != course_id:
        page.locator("#course_list_dropdown:not([disabled])").click()
        page.locator("#course_list li", has_text=course_id).click()
    page.locator("#course_list_default", has_text=course_id).wait_for()
    listing.locator(".list_item").filter(has_text=course_id).first.wait_for()


def test_each_student_is_offered_exactly_their_courses(rooms, pages):
    room = rooms[ENGLISH]
    for user, page in pages.items():
        log_in(page, room, user)
        clones = room.home(user) / STUDENT_FOLDER
        # A clone of each of their courses' editions, made as them, and no other.
        assert sorted(p.name for p in clones.iterdir()) == _courses_of(user)
        for course_id in _courses_of(user):
            assert (clones / course_id / "nbgrader_config.py").is_file()
            assert (clones / course_id).stat().st_uid == room.home(user).stat().st_uid
        labels = menu_labels(nbgrader_menu(page))
        assert "assignment list" in labels and "formgrader" not in labels, labels
        page.keyboard.press("Escape")

        assignment_list(page)
        assert _offered(page) == _courses_of(user)
        page.locator("#course_list_dropdown").click()  # the menu open, for the screenshot
        screenshot(page, ARTIFACTS, f"1_{user}_courses")
        page.keyboard.press("Escape")
        page.locator("#assignments_list_info").click()  # closes the menu


def test_students_fetch_and_submit_in_their_class_language(rooms, pages):
    english_source = load_notebook(COURSE.source_notebook(ASSIGNMENT))
    chinese_source = _exercises.translated_source(
        COURSE, "zh-CN", ASSIGNMENT, _exercises.catalogues(COURSE, "zh-CN")[ASSIGNMENT])
    for user, page in pages.items():
        listing = assignment_list(page)
        for course_id in _courses_of(user):
            room = rooms[course_id]
            _choose(page, listing, course_id)
            _course_row(listing, "released_assignments_list", course_id) \
                .locator("button", has_text="Fetch").click()
            submit = _course_row(listing, "fetched_assignments_list", course_id) \
                .locator("button", has_text="Submit")
            submit.wait_for()
            path = room.notebook(user)
            assert path.is_file() and path.stat().st_uid == room.home(user).stat().st_uid
            fetched = load_notebook(path)
            text = "".join("".join(cell["source"]) for cell in fetched["cells"]
                           if cell["cell_type"] == "markdown")
            # The Chinese class's notebook is in Chinese; the English class's is not.
            assert bool(HAN.search(text)) == (room.language == "zh-CN"), text[:300]

            # Their work (written into their file, which stays theirs): that share.
            source = chinese_source if room.language == "zh-CN" else english_source
            path.write_text(json.dumps(synthetic_submission(fetched, source,
                                                            room.students[user])),
                            encoding="utf-8")
            submit.click()
            _course_row(listing, "submitted_assignments_list", course_id).wait_for()
            screenshot(page, ARTIFACTS, f"2_{user}_{course_id}_submitted")
            inbound = room.exchange / course_id / "inbound"
            assert any(p.name.startswith(f"{user}+{ASSIGNMENT}+") for p in inbound.iterdir())
    # What the Chinese class reads: the fetched notebook, opened in JupyterLab.
    page = pages["hub2-wei"]
    page.locator(".jp-DirListing-item", has_text=CHINESE).dblclick()
    page.locator(".jp-DirListing-item", has_text=ASSIGNMENT).dblclick()
    page.locator(".jp-DirListing-item", has_text=".ipynb").dblclick()
    page.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.wait_for()
    heading = page.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.inner_text()
    assert HAN.search(heading), heading
    screenshot(page, ARTIFACTS, f"2_hub2-wei_{CHINESE}_notebook")


def _collect_and_grade(room: ClassRoom) -> None:
    """The instructor's commands, with their course's settings (one judge: two notebooks)."""
    room.instructor_runs(*nbgrader_command("collect", ASSIGNMENT))
    room.instructor_runs(sys.executable, "-m", "grader.cli", "grade", ASSIGNMENT, "--jobs", "1")


def test_each_instructor_collects_and_grades_only_their_class(rooms):
    with ThreadPoolExecutor(max_workers=len(rooms)) as both:  # the two classes at once
        list(both.map(_collect_and_grade, rooms.values()))
    for room in rooms.values():
        table = room.scores()
        assert sorted(table) == sorted(room.students), (room.id, table)
        assert sorted(p.name for p in (room.instructor / "submitted").iterdir()) \
            == sorted(room.students)
        for user, share in room.students.items():  # what they handed in to this class
            total, most = table[user]["total"], table[user]["max"]
            assert total == most if share == 1.0 else 0 < total < most, (room.id, user, table)
    # The student of both classes: graded in each for what they handed in there.
    assert rooms[ENGLISH].scores()["hub2-mei"]["total"] \
        < rooms[CHINESE].scores()["hub2-mei"]["total"]


def test_each_instructor_sees_only_their_course(rooms, browser):
    for room in rooms.values():
        teacher = room.home(room.teacher).stat()
        for path in [room.instructor, *room.instructor.rglob("*")]:  # theirs alone
            os.chown(path, teacher.st_uid, teacher.st_gid, follow_symlinks=False)
        room.instructor.chmod(0o700)
    for room in rooms.values():
        other = next(r for r in rooms.values() if r is not room)
        page = new_page(browser)
        log_in(page, room, room.teacher)
        nbgrader_menu(page).locator(".lm-Menu-item", has_text="Course List").click()
        listed = page.locator("#formgrader_list .list_item")
        listed.first.wait_for()
        assert [t.strip() for t in listed.locator(".item_name").all_inner_texts()] == [room.id]
        screenshot(page, ARTIFACTS, f"3_{room.teacher}_course_list")

        page.goto(f"{room.url}/user/{room.teacher}/formgrader")
        row = page.locator("tr", has_text=ASSIGNMENT).first
        row.wait_for()
        assert row.locator("td").nth(8).inner_text().strip() == str(len(room.students))
        screenshot(page, ARTIFACTS, f"3_{room.teacher}_formgrader")
        page.goto(f"{room.url}/user/{room.teacher}/formgrader/manage_students")
        for user in room.students:
            page.locator("tr", has_text=user).first.wait_for()
        shown = page.locator("body").inner_text()
        assert not [user for user in other.students if user not in room.students
                    and user in shown], shown
        screenshot(page, ARTIFACTS, f"3_{room.teacher}_students")

        tried = json.loads(run_in_kernel(page, f"{room.url}/user/{room.teacher}", kernel_tries({
            "mine": room.instructor / "gradebook.db",
            "theirs": other.instructor / "gradebook.db",
            "their submissions": other.instructor / "submitted"})).strip().splitlines()[-1])
        assert tried == {"mine": "read", "theirs": "PermissionError",
                         "their submissions": "PermissionError"}, tried
        page.context.close()
