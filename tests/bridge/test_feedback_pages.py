"""Feedback pages that teach: drawn inputs, the gradebook's points, maths offline.

Unit tests of the feedback preprocessors (``grader/bridge``); the whole path, from
grading to the page, is in ``tests/batch/test_pipeline.py``.
"""

import copy

import nbformat
import torch
from bs4 import BeautifulSoup
from nbformat import v4

from grader._verdict import with_verdict
from grader.bridge._drawn_inputs import DrawFailingInputs, pictures_for
from grader.bridge._feedback_verdict import VerdictsOnThePage
from grader.bridge._offline_math import markdown_with_mathml
from grader.judge._describe import inputs_as_data

# 3 of 6 checks passed: 1 of 2 points.
RECORD = {"passed": 3, "total": 6, "checks": [
    {"description": f"check {k}", "passed": k >= 3, "detail": "" if k >= 3 else "wrong"}
    for k in range(6)]}


def _as_judged(*args) -> list:
    """A failing call's arguments as the judge keeps them in the verdict."""
    return inputs_as_data((list(args), {}))


def test_a_tensor_input_is_drawn_where_torch_puts_its_elements():
    """The picture's cells are the storage positions torch reads for that layout."""
    view = torch.arange(12).as_strided((3, 2), (1, 4), 2)  # each value: its storage position
    [svg] = pictures_for("diagonal_view", _as_judged(view))
    for (i, j), position in ((i, v) for i, v in
                             zip([(i, j) for i in range(3) for j in range(2)],
                                 view.flatten().tolist())):
        assert f'data-index="{i}, {j}" data-pos="{position}"' in svg


def test_shapes_that_broadcast_are_drawn_lined_up_and_layouts_in_numbers_too():
    [svg] = pictures_for("broadcast_shape", _as_judged((3, 1), (2, 4)))
    assert 'class="ta-broadcast"' in svg and "(3, 1)" in svg
    assert len(pictures_for("can_view", _as_judged((4, 1, 2), (0, 1, 0), (4, 2, 1)))) == 1
    [svg] = pictures_for("storage_position", _as_judged((1, 2), (2, 3), (1, 4), 2))
    assert [svg] == pictures_for("diagonal_view", _as_judged(
        torch.empty(12).as_strided((2, 3), (1, 4), 2)))  # the offset is the last argument
    assert pictures_for("infer_dtype", _as_judged([1, 2.5])) == []  # nothing to draw


def _test_cell(name: str, record: dict, **nbgrader) -> nbformat.NotebookNode:
    """A test cell as autograding leaves it: its verdict as data."""
    cell = v4.new_code_cell("", metadata={"nbgrader": {"grade": True, "grade_id": name,
                                                       "points": 2, "solution": False,
                                                       **nbgrader}})
    return with_verdict(cell, name, record, 2.0)


def test_a_test_cell_gets_at_most_two_pictures_and_a_bad_input_breaks_nothing():
    checks = [{"description": f"check {k}", "passed": False, "detail": "wrong",
               "inputs": _as_judged(torch.zeros(2, k))} for k in range(1, 5)]
    checks.append({"description": "check 5", "passed": False, "detail": "wrong", "inputs": [
        {"tensor": {"shape": [2], "stride": [1, 1], "offset": 0, "storage": 2}}]})
    cell = _test_cell("f", {"passed": 0, "total": 5, "checks": checks})
    nb = v4.new_notebook(cells=[cell])
    VerdictsOnThePage().preprocess(nb, {})
    DrawFailingInputs().preprocess(nb, {})
    assert [o["output_type"] for o in cell.outputs] == ["stream", "execute_result",
                                                        "display_data", "display_data"]


def test_a_verdict_stored_before_inputs_were_kept_has_no_picture_and_no_error(caplog):
    """Its failures name their inputs in words only: nothing reads them back."""
    detail = "wrong\nfailing input: x=tensor(shape=(2, 2), stride=(2, 1), offset=0)"
    checks = [{"description": "check", "passed": False, "detail": detail}]
    cell = _test_cell("f", {"passed": 0, "total": 1, "checks": checks})
    nb = v4.new_notebook(cells=[cell])
    VerdictsOnThePage().preprocess(nb, {})
    DrawFailingInputs().preprocess(nb, {})
    assert [o["output_type"] for o in cell.outputs] == ["stream", "execute_result"]
    assert "no picture" not in caplog.text


def test_the_verdict_says_the_gradebooks_score():
    """Rendered from the verdict's data with the score ``GetGrades`` put in the cell."""
    def page(**nbgrader) -> nbformat.NotebookNode:
        cell = _test_cell("diagonal_view", RECORD, **nbgrader)
        VerdictsOnThePage().preprocess(v4.new_notebook(cells=[cell]), {})
        return cell

    unchanged = page(score=1.0)
    assert unchanged.outputs[0]["text"].startswith(
        "Hidden checks for diagonal_view: 3 of 6 passed → 1 / 2 points\n")
    assert "instructor" not in unchanged.outputs[0]["text"]
    assert "→ 2 / 2 points (your instructor changed it from 1)" in page(score=2.0).outputs[0][
        "text"]
    cell = page(score=1.5)
    assert "→ 1.5 / 2 points (your instructor changed it from 1)" in cell.outputs[0]["text"]
    assert cell.outputs[1]["data"]["text/plain"] == "1.5"
    assert page().outputs[1]["data"]["text/plain"] == "1"  # no gradebook score: the verdict's


def test_maths_becomes_mathml_and_code_stays_as_written():
    source = ("at $$\\text{offset} + i_0$$ costs $5 and $10, inline $x_i$;\n"
              "code `$x$` and\n```python\na = \"$$b$$\"\n```\nescaped \\$ sign")
    out = markdown_with_mathml(source)
    assert out.count("<math ") == 2 and 'display="block"' in out and 'display="inline"' in out
    assert "costs $5 and $10" in out and "`$x$`" in out and 'a = "$$b$$"' in out
    assert "\\$ sign" in out


def test_the_feedback_page_renders_mathml_through_nbconvert():
    from grader.bridge._feedback_page import FeedbackExporter
    from grader.bridge._offline_math import MathAsMathML

    nb = v4.new_notebook(cells=[v4.new_markdown_cell("Position $$o + i \\cdot s$$ here.")])
    exporter = FeedbackExporter()
    exporter.register_preprocessor(MathAsMathML, enabled=True)
    html, _ = exporter.from_notebook_node(nbformat.from_dict(nb))
    assert BeautifulSoup(html, "html.parser").find(
        "math", attrs={"display": "block", "xmlns": "http://www.w3.org/1998/Math/MathML"})


_RESOURCES = {"nbgrader": {"notebook": "n", "score": 0, "max_score": 2,  # as GetGrades
                          "late_penalty": 0}}


def _feedback_exporter(cls):
    """``cls`` configured as nbgrader's ``GenerateFeedback`` configures its exporter."""
    from nbgrader.converters import GenerateFeedback
    from traitlets.config import Config

    from grader.bridge._sanitize_html import SAFE_PAGE

    config = Config(GenerateFeedback().config)
    config.HTMLExporter.update(sanitize_html=True, filters=SAFE_PAGE["filters"])
    return cls(config=config)


def _page_with_pictures(language: str = "en") -> nbformat.NotebookNode:
    """A feedback notebook: a drawn failing input, and Markdown images with and without alt."""
    from grader._language import KEY
    from grader.bridge._feedback_page import DescribedPictures

    view = _as_judged(torch.empty(12).as_strided((3, 2), (1, 4), 2))
    cell = _test_cell("diagonal_view", {"passed": 0, "total": 1, "checks": [
        {"description": "check", "passed": False, "detail": "wrong", "inputs": view}]},
        score=0.0)  # as GetGrades leaves it
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell('<img src="https://example.org/a.png"> and '
                             '![told](https://example.org/b.png)'),
        v4.new_code_cell("x = torch.arange(12)[::2]  # a view\nprint(x.stride(), 'done')"),
        cell],
        metadata={KEY: {"language": language}})
    for step in (VerdictsOnThePage, DrawFailingInputs, DescribedPictures):
        step().preprocess(nb, {})
    return nb


def _tags(html: str, keep_alt: bool = True) -> list:
    return [(tag.name, {k: v for k, v in tag.attrs.items() if keep_alt or k != "alt"})
            for tag in BeautifulSoup(html, "html.parser").find_all(True)]


def test_every_picture_on_the_feedback_page_says_what_it_shows_in_the_student_s_language():
    from grader.bridge._drawn_inputs import SHOWS_LAYOUT
    from grader.bridge._feedback_page import NO_DESCRIPTION, FeedbackExporter

    zh_cn = ("zh-CN", "未通过的输入的元素在其存储中的位置", "此图片没有提供描述")
    for language, shows, none in (("en", SHOWS_LAYOUT, NO_DESCRIPTION), zh_cn):
        html, _ = _feedback_exporter(FeedbackExporter).from_notebook_node(
            _page_with_pictures(language), _RESOURCES)
        images = [attrs for name, attrs in _tags(html) if name == "img"]
        assert [image.get("alt") for image in images] == [none, "told", shows], language
        assert images[2]["src"].startswith("data:image/svg+xml;base64,")


def test_the_feedback_page_is_nbconverts_but_for_the_alt_text_of_its_pictures():
    """Rendered without ``HTMLExporter``'s BeautifulSoup pass over the whole page, it has
    the same tags, attributes and text as the stock exporter's page: only ``alt`` differs."""
    from nbconvert.exporters import HTMLExporter

    from grader.bridge._feedback_page import FeedbackExporter

    nb = _page_with_pictures()
    pages = [_feedback_exporter(cls).from_notebook_node(copy.deepcopy(nb), _RESOURCES)[0]
             for cls in (FeedbackExporter, HTMLExporter)]
    ours, stock = (_tags(page, keep_alt=False) for page in pages)
    assert len(ours) > 80 and ours == stock
    assert [" ".join(BeautifulSoup(p, "html.parser").get_text().split()) for p in pages] == \
        [" ".join(BeautifulSoup(pages[1], "html.parser").get_text().split())] * 2
