"""A failing input drawn in the student's kernel, above the one-line ``Mismatch``.

Where layout is the point (chapters 1 and 3), the counterexample's tensors are
drawn as the lessons draw them: the storage strip and the grid that reads it
(``anatomy_widgets``' static picture). Only inside IPython, only small storages.
"""

import contextlib

__all__ = ["LAYOUT_CHAPTERS", "layout_picture", "show_input_pictures"]

LAYOUT_CHAPTERS = {"storage_strides", "shape_ops_broadcasting"}
_LARGEST_DRAWN = 512  # storage elements: a bigger picture would bury the message
_MOST = 2


def _tensors(value) -> list:
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors(item)]
    return []


def layout_picture(layout, largest: int = _LARGEST_DRAWN) -> str | None:
    """The lessons' picture of ``layout`` (an ``anatomy_widgets`` Layout): its storage strip
    and the grid that reads it; None for a storage over ``largest`` elements, or a layout
    torch refuses."""
    from anatomy_widgets._language import translate
    from anatomy_widgets._memory_text import drawing_error, panel
    from anatomy_widgets._svg import memory_svg

    if layout.storage_size > largest or drawing_error(layout):
        return None
    title = translate("input: shape {shape}, stride {stride}, offset {offset}", "checks").format(
        shape=layout.shape, stride=layout.stride, offset=layout.offset)
    return memory_svg([panel(title, layout)], layout.storage_size)


def input_pictures(example) -> list[str]:
    """SVG pictures of the strided tensors in ``example`` (an argument tuple)."""
    import torch

    from anatomy_widgets._layout import layout_of

    pictures = (layout_picture(layout_of(tensor)) for tensor in _tensors(example)
                if tensor.layout == torch.strided and 1 <= tensor.dim() <= 4)
    return [svg for svg in pictures if svg][:_MOST]


def show_input_pictures(chapter: str, example) -> None:
    """Display the pictures of ``example``'s tensors, if layout is ``chapter``'s point and
    this is an IPython kernel."""
    if chapter not in LAYOUT_CHAPTERS:
        return
    with contextlib.suppress(Exception):  # a picture is a bonus: never in the way
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is None:
            return
        for svg in input_pictures(example):
            display({"image/svg+xml": svg}, raw=True)
