"""Hypothesis strategies of the hidden checks: what the judge draws, never the student's kernel.

``shared`` holds what every chapter draws (shapes, tensors with the layouts real
torch ops make, raw ``(shape, stride, offset)`` triples, index tuples); each
chapter with strategies of its own has a module named after it
(``storage_strides``, ``creating_tensors``, ``shape_ops_broadcasting``, ``devices``,
``autograd``, ``pitfalls``), imported by ``grader/hidden/test_<nn>_<chapter>.py``.

They live here, beside the hidden checks, and not in ``grader.checks``, because
``grader.checks`` is what ``check(fn)`` imports in the student's own kernel:
nothing there imports hypothesis or anything under ``grader/hidden``. Only a
judge process runs these (and the grader's own tests); a student's graded
process cannot read ``grader/hidden`` at all, and a student edition of the
course is to leave the folder out. A helper the public checks need too lives on
the public side and is imported from there, never the other way round
(``storage_extent``, the storage a layout spans: ``grader.checks.storage_strides._oracle``).

``grader/hidden`` itself has no ``__init__.py`` on purpose (pytest runs the
hidden checks with it as their rootdir); this package is reached as a portion
of the ``grader`` package, ``grader.hidden.strategies``.
"""
