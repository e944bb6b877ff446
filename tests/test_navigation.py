"""The way through the course (``grader/_navigation.py``): a start page with every chapter in
order, and a last cell in each lesson linking its exercises and the next lesson; written by
``make release``, never by hand, and every link leads to a file."""

import json

from conftest import COURSE

from grader import _navigation


def test_the_start_page_and_the_lessons_last_cells_are_as_release_writes_them():
    for path, text in _navigation.expected(COURSE).items():
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.name} drifted from its lessons: run `make release`"


def test_every_link_leads_to_a_file():
    for path in [COURSE.root / "course" / _navigation.START, *_navigation.lessons(COURSE)]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for target in _navigation.links(text):
            if "://" not in target and not target.startswith("#"):
                assert (path.parent / target).is_file(), f"{path.name} links to {target}"


def test_the_start_page_lists_every_lesson_in_order_with_its_time():
    start = json.loads((COURSE.root / "course" / _navigation.START).read_text())
    text = "".join(start["cells"][0]["source"])
    linked = [t for t in _navigation.links(text) if not t.startswith("..")]
    assert linked == [p.name for p in _navigation.lessons(COURSE)]
    assert text.count(" min |") == len(linked)


def test_each_lesson_ends_with_its_exercises_and_the_next_lesson():
    found = _navigation.lessons(COURSE)
    for lesson, following in zip(found, [*found[1:], None]):
        last = json.loads(lesson.read_text())["cells"][-1]
        targets = _navigation.links("".join(last["source"]))
        assert targets[0].endswith(f"/{lesson.stem}.ipynb") and targets[-1] == _navigation.START
        assert (following is None) == (len(targets) == 2)
