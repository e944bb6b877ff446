"""Chapter devices, the judge's side: its hidden checks (``test.py``), what they draw
(``strategies.py``), its named wrong answers (``wrong_answers.py``) and, for an
exercise whose truth is its own algorithm, its oracles (``oracles.py``).

Empty on purpose: pytest imports this folder as a package of its own, ``devices``
(``grader/hidden`` has no ``__init__.py``, so it is the hidden checks' root), and the
grader imports it as ``grader.hidden.devices``; nothing here may run twice.
"""
