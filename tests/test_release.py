"""exercises/ is exactly what nbgrader generates from solutions/, and is clean."""

import subprocess
import sys

from conftest import COURSE, ROOT, load_notebook


def test_exercises_equal_a_fresh_release(assignment, tmp_path):
    cmd = [sys.executable, "-m", "nbgrader", "generate_assignment", assignment, "--force",
           "--no-db", f"--CourseDirectory.release_directory={tmp_path}"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    fresh = sorted(p.relative_to(tmp_path / assignment) for p in (tmp_path / assignment).rglob("*")
                   if p.is_file())
    committed = ROOT / "exercises" / assignment
    assert fresh == sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    for relative in fresh:
        expected = (tmp_path / assignment / relative).read_bytes()
        assert (committed / relative).read_bytes() == expected, \
            f"exercises/{assignment}/{relative} drifted: run `make release`"


def test_released_notebooks_hold_no_solutions_hidden_tests_or_outputs(assignment):
    text = COURSE.release_notebook(assignment).read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
    cells = load_notebook(COURSE.release_notebook(assignment))["cells"]
    assert not any(c.get("outputs") for c in cells if c["cell_type"] == "code")


def test_stubs_keep_their_docstrings(assignment):
    cells = load_notebook(COURSE.release_notebook(assignment))["cells"]
    answers = [c for c in cells if c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    assert answers and all('"""' in "".join(c["source"]) for c in answers)
    assert all("raise NotImplementedError()" in "".join(c["source"]) for c in answers)
