"""exercises/ is exactly what nbgrader generates from solutions/, and is clean."""

import json
import os
import subprocess
import sys
import warnings

from support import COURSE, ROOT, load_notebook


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
        found = (committed / relative).read_bytes()
        drifted = f"exercises/{assignment}/{relative} drifted: run `make release`"
        if os.environ.get("CI") == "true" or relative.suffix != ".ipynb":
            assert found == expected, drifted  # a clean clone holds exactly the release
        elif found != expected:
            # Opened and saved (or validated) in JupyterLab, which writes its own metadata
            # and layout: not drift, unless what a student is given changed.
            assert _given(found) == _given(expected), drifted
            warnings.warn(f"exercises/{assignment}/{relative} was saved by JupyterLab "
                          "(same cells, other metadata); `make release` restores it",
                          stacklevel=1)


def _given(text: bytes) -> list[tuple]:
    """What a released notebook gives a student: each cell's kind, id, source, nbgrader
    metadata, and outputs."""
    cells = json.loads(text)["cells"]
    return [(c["cell_type"], c.get("id"), "".join(c["source"]),
             json.dumps(c["metadata"].get("nbgrader"), sort_keys=True), c.get("outputs"))
            for c in cells]


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
