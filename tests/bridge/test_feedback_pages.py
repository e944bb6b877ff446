"""Feedback pages that teach: drawn inputs, the gradebook's points, maths offline.

Unit tests of the feedback preprocessors (``grader/bridge``); the whole path, from
grading to the page, is in ``tests/batch/test_pipeline.py``.
"""

import nbformat
import torch
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
    assert '<math display="block" xmlns="http://www.w3.org/1998/Math/MathML">' in html
