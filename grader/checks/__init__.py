"""Public checks: instant feedback in the student's own kernel.

One package per chapter, ``grader/checks/<chapter>/``. Its ``__init__``
registers one public check per exercise with ``@public_check``; beside it, with
the same names in every chapter that has them, ``_oracle.py`` (torch's truth,
where it is a torch call), ``_examples.py`` (examples the hidden checks reuse),
``_harnesses.py`` (code that runs next to the student's function) and, for
pitfalls, ``_claims.py``. The modules beside the chapters (``_compare``, the one
set of rules for right and wrong, ``_registry``, ``_local``, ``_digests``,
``_finite_answers``, ``_public_examples``) serve them all. ``check(fn)`` finds a
check by the function's name, which is the exercise's name everywhere (lesson,
solution, release, hidden checks).

Nothing a student can import computes an answer. Where an exercise's truth is
more than a torch call (its own idiom or algorithm), its oracle lives in
``grader/hidden/<chapter>/oracles.py`` and its check is registered with
``stored=True``: the judge passes the oracle's truth on every input it draws, and
``check`` tries the public examples stored at release with their answers
(``public_examples/``, ``_public_examples``).

What runs where: ``check`` imports every chapter in the student's own kernel,
so nothing a chapter's ``__init__`` imports may import hypothesis or anything
under ``grader/hidden``. The judge imports these checks too, and alone imports
``_finite_answers`` and ``pitfalls/_claims.py`` (they compute answers), the
oracles and the hidden checks' strategies (``grader/hidden/<chapter>/``, each chapter's
folder on the judge's side). These checks are advice, not grades: grading
re-runs hidden checks elsewhere.
"""

import importlib
import pkgutil

from ._registry import Mismatch, public_check, registered
from ._test_cell import NotAttempted, checking, translate

__all__ = ["check", "checking", "public_check", "Mismatch", "NotAttempted", "exercise_names"]


def _load_chapters() -> None:
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def exercise_names() -> dict[str, str]:
    """Every exercise with a public check, mapped to its chapter (its package's name)."""
    _load_chapters()
    return {name: entry.chapter for name, entry in registered().items()}


def check(answer) -> None:
    """Run the public check for ``answer`` (the exercise's function).

    Prints a one-line success (naming one of the student's own examples, where their
    variant is published), or raises ``Mismatch`` (an ``AssertionError``) whose
    message is a small counterexample: the input, your result, and torch's.
    """
    __tracebackhide__ = True  # IPython and pytest leave this frame out of a traceback
    _load_chapters()
    name = getattr(answer, "__name__", None)
    if not registered():
        # While a notebook is graded its process cannot read the checks at all.
        raise LookupError(translate("public checks are not available here: while grading, only "
                                    "the hidden checks run", "checks"))
    entry = registered().get(name)
    if entry is None:
        raise LookupError(translate("no public check for {name!r}; known: {known}",
                                    "checks").format(name=name, known=sorted(registered())))
    try:
        tried = entry.run(answer)
    except Mismatch as failure:
        # Raised again from here, alone: the student reads the exercise and the
        # counterexample, not a traceback through the checks' own frames.
        raise Mismatch(translate("{name}: {failure}", "checks").format(name=name,
                                                                   failure=failure)) from None
    from . import _digests  # not at the top: the judge's (and zygote's) memory stays as it was

    if _digests.withheld() and name in _digests.finite_exercises():
        print(translate("✓ {name}: the form of your answers is right ({count} examples); whether "
                        "they are right is for the grader to say, not this check",
                        "checks").format(name=name, count=tried.count))
    elif tried.yours:  # the student's own examples, drawn for their variant, shown by one
        from ._variant_examples import shown

        print(translate("✓ {name}: {count} examples agree with torch, {drawn} of them drawn "
                        "for you alone, such as {call}", "checks").format(
            name=name, count=tried.count, drawn=len(tried.yours),
            call=shown(name, tried.yours[0])))
    else:
        print(translate("✓ {name}: {count} examples agree with torch", "checks").format(
            name=name, count=tried.count))
