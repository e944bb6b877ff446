"""Hand-in through nbgrader's exchange by students who forge what they hand in (issue 29,
findings 1, 4, 5 and 7): the inbound folder lets every student make a folder of any
name, holding anything. Two students submit with ``nbgrader submit``; the others make
their folders by hand, each with one attack; ONE ``nbgrader collect`` (``SafeCollect``,
as ``nbgrader_config.py`` sets it) runs over all of them, as root, like an instructor
of a hub. Each attack must cost its own student alone, in one line, and nothing it
points to may reach the instructor's folder."""

import os
import resource
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from escape.users import unprivileged_user as _user
from nbgrader.utils import parse_utc
from support import ASSIGNMENTS, COURSE, ROOT
from support.exchange import COURSE_ID, Class, class_in_a_folder, nbgrader_command, run_as

from grader.collect._inbound import changed_at

ASSIGNMENT = ASSIGNMENTS[0]
NOTEBOOK = COURSE.release_notebook(ASSIGNMENT).name
HONEST = ("ta-ada", "ta-bob")  # hand in through nbgrader submit
STAMP = "2026-05-01 10:00:00.000000 UTC"  # what a hand-made folder's name and timestamp.txt say
LONG_AGO = "2000-01-01 00:00:00.000000 UTC"
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="makes OS users: needs root")


def _solution_link(folder: Path, room) -> None:
    (folder / NOTEBOOK).symlink_to(COURSE.source_notebook(ASSIGNMENT))


def _shadow_link(folder: Path, room) -> None:
    (folder / NOTEBOOK).symlink_to("/etc/shadow")


def _zero_link(folder: Path, room) -> None:
    (folder / NOTEBOOK).symlink_to("/dev/zero")  # stock collect writes zeros until the disk is full


def _hard_link(folder: Path, room) -> None:
    os.link(room.private / NOTEBOOK, folder / NOTEBOOK)  # the instructor's own 0600 file


def _fifo(folder: Path, room) -> None:
    os.mkfifo(folder / NOTEBOOK)


def _sparse(folder: Path, room) -> None:
    with open(folder / NOTEBOOK, "wb") as huge:
        huge.truncate(200 * 10**9)  # 200 GB, not one block of it on disk


def _many(folder: Path, room) -> None:
    for number in range(1001):
        (folder / f"{number}.txt").touch()


# student → (what their hand-made folder holds, a word of the one line refusing it)
REFUSED = {
    "ta-solution": (_solution_link, "symbolic link"),
    "ta-shadow": (_shadow_link, "symbolic link"),
    "ta-zero": (_zero_link, "symbolic link"),
    "ta-hardlink": (_hard_link, "hard link"),
    "ta-fifo": (_fifo, "a FIFO"),
    "ta-sparse": (_sparse, "bytes"),
    "ta-many": (_many, "more than 1000"),
}
ODD = ("ta-late", "ta-garbled")  # forged times, set-id modes: collected all the same


def _give(path: Path, user: str) -> None:
    """Make a hand-made folder its student's, as if they had made it: all but a hard
    link, which keeps the owner of the file it shares."""
    entry = _user(user)
    for each in [path, *path.rglob("*")] if not path.is_symlink() else [path]:
        if each.is_symlink() or each.lstat().st_nlink == 1 or each.is_dir():
            os.chown(each, entry.pw_uid, entry.pw_gid, follow_symlinks=False)


class HostileClass(Class):
    """test_exchange's class, with students who write into the inbound folder by hand."""

    def __init__(self, top: Path):
        super().__init__(top)
        self.private = top / "instructor-private"  # 0700: no student may read it
        self.private.mkdir(mode=0o700)
        shutil.copy(COURSE.source_notebook(ASSIGNMENT), self.private / NOTEBOOK)
        self.private.joinpath(NOTEBOOK).chmod(0o600)
        self.inbound = self.exchange / COURSE_ID / "inbound"

    def hand_made(self, user: str, stamp: str = STAMP) -> Path:
        """A folder filed as nbgrader submit files one."""
        folder = self.inbound / f"{user}+{ASSIGNMENT}+{stamp}+byhand"
        folder.mkdir()
        (folder / "timestamp.txt").write_text(STAMP)
        return folder

    def submit(self, user: str) -> str:
        """The released notebook handed in unchanged, through nbgrader submit."""
        home = self.top / f"home-{user}"
        (home / ASSIGNMENT).mkdir(parents=True)
        shutil.copy(COURSE.release_notebook(ASSIGNMENT), home / ASSIGNMENT / NOTEBOOK)
        _give(home, user)
        return run_as(self.as_student("submit"), home, self.student_env(user, home), user)

    def fetch_feedback(self, user: str) -> list[Path]:
        home = self.top / f"home-{user}"
        run_as(self.as_student("fetch_feedback"), home, self.student_env(user, home), user)
        return sorted((home / ASSIGNMENT / "feedback").rglob("*.html"))

    def as_student(self, command: str) -> list[str]:
        return nbgrader_command(command, ASSIGNMENT, f"--Exchange.root={self.exchange}",
                         f"--CourseDirectory.course_id={COURSE_ID}")



def _forge_under_a_classmates_name(room: HostileClass) -> None:
    """ta-bob files a copy of his own submission (his notebook, his secret) as ta-ada's,
    named later than hers: stock collect takes it for hers, and her feedback for his."""
    own = next(room.inbound.glob(f"ta-bob+{ASSIGNMENT}+*"))
    forged = room.inbound / f"ta-ada+{ASSIGNMENT}+2099-01-01 00:00:00.000000 UTC+forged"
    shutil.copytree(own, forged)
    _give(forged, "ta-bob")


def _link_the_folder_itself(room: HostileClass) -> None:
    folder = room.inbound / f"ta-dirlink+{ASSIGNMENT}+{STAMP}+byhand"
    folder.symlink_to(room.private, target_is_directory=True)
    _give(folder, "ta-dirlink")


def _odd_but_harmless(room: HostileClass) -> None:
    late = room.hand_made("ta-late")
    late.joinpath("timestamp.txt").write_text(LONG_AGO)  # on time, it says
    shutil.copy(COURSE.release_notebook(ASSIGNMENT), late / NOTEBOOK)
    (late / "data").mkdir()
    (late / "data" / "notes.txt").write_text("mine")
    garbled = room.hand_made("ta-garbled", stamp="not a time")  # stock collect stops at it
    garbled.joinpath("timestamp.txt").write_bytes(b"not a time \xff\x00")
    shutil.copy(COURSE.release_notebook(ASSIGNMENT), garbled / NOTEBOOK)
    for user, folder in (("ta-late", late), ("ta-garbled", garbled)):
        _give(folder, user)
    (late / NOTEBOOK).chmod(0o4777)  # after chown, which clears set-id bits
    (late / "data").chmod(0o2777)
    (late / "data" / "notes.txt").chmod(0o6666)


def _collect(room: HostileClass) -> subprocess.CompletedProcess:
    """nbgrader collect, as the instructor, able to write no file over 256 MiB: if a link
    to /dev/zero were ever followed again, this test fails instead of filling the disk."""
    def bounded():
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 20, 256 << 20))
    return subprocess.run(nbgrader_command("collect", ASSIGNMENT), cwd=ROOT, env=room.env,
                          capture_output=True, text=True, timeout=300, preexec_fn=bounded)


def _feedback(room: HostileClass) -> dict[str, list[Path]]:
    """A stand-in page per collected honest student, filed as generate_feedback files
    one (with the collected folder's secret and time: no grading needed to see whose
    secret it is released under), then release_feedback and each one's fetch_feedback."""
    for user in HONEST:
        submitted = room.instructor / "submitted" / user / ASSIGNMENT
        if submitted.is_dir():
            pages = room.instructor / "feedback" / user / ASSIGNMENT
            pages.mkdir(parents=True)
            for name in ("timestamp.txt", "submission_secret.txt"):
                shutil.copy(submitted / name, pages / name)
            (pages / NOTEBOOK).with_suffix(".html").write_text(f"<p>feedback for {user}</p>")
    run_as(nbgrader_command("release_feedback", ASSIGNMENT), ROOT, room.env)
    return {user: room.fetch_feedback(user) for user in HONEST}


@pytest.fixture(scope="module")
def handed_in():
    with class_in_a_folder(HostileClass, "tensor-anatomy-hostile-") as room:
        run_as(nbgrader_command("release_assignment", ASSIGNMENT, "--force"), ROOT, room.env)
        for user in HONEST:
            room.submit(user)
        _forge_under_a_classmates_name(room)
        for user, (attack, _) in REFUSED.items():
            folder = room.hand_made(user)
            attack(folder, room)
            _give(folder, user)
        _link_the_folder_itself(room)
        room.hand_made("=cmd")  # an id a spreadsheet would run
        _odd_but_harmless(room)
        collected = _collect(room)
        (ROOT / "tests" / "artifacts").mkdir(exist_ok=True)  # for the record
        (ROOT / "tests" / "artifacts" / "hostile_hand_in.log").write_text(
            collected.stdout + collected.stderr, encoding="utf-8")
        yield room, collected, _feedback(room)


def _lines(collected: subprocess.CompletedProcess, folder_start: str) -> list[str]:
    """collect's log lines about the folders whose names start so."""
    return [line for line in (collected.stdout + collected.stderr).splitlines()
            if f"] {folder_start}+{ASSIGNMENT}+" in line]


def _submitted(room: HostileClass) -> Path:
    return room.instructor / "submitted"


def test_one_collect_exits_0_and_collects_every_student_whose_folder_is_theirs(handed_in):
    room, collected, _ = handed_in
    assert collected.returncode == 0, collected.stderr[-3000:]
    assert sorted(p.name for p in _submitted(room).iterdir()) == sorted([*HONEST, *ODD])
    for user in [*HONEST, *ODD]:
        assert (_submitted(room) / user / ASSIGNMENT / NOTEBOOK).is_file(), user


@pytest.mark.parametrize("student", [*REFUSED, "ta-dirlink", "=cmd"])
def test_a_hostile_folder_is_refused_for_its_student_alone_in_one_line(handed_in, student):
    room, collected, _ = handed_in
    why = {"ta-dirlink": "the folder is a symbolic link",
           "=cmd": "formula sign"}.get(student) or REFUSED[student][1]
    lines = _lines(collected, student)
    assert len(lines) == 1 and "ERROR" in lines[0] and lines[0].endswith(": refused"), lines
    assert why in lines[0], lines
    assert not (_submitted(room) / student).exists()


def test_nothing_a_link_points_to_reaches_the_instructors_folder(handed_in):
    room, _, _ = handed_in
    solution = COURSE.source_notebook(ASSIGNMENT).read_bytes()
    for path in room.instructor.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert path.read_bytes() != solution, path
            assert path.stat().st_size < 1 << 20, path  # no zeros from /dev/zero, no sparse copy


def test_a_folder_filed_under_a_classmates_name_is_refused_and_she_keeps_her_feedback(handed_in):
    room, collected, fetched = handed_in
    bob = _user("ta-bob").pw_uid
    lines = _lines(collected, "ta-ada")
    refused = [line for line in lines if line.endswith(": refused")]
    assert len(refused) == 1, lines
    assert f"filed under ta-ada by uid {bob} (ta-bob): refused" in refused[0]
    cache = room.top / "home-ta-ada" / ".local" / "share" / "jupyter" / "nbgrader_cache"
    her_secret = next(cache.rglob("submission_secret.txt")).read_text()
    collected_secret = _submitted(room) / "ta-ada" / ASSIGNMENT / "submission_secret.txt"
    assert collected_secret.read_text() == her_secret
    assert [page.read_text() for page in fetched["ta-ada"]] == ["<p>feedback for ta-ada</p>"]
    assert all("ta-ada" not in page.read_text() for page in fetched["ta-bob"])


def _newest_change(folder: Path) -> int:
    return max(p.lstat().st_ctime_ns for p in [folder, *folder.rglob("*")])


def test_the_time_is_the_newest_change_of_the_folder_and_a_forged_one_is_logged(handed_in):
    room, collected, _ = handed_in
    for user in [*HONEST, *ODD]:
        inbound = next(p for p in room.inbound.glob(f"{user}+{ASSIGNMENT}+*")
                       if not p.name.endswith("+forged"))
        written = (_submitted(room) / user / ASSIGNMENT / "timestamp.txt").read_text()
        assert written.endswith(" UTC"), written  # nbgrader's format, its own parser reads it
        assert parse_utc(written) == changed_at(_newest_change(inbound)), user
    claims = [line for line in _lines(collected, "ta-late") if "claims" in line]
    assert len(claims) == 1 and "WARNING" in claims[0], _lines(collected, "ta-late")
    assert not [line for line in _lines(collected, "ta-bob") if "claims" in line]


def test_an_unparsable_timestamp_txt_costs_nothing(handed_in):
    room, collected, _ = handed_in
    assert (_submitted(room) / "ta-garbled" / ASSIGNMENT / NOTEBOOK).is_file()
    assert not [line for line in _lines(collected, "ta-garbled") if "ERROR" in line]


def test_copies_are_written_fresh_by_the_instructor_without_the_students_modes(handed_in):
    room, _, _ = handed_in
    copy = _submitted(room) / "ta-late" / ASSIGNMENT
    assert (copy / "data" / "notes.txt").read_text() == "mine"
    for path in [copy, *copy.rglob("*")]:
        status = path.lstat()
        assert status.st_uid == os.geteuid(), path
        assert stat.S_IMODE(status.st_mode) == (0o755 if path.is_dir() else 0o644), path
