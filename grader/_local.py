"""Run student functions in this process: public checks and check authoring.

Only for instant feedback in the student's kernel and for developing checks;
grading never uses it (see ``_remote``), because code in this process could
patch the oracle.
"""

import builtins

from ._errors import MissingDefinition, StudentRaised

__all__ = ["LocalStudent", "call_local"]


def call_local(fn, *args, **kwargs):
    """Call ``fn``, turning its exceptions into ``StudentRaised``."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - any student failure is an answer
        raise StudentRaised(type(exc).__name__, str(exc)) from None


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
        if not callable(value):
            return value
        return lambda *args, **kwargs: call_local(value, *args, **kwargs)
