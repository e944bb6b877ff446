"""The way through the course (``grader/_navigation.py``): a start page with every chapter in
order, and a last cell in each lesson linking its exercises and the next lesson; written by
``make release``, never by hand, and every link leads to a file."""

import json
import re

from support import COURSE, leads_somewhere

from grader import _language, _navigation


def test_the_start_page_and_the_lessons_last_cells_are_as_release_writes_them():
    for path, text in _navigation.expected(COURSE).items():
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.name} drifted from its lessons: run `make release`"


def test_every_link_leads_to_a_file_and_cell():
    released = [COURSE.release_notebook(a) for a in COURSE.assignments()]
    for path in [COURSE.root / "course" / _navigation.START, *_navigation.lessons(COURSE),
                 *released]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for target in _navigation.links(text):
            if "://" not in target and not target.startswith("#"):
                assert leads_somewhere(path, target), f"{path.name} links to {target}"
    assert not leads_somewhere(released[0], "../../course/01_storage_strides.ipynb#cell-id=nope")


def test_the_start_page_lists_every_lesson_in_order_with_its_time():
    start = json.loads((COURSE.root / "course" / _navigation.START).read_text())
    text = "".join(start["cells"][0]["source"])
    linked = [t for t in _navigation.links(text) if not t.startswith("..") and "#" not in t]
    assert linked == [p.name for p in _navigation.lessons(COURSE)]
    assert text.count(" min |") == len(linked)


def test_each_lesson_ends_with_its_exercises_and_the_next_lesson():
    found = _navigation.lessons(COURSE)
    for lesson, following in zip(found, [*found[1:], None]):
        last = json.loads(lesson.read_text())["cells"][-1]
        targets = _navigation.links("".join(last["source"]))
        assert targets[0].endswith(f"/{lesson.stem}.ipynb") and targets[-1] == _navigation.START
        assert (following is None) == (len(targets) == 2)


# -- each language's start page (grader/translation/_start.py) ------------------------------

def _translated_start_pages():
    from grader.translation import _layout

    return [(language, _layout.folder(COURSE, language) / _navigation.START)
            for language in _language.lesson_languages(COURSE)]


def _markdown_links(path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return _navigation.links("".join("".join(c["source"]) for c in cells
                                     if c["cell_type"] == "markdown"))


def test_each_language_has_a_start_page_with_its_lessons_in_order_and_its_exercises():
    """Made like the English one: a row per chapter, its lesson in that language (or the
    English one), the English times, the exercises released in that language (or the
    English ones); every link leads to a file and cell."""
    from grader.translation import _exercises, _layout

    english = json.loads((COURSE.root / "course" / _navigation.START).read_text())
    times = re.findall(r"(\d+) min\b", "".join(english["cells"][0]["source"]))
    assert _translated_start_pages()
    for language, start in _translated_start_pages():
        targets = _markdown_links(start)
        for target in targets:
            assert leads_somewhere(start, target), f"{language} start page links to {target}"
        lessons = [t for t in targets if "#" not in t and "exercises/" not in t
                   and t != f"../{_navigation.START}"]
        assert [t.rpartition("/")[2] for t in lessons] == \
            [p.name for p in _navigation.lessons(COURSE)]
        released = [_exercises.release_folder(COURSE, language) / p.stem / f"{p.stem}.ipynb"
                    for p in _navigation.lessons(COURSE)]
        assert [(start.parent / t).resolve() for t in targets if "exercises/" in t] == \
            [path.resolve() if path.is_file() else COURSE.release_notebook(path.parent.name)
             for path in released]
        minutes = _layout.language_file(COURSE, language)["start"]["minutes"]
        said = re.escape(minutes).replace(re.escape("{minutes}"), r"(\d+)")
        assert re.findall(said, "".join(json.loads(start.read_text())["cells"][0]["source"])) \
            == times


def test_each_translated_lesson_ends_with_its_exercises_and_its_languages_start_page():
    from grader.translation import _exercises

    for language, start in _translated_start_pages():
        released = _exercises.release_folder(COURSE, language)
        for lesson in sorted(start.parent.glob("[0-9][0-9]_*.ipynb")):
            if lesson.name == _navigation.START:
                continue
            last = json.loads(lesson.read_text())["cells"][-1]
            targets = _navigation.links("".join(last["source"]))
            assert targets[-1] == _navigation.START, lesson.name
            assert (lesson.parent / targets[0]).resolve() == \
                (released / lesson.stem / f"{lesson.stem}.ipynb").resolve(), lesson.name
