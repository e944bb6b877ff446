"""Run student functions in this process: public checks and check authoring.

Only for instant feedback in the student's kernel and for developing checks;
grading never uses it (see ``_remote``), because code in this process could
patch the oracle.
"""

import builtins

from grader._errors import MissingDefinition, StudentRaised
from grader._harness import load_harness

__all__ = ["LocalFunction", "LocalStudent", "call_local"]


def call_local(fn, *args, **kwargs):
    """Call ``fn``, turning its exceptions into ``StudentRaised``."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - any student failure is an answer
        raise StudentRaised(type(exc).__name__, str(exc)) from None


class LocalFunction:
    """A student's function called here, errors normalised; ``harness`` runs next to it."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, *args, **kwargs):
        return call_local(self._fn, *args, **kwargs)

    def harness(self, harness, *args, **kwargs):
        """``harness(fn, *args, **kwargs)``, built from its source as in grading."""
        return call_local(load_harness(harness), self._fn, *args, **kwargs)

    def with_inputs_after(self, *args, **kwargs):
        """``(result, args_after, kwargs_after)``, the call made on copies of the arguments.

        The copies go through the wire as in grading (same sharing, layout and
        limits), so local and graded runs see the same; the arguments stay as they were.
        """
        from grader import _wire

        args_after, kwargs_after = _wire.decode(_wire.encode([list(args), kwargs]))
        result = call_local(self._fn, *args_after, **kwargs_after)
        return result, args_after, kwargs_after


class LocalStudent:
    """Attribute access to a namespace of student definitions, errors normalised."""

    def __init__(self, namespace: dict):
        self._namespace = namespace

    @classmethod
    def from_source(cls, source: str) -> "LocalStudent":
        namespace = {"__name__": "student", "__builtins__": builtins}
        exec(compile(source, "<student>", "exec"), namespace)
        return cls(namespace)

    def __getattr__(self, name: str):
        if name.startswith("_") or name.endswith("_example"):
            raise AttributeError(name)  # hypothesis's per-example hooks, never the student's
        if name not in self._namespace:
            raise MissingDefinition(f"the notebook does not define {name!r}")
        value = self._namespace[name]
        return LocalFunction(value) if callable(value) else value
