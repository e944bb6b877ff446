"""anatomy_widgets._language: which language a kernel speaks, and how it finds its words.

Does the setting win over the folder, does a ``zh-CN`` folder (or one above) mean
Chinese, does unknown text fall back to English, is a fuzzy entry left unused, does
the runtime's small ``.po`` reader read what babel (the catalogues' writer) reads, and
does a public check's counterexample read as Chinese, only its code and values English?
"""

import contextlib
import io
import os
import re
import warnings

import pytest
from babel.messages.pofile import read_po as babel_read_po
from support import ROOT, solution_namespace

from anatomy_widgets import _labels, _language
from anatomy_widgets._language import ENVIRONMENT, language, read_po, translate
from grader.checks._test_cell import fill

CATALOGUES = sorted((ROOT / "course").glob("*/po/*.po")) + \
    sorted((ROOT / "anatomy_widgets" / "locale").glob("*.po"))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """Run in a folder of ``tmp_path`` (the kernel's working directory), no setting."""
    monkeypatch.delenv(ENVIRONMENT, raising=False)

    def enter(*parts: str):
        path = tmp_path.joinpath(*parts)
        path.mkdir(parents=True, exist_ok=True)
        monkeypatch.chdir(path)
        return path

    return enter


def test_the_languages_are_english_and_each_runtime_catalogue():
    assert _language.languages() == ("en", "zh-CN")


@pytest.mark.parametrize("parts, spoken", [
    (("course",), "en"),
    (("course", "zh-CN"), "zh-CN"),
    (("exercises", "zh-CN", "01_storage_strides"), "zh-CN"),   # a parent counts too
    (("course", "zh"), "en"),
])
def test_the_folder_a_kernel_runs_in_names_its_language(folder, parts, spoken):
    folder(*parts)
    assert language() == spoken


@pytest.mark.parametrize("setting, spoken", [("zh-CN", "zh-CN"), ("zh_cn", "zh-CN"),
                                             ("en", "en"), ("klingon", "en")])
def test_the_setting_wins_over_the_folder(folder, monkeypatch, setting, spoken):
    folder("course", "zh-CN")
    monkeypatch.setenv(ENVIRONMENT, setting)
    assert language() == spoken


def test_a_deleted_working_directory_is_english(folder):
    gone = folder("zh-CN", "gone")
    os.rmdir(gone)
    assert language() == "en"


def test_unknown_text_is_english_and_english_is_itself(folder):
    folder("course", "zh-CN")
    assert translate("no catalogue has this", "memory") == "no catalogue has this"
    assert translate("no catalogue has this", _language.SAY) == "no catalogue has this"
    assert translate("anything", "memory", "en") == "anything"


def test_a_fuzzy_or_empty_entry_is_not_used(monkeypatch):
    text = ('msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n\n'
            'msgctxt "c"\nmsgid "ok"\nmsgstr "好"\n\n'
            '#, fuzzy\nmsgctxt "c"\nmsgid "changed"\nmsgstr "旧的"\n\n'
            'msgctxt "c"\nmsgid "new"\nmsgstr ""\n\n'
            '#~ msgctxt "c"\n#~ msgid "gone"\n#~ msgstr "没了"\n')
    assert read_po(text) == [("c", "ok", "好", False), ("c", "changed", "旧的", True),
                             ("c", "new", "", False)]
    monkeypatch.setattr(_language, "_read", lambda path: read_po(text))
    _language._runtime.cache_clear()
    try:
        assert [translate(s, "c", "zh-CN") for s in ("ok", "changed", "new", "gone")] == \
            ["好", "changed", "new", "gone"]
    finally:
        _language._runtime.cache_clear()


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_runtime_reads_each_catalogue_as_babel_does(path):
    text = path.read_text(encoding="utf-8")
    babel = babel_read_po(io.StringIO(text))
    assert read_po(text) == [(m.context, m.id, m.string, m.fuzzy) for m in babel if m.id]


# -- a real kernel in a zh-CN folder (as JupyterLab starts one for a Chinese notebook) ----

def _run_in(folder, *sources: str) -> list[list[dict]]:
    """Each cell's outputs, run by a fresh IPython kernel whose working directory is
    ``folder`` (nbclient, as tests/checks/test_check_in_a_kernel.py drives one)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    client = NotebookClient(nb, timeout=300, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    with client.setup_kernel(env=env):  # no setting: the folder alone decides
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
    return [cell.outputs for cell in nb.cells]


def test_a_kernel_in_a_zh_cn_folder_speaks_chinese(tmp_path):
    """The widget, the public check's counterexample and its 'not attempted' line, and a
    lesson's printed template, in one kernel started in ``.../zh-CN/``."""
    folder = tmp_path / "exercises" / "zh-CN" / "01_storage_strides"
    folder.mkdir(parents=True)
    widget, wrong, stub, said = _run_in(
        folder,
        "import torch\nfrom anatomy_widgets import MemoryLayout\n"
        "MemoryLayout(torch.arange(12).view(3, 4).t())",
        "from grader import check\n"
        "def contiguous_strides(shape):\n    return tuple(1 for _ in shape)\n"
        "check(contiguous_strides)",
        "from grader import checking\n"
        "def contiguous_strides(shape):\n    raise NotImplementedError\n"
        "with checking(contiguous_strides):\n    assert contiguous_strides((2,)) == (1,)",
        "from anatomy_widgets import say\nsay('NOTE: {ran}; {measured}', ran='甲', measured='乙')")
    data = next(o["data"] for o in widget if o["output_type"] == "execute_result")
    assert "12 个元素 · 连续：False" in data["text/html"]
    assert data["text/plain"].startswith("MemoryLayout(shape=(4, 3)")  # torch's words: kept
    error = next(o for o in wrong if o["output_type"] == "error")
    assert error["ename"] == "Mismatch" and error["evalue"] == (
        "contiguous_strides：contiguous_strides((2, 3, 4))：你的结果是 (1, 1, 1)；"
        "torch.empty((2, 3, 4)).stride() 是 (12, 4, 1)")
    assert stub[0]["name"] == "stderr" and stub[0]["text"].startswith(
        "contiguous_strides：尚未作答。")
    spoken = _language.translate("NOTE: {ran}; {measured}", _language.SAY, "zh-CN")
    assert spoken != "NOTE: {ran}; {measured}"  # chapter 4's catalogue translates it
    assert said[0]["text"] == spoken.format(ran="甲", measured="乙") + "\n"


# -- fill: a translated template's spaces ---------------------------------------------------

@pytest.mark.parametrize("template, values, said", [
    ("{subject} 是 {value}；{why}", {"subject": "f(1)：你的结果", "value": (1, 2), "why": "甲"},
     "f(1)：你的结果是 (1, 2)；甲"),                        # a word: no space
    ("{subject} 是 {value}；{why}", {"subject": "f(1)：w.grad", "value": 0.5, "why": "甲"},
     "f(1)：w.grad 是 0.5；甲"),                             # code: its space kept
    ("{subject} 的 {wrong} 不对。", {"subject": "你的结果", "wrong": "形状 (3,)（torch：(1,)）"},
     "你的结果的形状 (3,)（torch：(1,)）不对。"),            # both sides of a field
    ("{a} {b}", {"a": "甲", "b": "乙"}, "甲 乙"),             # a space between two fields stays
    ("{x!r:.4} is {y:g}", {"x": "abcdef", "y": 1e-5}, "'abc is 1e-05"),  # format's own
])
def test_fill_drops_a_template_space_only_between_chinese_words(template, values, said):
    assert fill(template, **values) == said
    if template.isascii():
        assert said == template.format(**values)  # English: exactly format's


# A third language: Japanese is written without spaces (kana as well as kanji), Korean
# puts a space between words although hangul is as wide as Chinese.
@pytest.mark.parametrize("template, values, said", [
    ("{subject} は {value} です", {"subject": "あなたの結果", "value": "ひらがな"},
     "あなたの結果はひらがなです"),                         # hiragana on both sides
    ("{subject} は {value}", {"subject": "f(1)：カタカナ", "value": "テンソル"},
     "f(1)：カタカナはテンソル"),                             # katakana
    ("{subject} は {value}", {"subject": "w.grad", "value": (1, 2)},
     "w.grad は (1, 2)"),                                    # code: its spaces kept
    ("{subject} 는 {value} 입니다", {"subject": "결과", "value": "텐서"},
     "결과 는 텐서 입니다"),                                  # Korean: every space kept
])
def test_fill_joins_japanese_words_and_keeps_koreans_spaces(template, values, said):
    assert fill(template, **values) == said


@pytest.mark.parametrize("text, width", [
    ("stride", 6), ("步长", 4), ("𠀀", 2),                   # ideographs, extension B too
    ("ひらがな", 8), ("カタカナ", 8), ("ｶﾀｶﾅ", 4),            # half-width katakana: one each
    ("텐서", 4), ("，：（）。「」", 14), ("·é", 2),
])
def test_a_wide_character_takes_two_columns_in_every_east_asian_script(text, width):
    assert _language.columns(text) == width
    assert _labels.columns is _language.columns  # one rule: the widgets' labels count so


def test_the_points_table_lines_up_names_in_kana_and_hangul():
    from grader.batch._dry_run import points_table

    names = ("ストライド", "텐서", "f")  # 10, 4 and 1 columns
    record = {"passed": 1, "total": 1}
    lines = points_table({"exercises": dict.fromkeys(names, record)}, {})
    assert lines[:3] == ["ストライド  1 / 1", "텐서        1 / 1", "f           1 / 1"]


# -- a public check's counterexample, in Chinese --------------------------------------------

# English prose of the checks' templates; the wrong answers' code and values use none of them.
_PROSE = re.compile(r"\b(is|are|your|yours|expected|returned|raised|wrong|the|should|but|"
                    r"has|says|gives|called|must|not|of|for|with|and|an?|it|its)\b")
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _caught(answer) -> str | None:
    """The public check's message on ``answer``; None where it passes."""
    from grader import check
    from grader.checks import Mismatch

    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # what torch says of a wrong answer
            check(answer)
    except Mismatch as failure:
        return str(failure)
    return None  # a mistake against a puzzle's rules only: grading catches it


def _counterexamples(assignment: str, monkeypatch) -> dict[str, tuple[str, str]]:
    """``exercise: mistake`` → its public check's message (English, Chinese), for each
    named wrong answer of ``assignment`` that the check catches."""
    from grader.hidden.wrong_answers import named_wrong_answers

    solution, said = solution_namespace(assignment), {}
    for exercise, answers in named_wrong_answers(assignment).items():
        for mistake, source in answers:
            namespace = dict(solution)
            exec(compile(source, f"wrong {exercise}", "exec"), namespace)
            messages = []
            for lang in ("en", "zh-CN"):  # translate reads the setting at each call
                monkeypatch.setenv(ENVIRONMENT, lang)
                messages.append(_caught(namespace[exercise]))
            if messages[0] is not None:
                said[f"{exercise}: {mistake}"] = tuple(messages)
    return said


def test_a_counterexample_in_chinese_has_no_english_words_but_code_and_values(assignment,
                                                                              monkeypatch):
    """Each named wrong answer's counterexample: in Chinese, the English prose of every
    template is gone (only code, values and torch's names remain), and the English one
    is not Chinese. Left out: where the student's code raised (``on input ...: error``,
    the exception's own words), where a message quotes torch's exception (its words
    again), and the statements of predict_verdicts' claims, which the notebook prints
    in English as it prints its code."""
    from grader.givens.pitfalls import CLAIMS

    checked = []
    for name, (english_text, chinese) in _counterexamples(assignment, monkeypatch).items():
        assert not _CHINESE.search(english_text), name
        if ": on input " in english_text or "Error (" in english_text or "fails: " in english_text:
            continue
        assert _CHINESE.search(chinese), name
        for statement in CLAIMS.values():
            chinese = chinese.replace(statement, "")
        assert not _PROSE.findall(chinese), f"{name}: {chinese}"
        checked.append(name)
    assert checked  # every chapter has wrong answers whose message is the checks' own
