"""Torch's answers that take more than a torch call: the judge's side only.

One module per chapter. Each function here computes an exercise's answer with
the very idiom or algorithm the exercise asks for, so it must never be in what
a student can import: ``grader/hidden`` is left out of the student edition and
cannot be read by the student's process.
"""
