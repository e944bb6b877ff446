"""The batch tier: the grading command's own work around the judges.

``_run`` is the grading run (judging ahead, nbgrader's steps beside it, the
summary); ``_parallel`` judges a class in parallel (a pool or a Dask cluster) and stores
each verdict (``grader.store``); ``_triage`` sets aside files that are not
notebooks; ``_gradebook`` and ``_report`` summarise (``grader._progress`` shows
progress), ``_misconception_report`` counts the misconceptions the feedback names;
``_export`` writes the grades for an LMS; ``_demo`` makes synthetic students. Runs
in the grading command (and cluster workers), which never imports torch and never
runs student code.
"""
