"""What ``grader.edition.hub_modes`` closes to students on a shared server: derived from the
student edition, so each answer-bearing path is closed and each path the edition holds (or
every server runs) stays open. The running hub proves the modes from a student's kernel
(tests/hub/test_hub_browser.py); this proves the list, in a second."""

from pathlib import Path

from support import ROOT

from grader.edition import hub_modes


def _covers(closed: list[Path], path: Path) -> bool:
    """Whether ``path`` is closed itself or lies under a closed folder."""
    return any(path == c or c in path.parents for c in closed)


def test_every_path_holding_an_answer_is_closed_and_what_students_run_is_not():
    closed = hub_modes.private_paths(ROOT)
    answers = ["solutions/01_storage_strides/01_storage_strides.ipynb",
               "grader/hidden/storage_strides/test.py", "grader/hidden/autograd/oracles.py",
               "grader/checks/answer_digests.json", "grader/judge", "tests/conftest.py", ".git",
               "grader/cli.py"]
    assert [p for p in answers if not _covers(closed, Path(p))] == []
    open_to_all = ["course/01_storage_strides.ipynb", "exercises", "anatomy_widgets",
                   "grader/givens/storage_strides.py", "grader/checks/__init__.py",
                   "grader/lab/__init__.py", ".venv", "deploy/student"]
    assert [p for p in open_to_all if _covers(closed, Path(p))] == []


def test_the_closed_paths_are_the_topmost_ones():
    closed = hub_modes.private_paths(ROOT)
    assert Path("grader") not in closed and Path("solutions") in closed
    assert not [p for p in closed if any(c in p.parents for c in closed)]
