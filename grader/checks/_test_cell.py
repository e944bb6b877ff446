"""What a test cell shows in the student's kernel: one short line, never a traceback.

A released answer cell is a stub that raises ``NotImplementedError``. A test cell
written as ``with checking(fn): ...`` turns that into "not attempted yet" on
stderr and lets the next cells run (nbgrader gives a test cell that writes to
stderr 0 points; the hidden checks never read this cell, so nothing here
changes a grade). A wrong answer is a ``Mismatch``: the exercise and a
counterexample, rendered by IPython without the checks' own frames. Both are said
in the kernel's language (``anatomy_widgets._language``, context "checks").
"""

import contextlib
import io
import sys
import traceback as tb

from .._errors import Mismatch

__all__ = ["Mismatch", "NotAttempted", "checking", "fill", "translate"]


def translate(text: str, context: str) -> str:
    """``anatomy_widgets._language.translate``, imported when a message is made: the graded
    student's process, forked with this module in memory, holds only what it runs on."""
    from anatomy_widgets._language import translate as in_language

    return in_language(text, context)


def fill(template: str, **values) -> str:
    """``template.format(**values)``, less each space of the template that, once a field is
    filled in, stands between two characters of writing without spaces between words
    (``anatomy_widgets._language.written_without_spaces``: Chinese, Japanese, full-width
    marks; not Korean).

    A translation keeps a space beside a field that may hold code or a word: the space
    belongs beside code (``w.grad 是``) and not beside a Chinese word (``你的结果是``).
    Only a space of the template next to a field is dropped, and only where the template's
    own character on one side is wide: an English template has none, so English text, and
    every value, is exactly ``format``'s.
    """
    import string  # here: the graded student's process holds only what it runs on

    from anatomy_widgets._language import written_without_spaces as joined

    formatter, pieces = string.Formatter(), []  # (text, written by the template)
    for literal, field, spec, conversion in formatter.parse(template):
        pieces.append((literal, True))
        if field is not None:
            value = formatter.convert_field(formatter.get_field(field, (), values)[0],
                                            conversion)
            pieces.append((formatter.format_field(value, spec or ""), False))
    text = ""
    for at, (piece, ours) in enumerate(pieces):
        after = next((p[0][:1] for p in pieces[at + 1:] if p[0]), "")
        if ours and len(piece) > 1 and piece[0] == " " and text and \
                joined(text[-1]) and joined(piece[1]):
            piece = piece[1:]
        if ours and len(piece) > 1 and piece[-1] == " " and after and \
                joined(piece[-2]) and joined(after):
            piece = piece[:-1]
        text += piece
    return text


class NotAttempted(NotImplementedError):
    """The exercise's function is still the released stub."""

    def _render_traceback_(self) -> list[str]:
        # IPython's protocol: this line instead of a traceback through the checks.
        return [f"{type(self).__name__}: {self}"]


def not_attempted_message(name: str) -> str:
    return translate("{name}: not attempted yet. Write it in its answer cell, run that cell, "
                     "then this one (0 points until then).", "checks").format(name=name)


def _is_stub(error: BaseException | None) -> bool:
    """The released stub's bare ``raise NotImplementedError()``, or check() saying so;
    a NotImplementedError from torch ("Cannot copy out of meta tensor") is a mistake."""
    return isinstance(error, NotAttempted) or not str(error)


class checking:  # noqa: N801 - reads as a statement: ``with checking(fn):``
    """The test cell of exercise ``answer``: a stub is "not attempted yet", not an error,
    and a failed visible ``assert`` becomes one short line, a counterexample where the
    public check finds one. Other exceptions propagate unchanged."""

    def __init__(self, answer):
        self.answer = answer
        self.name = getattr(answer, "__name__", "this exercise")

    def __enter__(self) -> "checking":
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        __tracebackhide__ = True
        if kind is not None and issubclass(kind, NotImplementedError) and _is_stub(error):
            print(not_attempted_message(self.name), file=sys.stderr)
            return True  # swallowed: Run All goes on to the next cell
        if kind is not None and issubclass(kind, AssertionError) and \
                not hasattr(error, "_render_traceback_"):
            raise self._short(error) from None
        return False

    def _short(self, error: AssertionError) -> AssertionError:
        """The public check's counterexample if it finds one, else the failed line."""
        from . import check  # the package imports this module first

        try:
            with contextlib.redirect_stdout(io.StringIO()):
                check(self.answer)
        except AssertionError as counterexample:
            return counterexample
        except Exception:  # noqa: BLE001 - the visible assert is the message then
            pass
        frames = tb.extract_tb(error.__traceback__)
        line = frames[-1].line if frames else ""
        said = f": {error}" if str(error) else ""
        return Mismatch(translate("{name}: this check failed: {line}{said}", "checks").format(
            name=self.name, line=line, said=said))
