"""Harnesses for chapter 1 (storage and strides): facts gathered beside the student's function.

Which torch functions a student's function calls cannot cross the wire, so this
runs where the student's function lives (see ``grader._harness``). Only
its source travels: it imports what it needs in its body and uses no globals. It
reports facts (the answer, the names of the torch functions called); the verdict
is the judge's, against torch.
"""

__all__ = ["torch_calls_harness"]


def torch_calls_harness(student_fn, *args):
    """Call ``student_fn(*args)`` on fresh copies of its arguments (plain data), watching
    torch: every torch function and tensor method called meanwhile (a torch function mode
    sees them all, ``torch.tensor`` and ``as_strided`` included) is recorded by name.

    Returns ``(the answer, the sorted names of the torch functions called)``. Chapter 5's
    ``backprop`` is watched by it too.
    """
    import copy

    from torch.overrides import TorchFunctionMode

    called = set()

    class _Watch(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            called.add(str(getattr(func, "__name__", func)))
            return func(*args, **(kwargs or {}))

    args = copy.deepcopy(args)  # the caller's lists stay as they were
    with _Watch():
        answer = student_fn(*args)
    return answer, sorted(called)
