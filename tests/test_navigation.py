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


def _leads_somewhere(path, target: str) -> bool:
    """A file, and where the link names a cell (``#cell-id=``), a cell of that notebook."""
    file, _, fragment = target.partition("#")
    found = (path.parent / file).resolve()
    if not found.is_file():
        return False
    cell_id = fragment.removeprefix("cell-id=")
    return not fragment or cell_id in {c.get("id") for c in json.loads(found.read_text())["cells"]}


def test_every_link_leads_to_a_file_and_cell():
    released = [COURSE.release_notebook(a) for a in COURSE.assignments()]
    for path in [COURSE.root / "course" / _navigation.START, *_navigation.lessons(COURSE),
                 *released]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for target in _navigation.links(text):
            if "://" not in target and not target.startswith("#"):
                assert _leads_somewhere(path, target), f"{path.name} links to {target}"
    assert not _leads_somewhere(released[0], "../../course/01_storage_strides.ipynb#cell-id=nope")


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
