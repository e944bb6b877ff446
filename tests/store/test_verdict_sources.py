"""A regrade judges again only what a change touches (``grader/store/_verdict_sources.py``):
an edit of one chapter's own files (anything in its folder ``grader/hidden/<chapter>/``:
hidden checks, strategies, wrong answers, its ``__init__.py``) changes the verdict key of
that assignment only; a file of another chapter counts wherever a
counted file imports it, inside a function or relatively.
"""

import functools
import json
from pathlib import Path

import pytest
from support import COURSE, load_notebook

from grader.batch._demo import STUDENTS, synthetic_submission
from grader.store import _verdicts
from grader.store._verdict_sources import verdict_sources

ASSIGNMENTS = ("01_storage_strides", "02_creating_tensors")


def _class() -> list[tuple[dict, str]]:
    """(notebook, assignment) for ``make demo``'s three students of two assignments."""
    return [(synthetic_submission(load_notebook(COURSE.release_notebook(a)),
                                  load_notebook(COURSE.source_notebook(a)), fraction), a)
            for a in ASSIGNMENTS for fraction in STUDENTS.values()]


def _keys(batch: list[tuple[dict, str]]) -> list[str]:
    return [_verdicts.verdict_key(nb, assignment) for nb, assignment in batch]


@pytest.mark.parametrize("edited", ["hidden/storage_strides/test.py",
                                    "hidden/storage_strides/strategies.py",
                                    "hidden/storage_strides/wrong_answers.py",
                                    "hidden/storage_strides/__init__.py"])
def test_an_edit_of_chapter_1s_own_files_judges_chapter_1_again_and_keeps_chapter_2(
        edited, monkeypatch):
    batch = _class()
    before = _keys(batch)
    real_read = Path.read_bytes
    target = _verdicts._GRADER / edited

    def read_bytes(path):
        return real_read(path) + b"\n# edited\n" if path == target else real_read(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(_verdicts, "_grader_digest",
                        functools.cache(_verdicts._grader_digest.__wrapped__))
    changed = [assignment for (_, assignment), old, new in zip(batch, before, _keys(batch))
               if old != new]
    # Before the key read chapters: all 6 notebooks judged again; now chapter 1's 3.
    assert changed == ["01_storage_strides"] * len(STUDENTS)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_another_chapters_file_counts_where_a_counted_file_imports_it(tmp_path):
    grader = tmp_path / "grader"
    _write(grader, {
        "hidden/a/test.py": "from grader.hidden.a import strategies\n",
        "hidden/b/test.py": "from grader.hidden.b import strategies\n",
        # a's strategies import b's, inside a function
        "hidden/a/strategies.py": "def draw():\n    from grader.hidden.b import strategies\n",
        "hidden/b/__init__.py": "",  # imported with b's strategies: the package first
        "hidden/b/strategies.py": "",
        "hidden/b/wrong_answers.py": "",
        "hidden/b/notes.py": "",  # in b's folder, imported by nothing of a's: b's alone
        "checks/b/__init__.py": "from ...givens.b import RULES\n",  # every chapter's checks
        "givens/b.py": "RULES = 1\n",
        "checks/answers.json": json.dumps({}),
    })
    counted = {str(p.relative_to(grader)) for p in verdict_sources(grader, "01_a")}
    assert counted == {"hidden/a/test.py", "hidden/a/strategies.py", "hidden/b/__init__.py",
                       "hidden/b/strategies.py", "checks/b/__init__.py", "givens/b.py",
                       "checks/answers.json"}
    assert {"hidden/b/test.py", "hidden/b/notes.py"} <= {
        str(p.relative_to(grader)) for p in verdict_sources(grader, "02_b")}
