"""The verdict store: each verdict judged, kept under a key of everything it depends on.

Runs in the grading command's process. The run's parallel judging (``grader.batch``)
and nbgrader's lane (``grader.bridge``) both ask it for a verdict (``verdict_for``),
which judges what it lacks by the judge they give and stores it: the store is its own
one writer. Both tiers import it, it imports neither. The folder lives with the
gradebook, where no student's process can read or write.
"""
