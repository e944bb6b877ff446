"""The verdict store: each verdict judged, kept under a key of everything it depends on.

Runs in the grading command's process. The run's parallel judging (``grader.batch``)
writes it ahead of nbgrader; nbgrader's lane (``grader.bridge``) reads it, and writes
what it judges itself when nothing was judged ahead; both tiers import it, it imports
neither. The folder lives with the gradebook, where no student's process can read or write.
"""
