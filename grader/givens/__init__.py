"""What the exercises hand the student: inputs, constants and helpers, never an answer.

A notebook's setup cell imports from here (``from grader.givens.<chapter>
import ...``). While a notebook is graded, this package is the only part of
the course the student's process can read (see ``grader/student/_namespaces.py``):
oracles, public checks and hidden checks stay outside its root. So nothing
in here may compute, store or hint at an exercise's answer; a test imports
every module reachable there and tries each against every exercise
(``tests/student/test_reachable.py``).
"""
