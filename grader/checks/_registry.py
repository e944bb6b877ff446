"""The registry behind ``check``: exercise name → public check."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from grader.checks._local import LocalFunction

from .._errors import StudentError, StudentRaised
from ._test_cell import Mismatch, NotAttempted, not_attempted_message, translate

__all__ = [
    "RAISED_LIKE_TORCH", "Mismatch", "public_check", "registered", "result_unless_torch_raises",
]


@dataclass(frozen=True)
class _Entry:
    name: str
    chapter: str
    examples: Callable[[], list]
    compare: Callable
    stored: bool = False
    redraw: Callable | None = None  # the rule check() draws a student's examples by

    def cases(self) -> list[tuple[tuple, dict]]:
        """``(example, keyword arguments)`` as ``check`` passes them to ``compare``: the
        examples drawn for the student's published variant (``yours``), then the fixed
        ones. The hidden checks read ``examples()`` itself: the same for everyone."""
        return self.yours() + self.fixed()

    def fixed(self) -> list[tuple[tuple, dict]]:
        """Everyone's examples: for a stored check, as stored at release, each with
        torch's answer (``truth``); otherwise ``examples()``, with nothing more."""
        if self.stored:
            from . import _public_examples  # here: not in the judge's memory

            return _public_examples.load(self.name)
        return [(example, {}) for example in self.examples()]

    def yours(self) -> list[tuple[tuple, dict]]:
        """The examples drawn for the student's published variant (``_variant_examples``),
        for a stored check with the answers published beside them; none without one."""
        # These imports here: the judge never asks, and its memory stays as it was.
        from ..givens.variants import your_example_seed, your_stored_examples
        from . import _public_examples
        from ._variant_examples import drawn_for

        if self.stored:
            return _public_examples.decode(your_stored_examples(self.name))

        drawn = drawn_for(self.name, self.examples(), your_example_seed(), self.redraw)
        return [(example, {}) for example in drawn]

    def run(self, answer) -> "Tried":
        """Compare ``answer`` on every example: how many agreed, and the student's own."""
        wrapped = LocalFunction(answer)
        yours = self.yours()
        cases = yours + self.fixed()
        for example, kwargs in cases:
            try:
                self.compare(wrapped, *example, **kwargs)
            except StudentRaised as err:
                if err.type_name == "NotImplementedError" and not err.message:  # the stub's
                    # bare raise; torch's own NotImplementedErrors say why, and are mistakes
                    raise NotAttempted(not_attempted_message(answer.__name__)) from None
                raise Mismatch(_on_input(example, err)) from None
            except StudentError as err:
                raise Mismatch(_on_input(example, err)) from None
            except Mismatch:
                from ._pictures import show_input_pictures  # here: not in the judge's memory

                show_input_pictures(self.chapter, example)
                raise
        return Tried(len(cases), [example for example, _ in yours])


class Tried(NamedTuple):
    """What ``check`` tried and found agreeing: every example, and among them the ones
    drawn for this student (their arguments), which the success line shows."""

    count: int
    yours: list[tuple]


def _on_input(example, error) -> str:
    return translate("on input {example!r}: {error}", "checks").format(example=example,
                                                                        error=error)


_REGISTRY: dict[str, _Entry] = {}


def public_check(name: str, examples: Callable[[], list], *, stored: bool = False,
                 redraw: Callable | None = None):
    """Register ``compare(fn, *example)`` as the public check of ``name``.

    ``examples`` returns the argument tuples to try (built lazily so importing
    a chapter allocates nothing). ``compare`` raises ``Mismatch`` on failure.

    ``stored``: the truth is more than a torch call (the exercise's own idiom or
    algorithm), so no module a student can import may compute it. ``compare`` then
    takes it as ``truth=``: the hidden checks pass what an oracle of
    ``grader/hidden/<chapter>/oracles.py`` computes, and ``check`` tries the examples stored at
    release with their answers (``_public_examples``).

    ``redraw(example, rng)``: how a student's examples are drawn from the fixed ones, a
    new example the exercise's contract allows or None (``_variant_examples``); by
    default, the example's float tensors over new values. Never seen by the hidden checks.
    """

    def register(compare):
        # grader.checks.<chapter>[.<module>]: the chapter's package, wherever in it.
        chapter = compare.__module__.split(".")[2]
        _REGISTRY[name] = _Entry(name, chapter, examples, compare, stored, redraw)
        return compare

    return register


def registered() -> dict[str, _Entry]:
    return dict(_REGISTRY)


RAISED_LIKE_TORCH = object()  # the student raised exactly where torch raises


def result_unless_torch_raises(call: str, attempt, torch_raises: bool, error: str, why: str):
    """The student's result from ``attempt()`` where torch returns one.

    Where torch raises ``error``, the student must raise it too: then this
    returns ``RAISED_LIKE_TORCH``; any other outcome is a ``Mismatch``.
    """
    try:
        result = attempt()
    except StudentRaised as err:
        if torch_raises and err.type_name == error:
            return RAISED_LIKE_TORCH
        if torch_raises:
            raise Mismatch(translate("{call} raised {kind}; torch raises {error}", "checks").format(
                call=call, kind=err.type_name, error=error)) from None
        raise
    if torch_raises:
        raise Mismatch(translate("{call} returned {result!r}; torch raises {error} ({why})",
                                 "checks").format(call=call, result=result, error=error, why=why))
    return result
