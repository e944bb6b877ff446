"""No GPU check skipped in silence: where the judge has CUDA, the student's process must too.

A GPU-only check whose student process cannot start CUDA is skipped, and a
skipped check scores nothing: on a GPU grading machine whose sandbox kept CUDA
out (as Landlock and the syscall filter once did), every such check would
vanish from every verdict, and nothing would say so. So a judge that has CUDA
first starts it in a confined process that runs no student code (once per
judge: about 0.2 s on an H200). If that fails, grading stops, saying why, as
it does where the namespaces are missing (``_sandbox.require``). Once it
worked, a student's process that reports no CUDA lost it to its own code: the
check fails (``_plugin``).
"""

import functools

__all__ = ["require_student_cuda", "student_cuda_problem"]

_PROBE = "import torch\ntorch.zeros(1, device='cuda')"


@functools.cache
def student_cuda_problem() -> str:
    """'' if this machine has no CUDA or a confined student's process can start it; else
    what the process said."""
    import torch

    if not torch.cuda.is_available():
        return ""
    from grader.judge._remote import RemoteStudent

    student = RemoteStudent([_PROBE], cell_timeout=120.0)
    try:
        student.start()
        report = student.cell_reports().get(0, {})
    finally:
        student.close()
    if "error" in report:
        return ": ".join(report["error"])[:300]
    return report.get("skipped", "")


def require_student_cuda() -> None:
    """Raise, saying why, if this machine has CUDA and the student's process cannot start it."""
    problem = student_cuda_problem()
    if problem:
        raise RuntimeError(
            f"cannot grade GPU checks: CUDA works here but not in the student's sandbox "
            f"({problem}); hide the GPU (CUDA_VISIBLE_DEVICES=) to grade without them")
