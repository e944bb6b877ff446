"""The student's dry run (``python -m grader validate NB``): points per exercise and a
total, an honest exit status, and nothing that gives a finite exercise's answers away; in
the student's language (a Chinese notebook, or ``TENSOR_ANATOMY_LANG``)."""

import json
import os
import shutil
import subprocess
import sys

from support import COURSE, ROOT, complete_notebook, load_notebook

from grader import _notebook
from grader._language import ENVIRONMENT, localized
from grader.batch._demo import synthetic_submission
from grader.batch._dry_run import AT_GRADING
from grader.bridge._verdict_text import NOT_ATTEMPTED, report_lines
from grader.translation import _exercises

ASSIGNMENT = "01_storage_strides"
WITHHELD = ["view_or_copy"]  # its finite answers are for grading to judge


def _points(path, judged: bool) -> dict[str, float]:
    """Each exercise's points, from its test cell: those a dry run judges, or the others."""
    cells = _notebook.exercise_cells(load_notebook(path))
    return {name: float(cell["metadata"]["nbgrader"]["points"]) for name, cell in cells.items()
            if (name not in WITHHELD) == judged}


def _validate(path, language: str | None = None) -> subprocess.CompletedProcess:
    """``validate`` on ``path``, ``$TENSOR_ANATOMY_LANG`` set to ``language`` or unset."""
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    return subprocess.run([sys.executable, "-m", "grader", "validate", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**env, ENVIRONMENT: language} if language else env)


def test_the_solution_validates_with_exit_0():
    source = COURSE.source_notebook(ASSIGNMENT)
    done = _validate(source)
    assert done.returncode == 0, done.stdout + done.stderr
    judged = _points(source, judged=True)
    assert f"{len(judged)} of {len(judged)} exercises judged here pass" in done.stdout
    total, later = sum(judged.values()), sum(_points(source, judged=False).values())
    assert f"  {total:g} / {total:g}, and {later:g} decided at grading\n" in done.stdout


def test_the_blank_stub_exits_1_and_says_not_attempted_yet():
    done = _validate(COURSE.release_notebook(ASSIGNMENT))
    assert done.returncode == 1
    judged = _points(COURSE.release_notebook(ASSIGNMENT), judged=True)
    assert done.stdout.count(NOT_ATTEMPTED) == len(judged), done.stdout
    assert f"\ncontiguous_strides  0 / {judged['contiguous_strides']:g}\n" in done.stdout


def test_a_finite_exercise_says_nothing_of_its_answers(tmp_path):
    """Two wrong entries of view_or_copy: no count, no points, no entry named."""
    nb = complete_notebook(ASSIGNMENT)
    answer = next(c for c in nb["cells"] if "def view_or_copy" in "".join(c["source"]))
    source = "".join(answer["source"])
    answer["source"] = source.replace('"x.t()": "view"', '"x.t()": "copy"').replace(
        '"x[:, 1]": "view"', '"x[:, 1]": "copy"')
    assert answer["source"] != source
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    (folder / "submission.ipynb").write_text(json.dumps(nb))
    done = _validate(folder / "submission.ipynb")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if "view_or_copy" in line]
    assert lines == [f"Hidden checks for view_or_copy: {AT_GRADING}", "view_or_copy        ? / 2"]
    assert "x.t()" not in done.stdout and "x[:, 1]" not in done.stdout


def test_a_broken_notebook_exits_2_with_a_message(tmp_path):
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    broken = folder / "submission.ipynb"
    broken.write_text("{ not json")
    done = _validate(broken)
    assert done.returncode == 2
    assert "could not grade" in done.stderr
    shutil.rmtree(folder)


# -- in the student's language ----------------------------------------------------------

CHINESE = "zh-CN"


def _chinese_release():
    return _exercises.release_folder(COURSE, CHINESE) / ASSIGNMENT / \
        COURSE.release_notebook(ASSIGNMENT).name


def _chinese_blank_lines(stdout: str) -> None:
    """What validate says of the blank stub, in Chinese: each line but the exercises' names
    and numbers."""
    judged = _points(COURSE.release_notebook(ASSIGNMENT), judged=True)
    stub = report_lines("x", {"passed": 0, "total": 1, "checks": [
        {"description": "a", "passed": False, "detail": "NotImplementedError"}]}, 1.0, CHINESE)
    assert stdout.count(stub[1] + "\n") == len(judged), stdout
    assert NOT_ATTEMPTED not in stdout and "Hidden checks for" not in stdout
    assert f"\ncontiguous_strides  0 / {judged['contiguous_strides']:g}\n" in stdout
    total, later = sum(judged.values()), sum(_points(COURSE.release_notebook(ASSIGNMENT),
                                                      judged=False).values())
    assert f"\n总计                0 / {total:g}，另有 {later:g} 分评分时判定\n" in stdout
    assert f"view_or_copy 的隐藏检查：{localized(AT_GRADING, 'validate', CHINESE)}" in stdout
    assert stdout.endswith(f"这里判定的 {len(judged)} 道习题中，有 0 道通过了全部隐藏检查\n")


def test_a_chinese_notebook_is_answered_in_chinese():
    done = _validate(_chinese_release())
    assert done.returncode == 1, done.stdout + done.stderr
    _chinese_blank_lines(done.stdout)


def test_the_setting_speaks_chinese_of_an_english_notebook_and_english_of_a_chinese_one():
    done = _validate(COURSE.release_notebook(ASSIGNMENT), CHINESE)
    assert done.returncode == 1
    _chinese_blank_lines(done.stdout)
    done = _validate(_chinese_release(), "en")
    assert done.stdout.count(NOT_ATTEMPTED) == len(_points(_chinese_release(), judged=True))


def test_a_chinese_solution_validates_with_exit_0_in_chinese(tmp_path):
    """The complete answers in the Chinese notebook, without the metadata the release wrote:
    its cells say it is Chinese."""
    catalog = _exercises.catalogues(COURSE, CHINESE)[ASSIGNMENT]
    source = _exercises.translated_source(COURSE, CHINESE, ASSIGNMENT, catalog)
    nb = synthetic_submission(load_notebook(_chinese_release()), source, 1.0)
    nb["metadata"].pop("tensor_anatomy")
    (tmp_path / ASSIGNMENT).mkdir()
    (tmp_path / ASSIGNMENT / "submission.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    done = _validate(tmp_path / ASSIGNMENT / "submission.ipynb")
    assert done.returncode == 0, done.stdout + done.stderr
    judged = _points(COURSE.source_notebook(ASSIGNMENT), judged=True)
    assert "contiguous_strides 的隐藏检查：4 项中通过 4 项 → 2 / 2 分\n" in done.stdout
    assert "  ✓ " in done.stdout and "Hidden checks" not in done.stdout
    assert done.stdout.endswith(f"有 {len(judged)} 道通过了全部隐藏检查\n")


def test_a_broken_notebook_says_so_in_the_language_set(tmp_path):
    (tmp_path / ASSIGNMENT).mkdir()
    broken = tmp_path / ASSIGNMENT / "submission.ipynb"
    broken.write_text("{ not json")
    done = _validate(broken, CHINESE)
    assert done.returncode == 2 and done.stderr.startswith(f"无法评分 {broken}：")
