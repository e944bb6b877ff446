"""The graded exercises in other languages (``grader/translation/_exercises.py``): does each
catalogue translate its assignment as it is now, is each translated release what release
writes, with the English code, cells, grade ids and points, does the glossary hold, does the
kernel learn its language, and does no catalogue hold an answer? Grading them:
``test_translated_grading.py``.
"""

import ast
import json
import re
import subprocess
import sys
from collections import Counter

import pytest
from support import COURSE, ROOT, leads_somewhere, load_notebook, solution_bodies

from grader import _authoring, _navigation, _notebook
from grader._language import exercise_languages
from grader.translation import _docstrings, _exercises, _glossary, _layout, _merge, _pofile
from grader.translation._catalogue import problems, translations

LANGUAGES = exercise_languages(COURSE)
CATALOGUED = [(language, assignment) for language in LANGUAGES
              for assignment in _exercises.catalogues(COURSE, language)]
RELEASED = [(language, assignment) for language in LANGUAGES
            for assignment in _exercises.complete(COURSE, language)]


def _id(case) -> str:
    return "/".join(case) if isinstance(case, tuple) else str(case)


def _translated_release(language: str, assignment: str) -> dict:
    return load_notebook(_exercises.release_folder(COURSE, language) / assignment
                         / COURSE.release_notebook(assignment).name)


def test_the_chinese_edition_has_every_assignment():
    assert {a for language, a in RELEASED if language == "zh-CN"} == set(COURSE.assignments())


def test_nbgrader_takes_no_language_folder_for_an_assignment():
    """nbgrader lists every folder of its source directory as an assignment (the Formgrader
    shows them all): the translated sources are never stored there, and ``exercises/zh-CN``
    is no assignment of ours."""
    script = ("from nbgrader.apps import NbGraderAPI\n"
              "from traitlets.config.loader import PyFileConfigLoader\n"
              "config = PyFileConfigLoader('nbgrader_config.py', path='.').load_config()\n"
              "print(sorted(NbGraderAPI(config=config).get_source_assignments()))")
    listed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    assert listed.strip() == repr(sorted(COURSE.assignments()))
    assert not set(LANGUAGES) & set(COURSE.assignments())


# -- the catalogues -----------------------------------------------------------------------

@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_each_exercise_catalogue_translates_its_assignment_as_it_is_now(case):
    language, assignment = case
    view = _exercises.text_view(load_notebook(COURSE.source_notebook(assignment)))
    found = problems(view, _exercises.catalogues(COURSE, language)[assignment])
    assert not found, (f"{language}/{assignment}: {found}; run `python -m grader.translation "
                       "update`, translate the entries, then `make translations`")


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_each_exercise_catalogue_is_as_update_writes_it(case):
    language, assignment = case
    path = _exercises.catalogue_path(COURSE, language, assignment)
    view = _exercises.text_view(load_notebook(COURSE.source_notebook(assignment)))
    assert _pofile.dumps(_merge.merged(view, _pofile.read(path))) == \
        path.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_holds_an_answer(language):
    """Catalogues ship with the student edition: no line of a solution is in one."""
    bodies = [" ".join(body.split()) for assignment in COURSE.assignments()
              for body in solution_bodies(assignment)]
    for path in (_exercises.release_folder(COURSE, language) / "po").glob("*.po"):
        flat = " ".join(path.read_text(encoding="utf-8").split())
        assert not [body for body in bodies if body in flat], path


def _docstring_prose(text: str) -> str:
    """A docstring less its argument names (``shape: ...``) and its examples: code."""
    text = text.split("Example:")[0]
    return re.sub(r"^(\s*)\w+(?:, \w+)*:", r"\1", text, flags=re.M)


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_the_glossary_holds_in_a_translated_exercise(case):
    language, assignment = case
    glossary = _layout.language_file(COURSE, language)["glossary"]
    glossed = Counter()
    for key, entry in translations(_exercises.catalogues(COURSE, language)[assignment]).items():
        text = _docstring_prose(entry.string) if key.endswith(".__doc__") else entry.string
        assert not _glossary.untranslated(text, glossary), (key, _glossary.untranslated(
            text, glossary))
        glossed += _glossary.glosses(text, glossary)
    assert all(n == 1 for n in glossed.values()), glossed


# -- the released notebooks ---------------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_exercises_are_what_release_writes(language, tmp_path):
    complete = sorted(_exercises.complete(COURSE, language))
    folder = _exercises.release_folder(COURSE, language)
    on_disk = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "po")
    assert on_disk == complete, "a release without its complete catalogue, or the reverse"
    assert _exercises.release(COURSE, language, complete, into=tmp_path) == 0
    for assignment in complete:
        fresh = sorted(p.relative_to(tmp_path) for p in (tmp_path / assignment).rglob("*"))
        assert fresh == sorted(p.relative_to(folder) for p in (folder / assignment).rglob("*"))
        for relative in fresh:
            assert (folder / relative).read_bytes() == (tmp_path / relative).read_bytes(), \
                f"exercises/{language}/{relative} drifted: run `make translations`"


def _shape(nb: dict) -> list[tuple]:
    """Each cell's id, kind and nbgrader metadata but its checksum (of its text)."""
    return [(c["id"], c["cell_type"], json.dumps(
        {k: v for k, v in c["metadata"].get("nbgrader", {}).items() if k != "checksum"},
        sort_keys=True)) for c in nb["cells"]]


@pytest.mark.parametrize("case", RELEASED, ids=_id)
def test_a_translated_exercise_has_the_english_code_cells_and_points(case):
    language, assignment = case
    english = load_notebook(COURSE.release_notebook(assignment))
    translated = _translated_release(language, assignment)
    assert _shape(translated) == _shape(english)
    assert translated["metadata"]["tensor_anatomy"]["language"] == language
    for mine, theirs in zip(translated["cells"], english["cells"]):
        if mine["cell_type"] != "code":
            continue
        text = _notebook.source(mine)
        if mine["metadata"]["nbgrader"].get("grade_id") == _exercises.SETUP_ID:
            text = text.removeprefix(_exercises.language_line(language))
        elif mine["metadata"]["nbgrader"].get("solution"):
            ast.parse(text)
            theirs_said = _docstrings.docstrings(_notebook.source(theirs))
            text = _docstrings.with_docstrings(text, theirs_said)
        assert text == _notebook.source(theirs), mine["id"]


_TASK = re.compile(r"^## (\d+)\. .*（(\d+) 分）$", re.M)


@pytest.mark.parametrize("case", RELEASED, ids=_id)
def test_the_intro_table_and_headings_keep_the_names_numbers_and_points(case):
    """What ``make release`` writes into the English text from the test cells, the
    translation says too: ``| N | `name` ... | P |`` and ``## N. ...（P 分）``."""
    language, assignment = case
    translated = _translated_release(language, assignment)
    exercises = _authoring._exercises(load_notebook(COURSE.release_notebook(assignment)))
    markdown = "\n".join(_notebook.source(c) for c in translated["cells"]
                         if c["cell_type"] == "markdown")
    rows = re.findall(r"^\| (\d+) \| `(\w+)`.* \| (\d+) \|$", markdown, re.M)
    assert rows == [(str(n), name, str(p)) for n, (name, p) in enumerate(exercises, 1)]
    assert _TASK.findall(markdown) == [(str(n), str(p)) for n, (_, p) in enumerate(exercises, 1)]


@pytest.mark.parametrize("case", RELEASED, ids=_id)
def test_every_link_of_a_translated_exercise_leads_to_a_file_and_cell(case):
    language, assignment = case
    path = _exercises.release_folder(COURSE, language) / assignment / \
        COURSE.release_notebook(assignment).name
    markdown = "".join(_notebook.source(c) for c in load_notebook(path)["cells"]
                       if c["cell_type"] == "markdown")
    targets = [t for t in _navigation.links(markdown) if "://" not in t and not t.startswith("#")]
    assert targets
    for target in targets:
        assert leads_somewhere(path, target), f"{path.name} links to {target}"


def test_a_task_links_the_translated_lesson_where_there_is_one():
    nb = _exercises.translated_source(COURSE, "zh-CN", "01_storage_strides", _exercises.catalogues(
        COURSE, "zh-CN")["01_storage_strides"])
    words = _layout.language_file(COURSE, "zh-CN")["exercises"]
    task = next(_notebook.source(c) for c in nb["cells"] if c["id"] == "23d51c8c")
    assert task.endswith(f"{words['read_first']} [核心：你必须掌握的内容]"
                         "(../../../course/zh-CN/01_storage_strides.ipynb#cell-id=core) · "
                         "[深入专题 4 · 行优先步长，以及 `is_contiguous()` 真正检查的是什么]"
                         "(../../../course/zh-CN/01_storage_strides.ipynb#cell-id=md-13)")


def test_a_task_links_the_english_lesson_where_no_translated_one_is(monkeypatch):
    monkeypatch.setattr(_layout, "translated_path",
                        lambda course, language, lesson: ROOT / "nowhere" / lesson.name)
    nb = _exercises.translated_source(COURSE, "zh-CN", "01_storage_strides", _exercises.catalogues(
        COURSE, "zh-CN")["01_storage_strides"])
    words = _layout.language_file(COURSE, "zh-CN")["exercises"]
    task = next(_notebook.source(c) for c in nb["cells"] if c["id"] == "23d51c8c")
    assert f"{words['read_first_in_english']} [The core: what you must know]" \
           "(../../../course/01_storage_strides.ipynb#cell-id=core)" in task


def test_the_kernel_of_a_fetched_translated_exercise_knows_its_language(tmp_path, monkeypatch):
    """A fetched assignment is ``<course id>/<assignment>/``: no ``zh-CN`` folder tells the
    kernel its language, so the setup cell does (``anatomy_widgets._language.language()``
    is what the public checks and widgets speak)."""
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.delenv(_exercises.LANGUAGE_VARIABLE, raising=False)  # the kernel inherits ours
    language, assignment = RELEASED[0]
    nb = _translated_release(language, assignment)
    setup = next(c for c in nb["cells"]
                 if c["metadata"].get("nbgrader", {}).get("grade_id") == _exercises.SETUP_ID)
    probe = {"cell_type": "code", "id": "probe", "metadata": {}, "outputs": [],
             "execution_count": None,
             "source": "from anatomy_widgets._language import language\nprint(language())"}
    folder = tmp_path / "tensor-anatomy" / assignment
    folder.mkdir(parents=True)
    ran = nbformat.reads(json.dumps({**nb, "cells": [setup, probe]}), as_version=4)
    NotebookClient(ran, timeout=120, resources={"metadata": {"path": str(folder)}}).execute()
    assert ran.cells[-1].outputs[0]["text"].strip() == language


# -- docstrings -----------------------------------------------------------------------------

SOURCE = '''\
class Pair(torch.autograd.Function):
    """Twice ``x``.

    Returns: a tensor — its écart.
    """

    @staticmethod
    def forward(ctx, x):
        """Forward's own, é."""
        ### BEGIN SOLUTION
        def helper():
            """Inside the answer: never translated."""
        return 2 * x
        ### END SOLUTION


def pair(x): return Pair.apply(x)  # no docstring


def odd(x):
    r'one line, raw'
'''


def test_the_docstrings_given_to_the_student_are_found_and_replaced_alone():
    found = _docstrings.docstrings(SOURCE)
    assert found == {"Pair": "Twice ``x``.\n\n    Returns: a tensor — its écart.\n    ",
                     "Pair.forward": "Forward's own, é.", "odd": "one line, raw"}
    translated = _docstrings.with_docstrings(SOURCE, {"Pair": "两倍的 ``x``。\n    ",
                                                      "Pair.forward": "前向：é。"})
    assert '"""两倍的 ``x``。\n    """' in translated and '"""前向：é。"""' in translated
    assert _docstrings.with_docstrings(translated, found) == SOURCE
    answer = {"cell_type": "code", "id": "c", "source": SOURCE,
              "metadata": {"nbgrader": {"solution": True}}}
    assert _exercises.text_view({"cells": [answer]})["cells"] == [
        {"cell_type": "markdown", "id": f"c:{name}.__doc__", "metadata": {}, "source": doc}
        for name, doc in found.items()]


def test_answer_cells_give_each_docstring_once_and_none_from_a_solution():
    for assignment in COURSE.assignments():
        source = load_notebook(COURSE.source_notebook(assignment))
        released = load_notebook(COURSE.release_notebook(assignment))
        answers = [c for c in source["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
        stubs = {c["id"]: _notebook.source(c) for c in released["cells"]}
        for cell in answers:
            found = _docstrings.docstrings(_notebook.source(cell))
            assert found and found == _docstrings.docstrings(stubs[cell["id"]]), cell["id"]
    assert len(_notebook.exercise_cells(released)) > 0
