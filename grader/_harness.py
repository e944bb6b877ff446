"""Harnesses: instructor code that runs next to the student's function.

Some facts cannot cross the wire: a graph behind a result, what a callable does
when handed another callable, ``.grad`` after ``backward``. A harness is a
self-contained module-level function ``h(student_fn, *args, **kwargs)`` that
gathers those facts as plain data where the student's function lives. Only its
source travels, so it must import what it needs inside its body. Whatever it
returns is judged like any other answer: in grading it runs in the student's
process, which the student controls, so it reports facts and never verdicts.
"""

import builtins
import functools
import inspect
import textwrap

__all__ = ["harness_source", "load_harness"]


@functools.cache
def harness_source(harness) -> tuple[str, str]:
    """(source, name) of a module-level harness function."""
    if harness.__closure__ or harness.__qualname__ != harness.__name__:
        raise TypeError(f"harness {harness.__qualname__} must be a module-level function")
    return textwrap.dedent(inspect.getsource(harness)), harness.__name__


@functools.cache
def load_harness(harness):
    """The harness rebuilt from its source alone, exactly as the student's process gets it."""
    source, name = harness_source(harness)
    namespace = {"__name__": "harness", "__builtins__": builtins}
    exec(compile(source, "<harness>", "exec"), namespace)
    return namespace[name]
