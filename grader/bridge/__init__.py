"""The bridge to nbgrader: everything that touches nbgrader, in the grading command.

``_nbgrader`` holds the preprocessors that take the place of nbgrader's
kernel (the judge's verdict in each test cell) and the feedback pipeline;
``_structure`` puts a submission back into the released shape before nbgrader
reads it; ``_steps`` runs nbgrader's steps in process, each step's Python warnings
kept in its log (``_step_warnings``).
"""
