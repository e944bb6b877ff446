"""A failing input drawn in the feedback page: its memory layout, or its shapes lined up.

The judge names each failing input in words, in a failed check's detail
(``grader.judge._describe``): tensors by ``shape=…, stride=…, offset=…``, shapes as
tuples. ``DrawFailingInputs`` reads the details the verdict shows (from the test
cell's verdict data, ``grader._verdict``; never the verdict's rendered lines) and adds
the picture the lessons use, as inline SVG (the page needs nothing from the
internet): the storage strip and grid of a strided tensor, or the right-aligned dims
of shapes that broadcast. The input itself reaches the judge's record only as those
words (hypothesis's own repr of a failing example), so they are what is read here.
"""

import re

from nbconvert.preprocessors import Preprocessor
from nbformat import v4
from traitlets import Bool

from grader import _notebook
from grader._verdict import verdict_of
from grader.bridge._verdict_text import shown_failures
from grader.checks._pictures import layout_picture

__all__ = ["DrawFailingInputs", "pictures_for"]

_INPUT_LINE = re.compile(r"^\s*(?:smallest failing |failing )?input: (.+)$", re.M)
_TENSOR = re.compile(r"shape=\(([\d, ]*)\), stride=\(([\d, ]*)\), offset=(\d+)")
# "x = torch.arange(30).as_strided((3, 3), (6, 1), 8)": how a check names its input.
_AS_STRIDED = re.compile(
    r"torch\.arange\((\d+)\)\.as_strided\(\(([\d, ]*)\), \(([\d, ]*)\)(?:, (\d+))?\)")
_SHAPE = re.compile(r"\((\d+(?:, \d+)*,?|)\)")
# Exercises whose inputs are shapes that broadcast: draw them lined up from the right.
BROADCAST_EXERCISES = {"broadcast_shape"}
# Exercises whose inputs are a layout in numbers: which tuples are the shape and stride,
# and whether an offset follows (``storage_position(index, shape, stride, offset)``).
LAYOUT_EXERCISES = {"can_view": (0, 1, False), "storage_position": (1, 2, True)}
_LAST_INT = re.compile(r"(\d+)\)?\s*$")
MOST_PICTURES = 2  # per test cell: the first failures say enough
_LARGEST_DRAWN = 4096  # storage elements; a larger input is described in words only


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.replace(" ", "").split(",") if part)


def _layout_svg(shape, stride, offset, storage=None) -> str | None:
    from anatomy_widgets._layout import Layout, required_storage

    if len(shape) != len(stride):
        return None
    storage = storage or max(required_storage(shape, stride, offset), 1)
    return layout_picture(Layout(shape, stride, offset, storage), _LARGEST_DRAWN)


def _broadcast_svg(shapes) -> str:
    from anatomy_widgets._broadcast import align
    from anatomy_widgets._broadcast_svg import alignment_svg

    names = [f"shape {chr(ord('a') + k)}" for k in range(len(shapes))]
    return alignment_svg(align(*shapes), names, shapes)


def pictures_for(exercise: str, described_input: str) -> list[str]:
    """SVG pictures of one failing input, as ``_describe`` wrote it."""
    if exercise in BROADCAST_EXERCISES:
        shapes = [_ints(found) for found in _SHAPE.findall(described_input)]
        return [_broadcast_svg(shapes[:2])] if len(shapes) >= 2 else []
    if exercise in LAYOUT_EXERCISES:
        return _numbers_layout(LAYOUT_EXERCISES[exercise], described_input)
    pictures = (_layout_svg(_ints(shape), _ints(stride), int(offset))
                for shape, stride, offset in _TENSOR.findall(described_input))
    return [svg for svg in pictures if svg][:1]


def _numbers_layout(where: tuple[int, int, bool], described_input: str) -> list[str]:
    shape_at, stride_at, has_offset = where
    tuples = [_ints(found) for found in _SHAPE.findall(described_input)]
    if len(tuples) <= max(shape_at, stride_at):
        return []
    offset = _LAST_INT.search(described_input) if has_offset else None
    svg = _layout_svg(tuples[shape_at], tuples[stride_at], int(offset[1]) if offset else 0)
    return [svg] if svg else []


def _shown_details(cell) -> str:
    """The details of the failed checks the cell's verdict shows, as the judge wrote them."""
    verdict = verdict_of(cell)
    return "\n".join(check["detail"] for check in shown_failures(verdict["record"])) \
        if verdict else ""


def _strided_inputs(text: str) -> list[str]:
    """Pictures of the inputs a verdict writes as ``torch.arange(n).as_strided(...)``."""
    pictures = (_layout_svg(_ints(shape), _ints(stride), int(offset or 0), int(storage))
                for storage, shape, stride, offset in _AS_STRIDED.findall(text))
    return [svg for svg in pictures if svg]


class DrawFailingInputs(Preprocessor):
    """Each graded test cell gets pictures of its first failing inputs."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        for exercise, cell in _notebook.exercise_cells(nb).items():
            try:
                pictures = _pictures(exercise, _shown_details(cell))
            except Exception as exc:  # noqa: BLE001 - a picture is a bonus, never a failure
                self.log.warning("no picture of %s's failing inputs: %s", exercise, exc)
                continue
            for svg in list(dict.fromkeys(pictures))[:MOST_PICTURES]:
                cell.outputs.append(v4.new_output("display_data", data={"image/svg+xml": svg}))
        return nb, resources


def _pictures(exercise: str, details: str) -> list[str]:
    pictures = _strided_inputs(details)
    for described in _INPUT_LINE.findall(details):
        pictures += pictures_for(exercise, described)
    return pictures
