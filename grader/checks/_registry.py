"""The registry behind ``check``: exercise name → public check."""

from collections.abc import Callable
from dataclasses import dataclass

from .._errors import StudentError
from .._local import call_local

__all__ = ["Mismatch", "public_check", "registered"]


class Mismatch(AssertionError):
    """The student's answer disagrees with torch on a concrete input."""


@dataclass(frozen=True)
class _Entry:
    chapter: str
    examples: Callable[[], list]
    compare: Callable

    def run(self, answer) -> int:
        """Compare ``answer`` on every example; return how many agreed."""

        def wrapped(*args, **kwargs):
            return call_local(answer, *args, **kwargs)

        examples = self.examples()
        for example in examples:
            try:
                self.compare(wrapped, *example)
            except StudentError as err:
                raise Mismatch(f"on input {example!r}: {err}") from None
        return len(examples)


_REGISTRY: dict[str, _Entry] = {}


def public_check(name: str, examples: Callable[[], list]):
    """Register ``compare(fn, *example)`` as the public check of ``name``.

    ``examples`` returns the argument tuples to try (built lazily so importing
    a chapter allocates nothing). ``compare`` raises ``Mismatch`` on failure.
    """

    def register(compare):
        chapter = compare.__module__.rsplit(".", 1)[-1]
        _REGISTRY[name] = _Entry(chapter, examples, compare)
        return compare

    return register


def registered() -> dict[str, _Entry]:
    return dict(_REGISTRY)
