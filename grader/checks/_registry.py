"""The registry behind ``check``: exercise name → public check."""

from collections.abc import Callable
from dataclasses import dataclass

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
        """``(example, keyword arguments)`` as ``check`` passes them to ``compare``: for a
        stored check, its examples as stored at release, each with torch's answer
        (``truth``); otherwise ``examples()``, with nothing more. Both after the examples
        drawn for the student's published variant (``_variant_examples``), where there
        are any. The hidden checks read ``examples()`` itself: the same for everyone."""
        if self.stored:  # these imports here: not in the judge's memory
            from ..givens.variants import your_stored_examples
            from . import _public_examples

            return (_public_examples.decode(your_stored_examples(self.name))
                    + _public_examples.load(self.name))
        from ..givens.variants import your_example_seed
        from ._variant_examples import examples_for  # here: not in the judge's memory

        examples = examples_for(self.name, self.examples(), your_example_seed(), self.redraw)
        return [(example, {}) for example in examples]

    def run(self, answer) -> int:
        """Compare ``answer`` on every example; return how many agreed."""
        wrapped = LocalFunction(answer)
        cases = self.cases()
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
        return len(cases)


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
