"""The student's tier: the process that runs a student's code, and how it is made.

``_zygote`` forks each student's process and ``_sandbox`` (with ``_namespaces``,
``_landlock``, ``_syscalls`` and ``_libc``) confines it; ``_worker`` runs the
notebook's cells and answers calls there, over the wire (``grader._wire``, all
that crosses to the judge and back, and ``grader._harness``, instructor code
that runs beside the student's function: the protocol both sides import, below
both). Code here runs in the zygote or the confined process, which the
student controls once its first cell runs: it holds no check and no answer,
and reads nothing of the course but ``grader/givens``.
"""
