"""The student edition (``make student-edition``, ``grader/edition``): the course without an
answer in it, that students clone, set up and test with two commands of its own."""

import json
import os
import re
import site
import subprocess
import sys

import pytest
from support import ASSIGNMENTS, COURSE, ROOT, leads_somewhere, load_notebook, solution_bodies

from grader import _notebook, edition
from grader._language import ENGLISH, lesson_languages, localized
from grader.checks import _digests, exercise_names
from grader.edition import _files


def registered_exercises() -> list[str]:
    return sorted(exercise_names())

MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS")


LANGUAGES = [ENGLISH, *lesson_languages(COURSE)]  # an edition for students of each


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("edition") / "tensor-anatomy-student"
    edition.build(COURSE, out)
    return out


@pytest.fixture(scope="module", params=LANGUAGES)
def built_in(request, tmp_path_factory):
    """The edition for students of each language: (language, its folder)."""
    out = tmp_path_factory.mktemp(f"edition-{request.param}") / "tensor-anatomy-student"
    edition.build(COURSE, out, language=request.param)
    return request.param, out


def _texts(folder):
    for path in folder.rglob("*"):
        if path.is_file() and ".git" not in path.relative_to(folder).parts:
            yield path, path.read_text(encoding="utf-8", errors="replace")


def test_it_is_a_git_repository_with_the_course_and_the_exercises(built):
    log = subprocess.run(["git", "log", "--oneline"], cwd=built, capture_output=True, text=True,
                         check=True).stdout
    assert len(log.splitlines()) == 1
    for assignment in ASSIGNMENTS:
        assert (built / "exercises" / assignment / COURSE.release_notebook(assignment).name
                ).is_file()
    assert sorted(p.name for p in (built / "course").glob("*.ipynb")) == \
        sorted(p.name for p in (ROOT / "course").glob("*.ipynb"))
    assert {"README.md", "Makefile", "requirements.txt"} <= {p.name for p in built.iterdir()}


def test_it_holds_no_solution_marker_no_solution_and_no_grading_code(built_in):
    _, built = built_in
    texts = dict(_texts(built))
    for path, text in texts.items():
        assert not any(marker in text for marker in MARKERS), path
    bodies = [body for assignment in ASSIGNMENTS for body in solution_bodies(assignment)]
    assert len(bodies) >= 30  # the check below has something to find
    for path, text in texts.items():
        flat = " ".join(text.split())
        assert not [b for b in bodies if " ".join(b.split()) in flat], path
    for absent in ("solutions", "tests", "instructor", "grader/hidden", "grader/judge",
                   "grader/batch", "grader/bridge", "grader/scaffold",
                   "grader/checks/_finite_answers.py", "grader/checks/pitfalls/_claims.py"):
        assert not (built / absent).exists(), absent


def test_it_holds_no_table_of_finite_answers(built_in):
    """Not torch's answers, and not their digests: a digest of a two-way answer is the
    answer to anyone who hashes both ways."""
    _, built = built_in
    table = json.loads((built / "grader/checks/answer_digests.json").read_text())
    assert table == {"withheld": sorted(_digests.finite_exercises())}
    for path, text in _texts(built):
        assert _digests._table()["salt"] not in text, path


def test_its_public_checks_run_on_the_solutions_and_withhold_finite_answers(built):
    """In the edition alone (nothing of this checkout importable), ``check`` passes every
    solution, and for a finite answer judges only its form."""
    script = (
        "import json, sys\n"
        "from grader.checks import check\n"
        "for source in json.loads(sys.stdin.read()):\n"
        "    namespace = {}\n"
        "    exec(source, namespace)\n"
        "    for name in namespace.pop('__names__'):\n"
        "        check(namespace[name])\n")
    sources = []
    for assignment in ASSIGNMENTS:
        nb = load_notebook(COURSE.source_notebook(assignment))
        names = [c["metadata"]["nbgrader"]["grade_id"].removesuffix("_answer")
                 for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
        # Every code cell but the test cells, as the judge runs them: setup and answers.
        sources.append("\n\n".join([*_notebook.code_cells(nb), f"__names__ = {names!r}"]))
    env = {**os.environ, "PYTHONPATH": str(built), "PYTHONSAFEPATH": "1"}
    done = subprocess.run([sys.executable, "-c", script], cwd=built, env=env, text=True,
                          input=json.dumps(sources), capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    for name in _digests.finite_exercises():
        assert any(line.startswith(f"✓ {name}: the form of") for line in lines), lines
    assert sum(line.startswith("✓") for line in lines) == len(registered_exercises())


def _edition_venv(built):
    """A venv for the edition that sees this checkout's installed packages (so that its
    ``pip install -r requirements.txt`` finds them all, offline), not this checkout."""
    venv = built / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    lib = next(venv.glob("lib/python*/site-packages"))
    packages = [p for p in site.getsitepackages() if p.endswith("site-packages")]
    (lib / "course-packages.pth").write_text("\n".join(packages) + "\n", encoding="utf-8")
    return venv


@pytest.mark.heavy  # minutes: scheduled first
def test_its_own_make_test_reruns_every_lesson_in_a_fresh_folder(built, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(built), str(clone)], check=True)
    _edition_venv(clone)
    # Nothing of this run's: a judge run in this process earlier set pytest's autoload off.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    # Its own set-up runs too, on the interpreter this checkout's venv was made from.
    done = subprocess.run(["make", "test", f"PYTHON={sys._base_executable}"], cwd=clone,
                          env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert re.search(r"\b\d+ passed\b", done.stdout) and " failed" not in done.stdout
    # Its set-up hid the instructor's tools: the lab extensions and the server extension.
    config = clone / ".venv" / "etc" / "jupyter"
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert page["disabledExtensions"] == {"@jupyter/nbgrader:formgrader": True,
                                          "@jupyter/nbgrader:create-assignment": True}
    server = json.loads((config / "jupyter_server_config.d" / "zz-student-edition.json"
                         ).read_text())
    assert server["ServerApp"]["jpserver_extensions"] == {
        "nbgrader.server_extensions.formgrader": False}


# -- an edition in each language ------------------------------------------------------------

def test_every_link_of_its_pages_leads_to_a_file_and_cell_of_the_edition(built_in):
    language, built = built_in
    pages = sorted((built / "course").rglob("*.ipynb")) + \
        sorted((built / "exercises").rglob("*.ipynb"))
    assert len(pages) > 2 * len(ASSIGNMENTS)
    for page in pages:
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for target in re.findall(r"\]\(([^)]+)\)", text):
            if "://" not in target and not target.startswith("#"):
                assert leads_somewhere(page, target), f"{page.relative_to(built)}: {target}"


def _lab_command(built) -> str:
    """What ``make lab`` runs (``make -n``: said, not run)."""
    done = subprocess.run(["make", "-n", "lab", "PYTHON=true"], cwd=built, capture_output=True,
                          text=True, check=True)
    lines = done.stdout.replace("\\\n", " ").splitlines()
    return next(line for line in lines if "jupyterlab " in line)


def test_make_lab_opens_the_start_page_of_its_language(built_in):
    language, built = built_in
    start = _files.start_page(language)
    assert f"--LabApp.default_url=/lab/tree/{start}" in _lab_command(built)
    assert (built / start).is_file()
    first = json.loads((built / start).read_text(encoding="utf-8"))["cells"][0]
    assert json.loads((COURSE.root / start).read_text(encoding="utf-8"))["cells"][0] == first


def test_its_readme_is_the_template_in_its_language(built_in):
    """Every block of the English README's template, translated (code blocks too, their
    comments), naming that language's lessons, start page and exercises, which exist."""
    language, built = built_in
    readme = (built / "README.md").read_text(encoding="utf-8")
    for block in _files._README:
        said = localized(block, "edition", language)
        if said != block or language == ENGLISH:
            head = said.split("{")[0]
            assert head in readme, (language, head)
        if language != ENGLISH and "{" not in block and block != said:
            assert block not in readme, block
    folder = "course" if language == ENGLISH else f"course/{language}"
    named = re.findall(r"`((?:course|exercises)/[^`]*)`", readme)
    assert {f"{folder}/", _files.start_page(language)} <= set(named)
    for path in named:
        assert (built / path).exists(), path
    assert {p for p in named if p.endswith(".ipynb")} == \
        {f"{folder}/{p.name}" for p in (COURSE.root / folder).glob("*.ipynb")}
    log = subprocess.run(["git", "log", "--format=%s"], cwd=built, capture_output=True,
                         text=True, check=True).stdout
    assert log.strip() == "Tensor Anatomy, student edition" + \
        ("" if language == ENGLISH else f" ({language})")


def test_a_language_without_its_pages_gets_no_edition(tmp_path):
    with pytest.raises(FileNotFoundError, match="grader.translation build"):
        edition.build(COURSE, tmp_path / "out", language="fr")
    done = subprocess.run([sys.executable, "-m", "grader.cli", "student-edition",
                           str(tmp_path / "out"), "--language", "fr"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "no fr edition" in done.stderr
