"""jsonschema's IRI format checks, their grammar built when first used, not when imported.

jsonschema imports ``rfc3987_syntax`` where it is installed (jupyter-events asks for it)
to check the "iri" and "iri-reference" formats, and that module builds an Earley parser
of RFC 3987's grammar as it is imported: 0.98 s (``python -X importtime -c "import
grader.cli"``, of 1.19 s in all), paid by the grading command on its start-up, while
nothing else runs yet, for a format none of its steps checks (nbformat and nbgrader
validate without a format checker). ``defer`` puts a stand-in in its place: the real
module is imported when a check first calls it, so what a check answers does not change,
only when the grammar is built.

The stand-in has the real module's ``__file__``: code that scans every module reads
it, importing torch does (``inspect.getmodule``), in the grading command when it first
draws a layout picture. Without it the stand-in would import the real module to answer,
and the grammar would be built there after all (1.2 s of the run's CPU, sampled by
py-spy).
"""

import importlib
import importlib.util
import sys
import types

__all__ = ["defer"]

_NAME = "rfc3987_syntax"


def defer() -> None:
    """Until something calls it, ``rfc3987_syntax`` is a stand-in (if it is installed and
    not imported yet); call this before anything imports jsonschema."""
    if _NAME in sys.modules:
        return
    spec = importlib.util.find_spec(_NAME)
    if spec is None or spec.submodule_search_locations is None:
        return
    stand_in = types.ModuleType(_NAME, "Stands in for rfc3987_syntax until first used.")
    # Its submodules load from the real folder; its __init__ is one line,
    # ``from .syntax_helpers import *``, so ``_real`` is what importing it would give.
    stand_in.__path__ = list(spec.submodule_search_locations)
    stand_in.__file__ = spec.origin
    stand_in.is_valid_syntax = _is_valid_syntax  # what jsonschema imports from it
    stand_in.__getattr__ = lambda name: getattr(_real(), name)  # anything else, on use
    sys.modules[_NAME] = stand_in


def _real() -> types.ModuleType:
    return importlib.import_module(f"{_NAME}.syntax_helpers")


def _is_valid_syntax(term: str, value: str) -> bool:
    return _real().is_valid_syntax(term, value)
