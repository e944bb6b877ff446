"""The course in other languages (``grader/translation``): does every catalogue translate
its English lesson as it is now, is each generated lesson what ``build`` writes, with the
English code, and does the glossary hold in its prose? And is each way a catalogue falls
behind its lesson caught, and does ``update`` keep every translation?

nbval re-proves the generated lessons' outputs (``make test`` runs it on ``course``, so on
``course/zh-CN`` too); ``test_nbval_collects_the_translated_lessons`` checks that it does.
"""

import copy
import subprocess
import sys
from collections import Counter

import pytest
from support import COURSE, ROOT

from grader import _navigation, translation
from grader._language import lesson_languages
from grader.translation import _build, _catalogue, _glossary, _layout, _merge, _pofile, _runtime
from grader.translation._catalogue import problems, translations

LANGUAGES = lesson_languages(COURSE)
CATALOGUED = [(language, lesson) for language in LANGUAGES
              for lesson in translation.catalogues(COURSE, language)]
PILOT = ROOT / "course" / "01_storage_strides.ipynb"


def _id(case) -> str:
    return f"{case[0]}/{case[1].stem}" if isinstance(case, tuple) else str(case)


def test_the_chinese_edition_has_its_pilot_chapter():
    assert ("zh-CN", PILOT) in CATALOGUED


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_each_catalogue_translates_its_lesson_as_it_is_now(case):
    language, lesson = case
    catalog = translation.catalogues(COURSE, language)[lesson]
    assert not problems(_build.load(lesson), catalog), (
        f"{language}/{lesson.stem}: {problems(_build.load(lesson), catalog)}; run "
        "`python -m grader.translation update`, translate the entries, then `build`")


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_each_catalogue_is_as_update_writes_it(case):
    """Nothing for ``update`` to do: the committed .po is its output, byte for byte."""
    language, lesson = case
    path = _layout.catalogue_path(COURSE, language, lesson)
    fresh = _merge.merged(_build.load(lesson), _pofile.read(path))
    assert _pofile.dumps(fresh) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_generated_lesson_is_what_build_writes(language):
    expected = translation.expected(COURSE, language)
    on_disk = sorted(_layout.folder(COURSE, language).glob("*.ipynb"))
    assert on_disk == sorted(expected), "a generated lesson without its complete catalogue"
    lessons = {lesson.stem for lesson in translation.catalogues(COURSE, language)}
    stray = {p.stem for p in (_layout.folder(COURSE, language) / "po").glob("*.po")} - lessons
    assert not stray, f"catalogues of no lesson: {stray}"
    for path, nb in expected.items():
        assert translation.skeleton(_build.load(path)) == translation.skeleton(nb), \
            f"{path.name} is not what its catalogue says: run `python -m grader.translation build`"


def _code(nb: dict) -> list:
    return [(c["id"], c["source"], c["metadata"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_a_generated_lesson_runs_the_english_code(case):
    language, lesson = case
    english = _build.load(lesson)
    translated = _build.load(_layout.translated_path(COURSE, language, lesson))
    assert _code(translated) == _code(english)
    assert [(c["id"], c["cell_type"]) for c in translated["cells"]] == \
        [(c["id"], c["cell_type"]) for c in english["cells"]]
    assert translated["metadata"]["tensor_anatomy"]["language"] == language


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_every_link_of_a_generated_lesson_leads_to_a_file(case):
    language, lesson = case
    path = _layout.translated_path(COURSE, language, lesson)
    cells = _build.load(path)["cells"]
    assert cells[-1]["id"] == _navigation.NAVIGATION_ID
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for target in _navigation.links(text):
        if "://" not in target and not target.startswith("#"):
            assert (path.parent / target.partition("#")[0]).is_file(), f"{path.name}: {target}"


def test_the_start_page_lists_the_english_lessons_only():
    assert all(p.parent == ROOT / "course" for p in _navigation.lessons(COURSE))


# -- the glossary -----------------------------------------------------------------------

def _glossary_of(language: str) -> dict[str, str]:
    return _layout.language_file(COURSE, language)["glossary"]


@pytest.mark.parametrize("case", CATALOGUED, ids=_id)
def test_the_glossary_holds_in_a_translated_lesson(case):
    """No listed English term in the prose (the navigation cell names an untranslated
    next lesson by its English title, so only catalogue text is read), and each term
    glossed ``中文（English）`` at most once."""
    language, lesson = case
    glossary = _glossary_of(language)
    entries = translations(translation.catalogues(COURSE, language)[lesson])
    for cell_id, entry in entries.items():
        assert not _glossary.untranslated(entry.string, glossary), cell_id
    glossed = sum((_glossary.glosses(e.string, glossary) for e in entries.values()),
                  start=Counter())
    assert all(n == 1 for n in glossed.values()), glossed


ZH = {"stride": "步长", "leaf tensor": "叶子张量", "tensor": "张量", "copy": "副本"}


@pytest.mark.parametrize("text, found", [
    ("张量的 stride 是 `(4, 1)`。", ["stride"]),
    ("张量的Strides与", ["Strides"]),            # no space, capitals, plural
    ("三个 copies。", ["copies"]),
    ("步长(stride)", ["stride"]),                # half-width parentheses are no gloss
    ("偏移（stride）", ["stride"]),              # a gloss of another word is none
    ("步长（stride）与步长", []),
    ("叶子张量（leaf tensor）", []),
    ("`x.stride()` 与 ``a `stride` b``", []),    # code spans
    ("```python\nx.stride()\n```\n步长", []),     # a code block
    ("$$\\text{stride}_k$$ 与 $i \\cdot stride$", []),  # maths
    ("[步长](stride.ipynb#tensor)", []),          # a link target
    ("[stride](a.ipynb)", ["stride"]),            # but not its text
    ("strides_k 和 stridefoo", []),               # other words
])
def test_the_glossary_check_catches_english_outside_code(text, found):
    assert _glossary.untranslated(text, ZH) == found


def test_a_second_gloss_is_counted():
    assert _glossary.glosses("步长（stride），步长（strides）", ZH) == {"stride": 2}


# -- doctored lessons: each problem is caught, and update keeps every translation -----

def _pilot() -> tuple[dict, object]:
    return _build.load(PILOT), translation.catalogues(COURSE, "zh-CN")[PILOT]


def _cell(nb: dict, cell_id: str) -> dict:
    return next(c for c in nb["cells"] if c.get("id") == cell_id)


def _doctored() -> dict:
    """The pilot with md-03 changed, md-04 removed, md-05 re-made as md-05b, one new cell."""
    nb = copy.deepcopy(_pilot()[0])
    _cell(nb, "md-03")["source"] = ["## Deep dive 2 · Three layers, rewritten"]
    nb["cells"].remove(_cell(nb, "md-04"))
    _cell(nb, "md-05")["id"] = "md-05b"
    nb["cells"].insert(3, {"cell_type": "markdown", "id": "new-cell", "metadata": {},
                           "source": ["A new paragraph."]})
    return nb


def test_each_problem_kind_is_caught():
    nb, catalog = _doctored(), _pilot()[1]
    assert problems(nb, catalog) == translation.Problems(
        missing=("new-cell", "md-05b"), stale=("md-03",), orphan=("md-04", "md-05"))


def test_a_fuzzy_entry_is_stale_until_a_translator_clears_it():
    nb, catalog = _pilot()
    entry = translations(catalog)["md-03"]
    entry.flags.add("fuzzy")
    assert problems(nb, catalog).stale == ("md-03",)


def _every_translation(catalog) -> set[str]:
    return {m.string for m in [*catalog, *catalog.obsolete.values()] if m.id and m.string}


def test_update_keeps_every_translation():
    nb, catalog = _doctored(), _pilot()[1]
    before = translations(catalog)
    fresh = _pofile.loads(_pofile.dumps(_merge.merged(nb, catalog)))  # through the file
    after = translations(fresh)
    assert _every_translation(fresh) >= _every_translation(catalog)
    changed = after["md-03"]
    assert changed.fuzzy and changed.string == before["md-03"].string
    assert changed.previous_id == [before["md-03"].id]
    assert after["md-05b"].string == before["md-05"].string and not after["md-05b"].fuzzy
    assert after["new-cell"].string == "" and list(after)[:4] == ["md-01", "md-02", "new-cell",
                                                                  "core"]
    assert [m.context for m in fresh.obsolete.values()] == ["md-04"]
    assert problems(nb, fresh) == translation.Problems(missing=("new-cell",), stale=("md-03",))


def test_a_second_change_keeps_the_first_previous_msgid_and_a_removed_cell_comes_back():
    nb, catalog = _doctored(), _pilot()[1]
    once = _merge.merged(nb, catalog)
    _cell(nb, "md-03")["source"] = ["## Deep dive 2 · Rewritten again"]
    nb["cells"].insert(5, copy.deepcopy(_cell(_pilot()[0], "md-04")))
    twice = translations(_merge.merged(nb, once))
    assert twice["md-03"].previous_id == [translations(catalog)["md-03"].id]
    assert twice["md-04"].string == translations(catalog)["md-04"].string


def test_a_previous_msgid_is_written_as_gnu_gettext_writes_it():
    catalog = _pofile.new("zh-CN", "x")
    entry = _pofile.message("c", "new\n\n\ntext", "译文", fuzzy=True, previous="old\n\n\ntext")
    catalog[entry.id] = entry
    text = _pofile.dumps(catalog)
    assert '#| msgid ""\n#| "old\\n"\n#| "\\n"\n#| "\\n"\n#| "text"\nmsgctxt "c"\n' in text
    assert translations(_pofile.loads(text))["c"].previous_id == ["old\n\n\ntext"]
    one_line = text.replace('#| msgid ""\n#| "old\\n"\n#| "\\n"\n#| "\\n"\n#| "text"',
                            '#| msgid "" "old\\n" "\\n" "\\n" "text"')
    assert translations(_pofile.loads(one_line))["c"].previous_id == ["old\n\n\ntext"]


def test_markdown_is_not_flagged_as_a_format_string():
    catalog = _pofile.new("zh-CN", "x")
    entry = _pofile.message("c", "50% of {x}", "{x} 的 50%")
    catalog[entry.id] = entry
    assert "#, python" not in _pofile.dumps(catalog)


def test_nbval_collects_the_translated_lessons():
    """``make test`` runs nbval on ``course``: it finds each generated lesson there, with
    the sanitizer file it names."""
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--nbval course --nbval-sanitize-with course/nbval_sanitize.cfg" in make
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
         "--nbval", "course", "--nbval-sanitize-with", "course/nbval_sanitize.cfg"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for language, lesson in CATALOGUED:
        assert f"course/{language}/{lesson.name}::Cell 0" in listed


# -- printed templates: say("...") in code cells ------------------------------------------

def _code_cell(cell_id: str, text: str) -> dict:
    return {"cell_type": "code", "id": cell_id, "metadata": {}, "outputs": [],
            "execution_count": None, "source": text.splitlines(keepends=True)}


def _speaking() -> dict:
    """A lesson whose code prints two templates, one chosen by its result."""
    return {"cells": [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# A lesson"]},
        _code_cell("timing", "%timeit -n1 pass\nfrom anatomy_widgets import say\n"
                             "say('took {ms:.1f} ms', ms=1.5)\n"
                             "anatomy_widgets.say('fast' if ms < 2 else 'slow')\n"),
        _code_cell("verdict", "say(\"NOTE: {ran}; \"\n    \"{measured}\", ran=a, measured=b)\n"
                              "x = words('kept: {kept}', kept=True)\nsay('fast')\n"),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _translated_catalogue(nb: dict):
    catalog = _merge.merged(nb, _pofile.new("zh-CN", "x"))
    chinese = {"# A lesson": "# 一课", "took {ms:.1f} ms": "用时 {ms:.1f} 毫秒",
               "NOTE: {ran}; {measured}": "注：{ran}；{measured}", "kept: {kept}": "保留：{kept}",
               "fast": "快"}
    for message in catalog:
        if message.id:
            message.string = chinese[message.id]
    return _pofile.loads(_pofile.dumps(catalog))


def test_the_templates_of_say_and_words_are_extracted_in_notebook_order():
    nb = _speaking()
    assert _catalogue.printed(nb) == [
        ("timing:say", "took {ms:.1f} ms"), ("verdict:say", "NOTE: {ran}; {measured}"),
        ("verdict:say", "kept: {kept}"), ("verdict:say", "fast")]
    assert _catalogue.unliteral(nb) == ["timing"]  # say('fast' if ... else 'slow')
    catalog = _translated_catalogue(nb)
    assert [(m.context, m.id) for m in catalog if m.id] == [("intro", "# A lesson"),
                                                            *_catalogue.printed(nb)]
    assert "python-brace-format" in _catalogue.said(catalog)["timing:say", "took {ms:.1f} ms"].flags
    assert not problems(nb, catalog)


def test_each_problem_of_a_printed_template_is_caught():
    nb = _speaking()
    catalog = _translated_catalogue(nb)
    spoken = _catalogue.said(catalog)
    spoken["timing:say", "took {ms:.1f} ms"].string = "用时 {ms} 毫秒"           # a field changed
    spoken["verdict:say", "kept: {kept}"].flags.add("fuzzy")
    _cell(nb, "verdict")["source"] = ["say('NOTE: {ran}; {measured}')\nwords('kept: {kept}')\n",
                                      "say('a new line')\n"]
    assert problems(nb, catalog) == translation.Problems(
        missing=("verdict:say 'a new line'",), stale=("verdict:say 'kept: {kept}'",),
        orphan=("verdict:say 'fast'",), broken=("timing:say 'took {ms:.1f} ms'",))


def test_update_gives_a_changed_template_its_old_translation_fuzzy():
    nb = _speaking()
    catalog = _translated_catalogue(nb)
    _cell(nb, "timing")["source"] = ["say('took {ms:.2f} ms', ms=1.5)\n"]
    _cell(nb, "verdict")["source"] = ["say('NOTE: {ran}; {measured}')\nsay('unlike anything')\n"]
    fresh = _pofile.loads(_pofile.dumps(_merge.merged(nb, catalog)))  # through the file
    spoken = _catalogue.said(fresh)
    changed = spoken["timing:say", "took {ms:.2f} ms"]
    assert changed.fuzzy and changed.string == "用时 {ms:.1f} 毫秒"
    assert changed.previous_id == ["took {ms:.1f} ms"]
    assert spoken["verdict:say", "unlike anything"].string == ""
    assert spoken["verdict:say", "NOTE: {ran}; {measured}"].string == "注：{ran}；{measured}"
    assert sorted(m.id for m in fresh.obsolete.values()) == ["fast", "kept: {kept}"]
    assert _every_translation(fresh) >= _every_translation(catalog)


def test_every_lesson_prints_literal_templates_only():
    for lesson in _layout.lessons(COURSE):
        assert _catalogue.unliteral(_build.load(lesson)) == [], lesson.name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_kernel_finds_each_template_of_the_catalogues(language):
    """What ``say`` prints in a translated lesson is its catalogue's entry: the runtime reads
    the same files (nothing compiled to drift), and a template has one translation."""
    from anatomy_widgets._language import SAY, translate

    seen = {}
    for catalog in translation.catalogues(COURSE, language).values():
        for (_, template), entry in _catalogue.said(catalog).items():
            if entry.string and not entry.fuzzy:
                assert seen.setdefault(template, entry.string) == entry.string, template
                assert translate(template, SAY, language) == entry.string


# -- the runtime catalogue: the widgets' and the public checks' words ---------------------

def test_the_code_s_runtime_strings_are_found_by_their_calls():
    source = ('translate("a {x}", "memory").format(x=1)\n'
              'ROLE = {"k": english("kept", "broadcast")}\n'
              'anatomy._language.translate(text="b", context="checks")\n'
              'translate(ROLE["k"], "broadcast")  # a marked one, not a literal\n'
              'translate("c", context)            # no literal context: not found\n'
              'say("NOTE: {x}", x=1)              # a lesson\'s template, not a runtime string\n')
    assert _runtime.found_in(source) == [("memory", "a {x}"), ("broadcast", "kept"),
                                         ("checks", "b")]
    found = _runtime.lines(ROOT)
    assert ("memory", "[{name}] reads storage[{position}]") in found
    assert ("checks", "{name}: not attempted yet. Write it in its answer cell, run that cell, "
                      "then this one (0 points until then).") in found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_runtime_string_has_a_translation(language):
    """Each English string the widgets and the public checks show (a literal passed to
    ``translate`` or marked by ``english``) is translated, with its ``{fields}``."""
    found = _runtime.problems(COURSE, language)
    assert not found, (f"{language} runtime: {found}; run `python -m grader.translation "
                       f"update` and translate anatomy_widgets/locale/{language}.po")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_runtime_catalogue_is_as_update_writes_it(language):
    path = _runtime.catalogue_path(COURSE, language)
    fresh = _merge.merged_lines(_runtime.lines(ROOT), _pofile.read(path))
    assert _pofile.dumps(fresh) == path.read_text(encoding="utf-8")


def test_a_changed_runtime_string_keeps_its_translation_fuzzy():
    path = _runtime.catalogue_path(COURSE, "zh-CN")
    lines = [("memory" if k == ("memory", "no elements: this view reads nothing") else k[0],
              "no elements: this view reads nothing at all"
              if k == ("memory", "no elements: this view reads nothing") else k[1])
             for k in _runtime.lines(ROOT)]
    fresh = _runtime.translations(_merge.merged_lines(lines, _pofile.read(path)))
    changed = fresh["memory", "no elements: this view reads nothing at all"]
    assert changed.fuzzy and changed.string == "没有元素：这个视图什么也不读"
    assert _catalogue.keyed_problems(lines, fresh).stale == (
        "memory 'no elements: this view reads nothing at all'",)
