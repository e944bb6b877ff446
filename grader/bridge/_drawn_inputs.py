"""A failing input drawn in the feedback page: its memory layout, or its shapes lined up.

The judge keeps each failed check's input as data beside its words: ``inputs``, the
arguments of the check's last call of the student's function, a tensor as its layout
(``{"tensor": {"shape", "stride", "offset", "storage"}}``), numbers and shapes as
themselves (``grader.judge._describe.inputs_as_data``). ``DrawFailingInputs`` reads the
inputs of the failures the verdict shows (from the test cell's verdict data,
``grader._verdict``; never its words) and adds the picture the lessons use, as inline
SVG (the page needs nothing from the internet): the storage strip and grid of a strided
tensor, or the right-aligned dims of shapes that broadcast. A verdict stored before the
judge kept inputs has none: its page has no picture.
"""

from nbconvert.preprocessors import Preprocessor
from nbformat import v4
from traitlets import Bool

from grader import _notebook
from grader._language import localized, marked
from grader._verdict import verdict_of
from grader.bridge._verdict_text import shown_failures
from grader.checks._pictures import layout_picture

__all__ = ["DrawFailingInputs", "pictures_for"]

# Exercises whose inputs are shapes that broadcast: draw them lined up from the right.
BROADCAST_EXERCISES = {"broadcast_shape"}
# Exercises whose inputs are a layout in numbers: which arguments are the shape, the stride
# and the offset, if any (``storage_position(index, shape, stride, offset)``).
LAYOUT_EXERCISES = {"can_view": (0, 1, None), "storage_position": (1, 2, 3)}
MOST_PICTURES = 2  # per test cell: the first failures say enough
# What a picture shows, for a reader who cannot see it: its alt text.
SHOWS_SHAPES = marked("The failing input's shapes, lined up from the right as broadcasting "
                      "compares them", "page")
SHOWS_LAYOUT = marked("Where the failing input's elements lie in its storage", "page")
_LARGEST_DRAWN = 4096  # storage elements; a larger input is described in words only


def _ints(item) -> tuple[int, ...] | None:
    """A shape or a stride: a list of ints (no bools), as a tuple; None for anything else."""
    if isinstance(item, list) and all(type(n) is int for n in item):
        return tuple(item)
    return None


def _layout_svg(shape, stride, offset, storage=None) -> str | None:
    from anatomy_widgets._layout import Layout, required_storage

    if shape is None or stride is None or type(offset) is not int or len(shape) != len(stride):
        return None
    storage = storage or max(required_storage(shape, stride, offset), 1)
    return layout_picture(Layout(shape, stride, offset, storage), _LARGEST_DRAWN)


def _tensor_svg(layout: dict) -> str | None:
    storage = layout.get("storage")
    return _layout_svg(_ints(layout.get("shape")), _ints(layout.get("stride")),
                       layout.get("offset"), storage if type(storage) is int else None)


def _tensors_in(item) -> list[dict]:
    """The layouts of the tensors in ``item`` (an input's data), depth first."""
    if isinstance(item, dict):
        return [item["tensor"]] if isinstance(item.get("tensor"), dict) else []
    return [layout for inner in item for layout in _tensors_in(inner)] \
        if isinstance(item, list) else []


def _broadcast_svg(shapes) -> str:
    from anatomy_widgets._broadcast import align
    from anatomy_widgets._broadcast_svg import alignment_svg

    names = [f"shape {chr(ord('a') + k)}" for k in range(len(shapes))]
    return alignment_svg(align(*shapes), names, shapes)


def pictures_for(exercise: str, inputs: list) -> list[str]:
    """SVG pictures of one failing input: the arguments of its call, as the judge keeps them."""
    if exercise in BROADCAST_EXERCISES:
        shapes = [shape for shape in map(_ints, inputs) if shape is not None]
        return [_broadcast_svg(shapes[:2])] if len(shapes) >= 2 else []
    if exercise in LAYOUT_EXERCISES:
        shape_at, stride_at, offset_at = LAYOUT_EXERCISES[exercise]
        if len(inputs) <= max(shape_at, stride_at, offset_at or 0):
            return []
        offset = 0 if offset_at is None else inputs[offset_at]
        svg = _layout_svg(_ints(inputs[shape_at]), _ints(inputs[stride_at]), offset)
        return [svg] if svg else []
    pictures = (_tensor_svg(layout) for layout in _tensors_in(inputs))
    return [svg for svg in pictures if svg][:1]


def _shown_inputs(cell) -> list[list]:
    """The inputs of the failed checks the cell's verdict shows; none from a verdict stored
    before the judge kept them."""
    verdict = verdict_of(cell)
    failures = shown_failures(verdict["record"]) if verdict else []
    return [check["inputs"] for check in failures if isinstance(check.get("inputs"), list)]


class DrawFailingInputs(Preprocessor):
    """Each graded test cell gets pictures of its first failing inputs."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        from grader.bridge._feedback_language import language_of

        language = language_of(nb)
        for exercise, cell in _notebook.exercise_cells(nb).items():
            try:
                pictures = [svg for inputs in _shown_inputs(cell)
                            for svg in pictures_for(exercise, inputs)]
            except Exception as exc:  # noqa: BLE001 - a picture is a bonus, never a failure
                self.log.warning("no picture of %s's failing inputs: %s", exercise, exc)
                continue
            shows = SHOWS_SHAPES if exercise in BROADCAST_EXERCISES else SHOWS_LAYOUT
            alt = {"image/svg+xml": {"alt": localized(shows, "page", language)}}
            for svg in list(dict.fromkeys(pictures))[:MOST_PICTURES]:
                cell.outputs.append(v4.new_output("display_data", data={"image/svg+xml": svg},
                                                  metadata=alt))
        return nb, resources
