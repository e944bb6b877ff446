"""Torch's answers that take more than a torch call: the judge's side only.

One module per chapter with such an exercise, ``grader/hidden/<chapter>/oracles.py``,
each function marked ``@oracle(exercise)`` (``_oracle_registry``); this module gathers
them (``ORACLES``) and answers for them. Each oracle computes an exercise's answer with
the very idiom or algorithm the exercise asks for (a graph walk, a training
loop, the packing of a buffer), so it must never be in what a student can
import: ``grader/hidden`` is left out of the student edition, and the
student's process cannot read it. Their exercises' public checks are
registered with ``stored=True`` and take the truth as ``truth=``:

- in the judge, the hidden checks pass what these oracles compute for every
  input they draw (``truth_for`` for the public examples, which count too);
- in the student's kernel, ``check`` tries the public examples as stored at
  release, each with the answer these oracles gave for it
  (``write_public_examples``; ``grader/checks/_public_examples.py``).

The arrow points one way: these modules import the public checks, never the
reverse.
"""

from pathlib import Path

from grader.checks import _public_examples, exercise_names
from grader.checks._compare import tolerance
from grader.checks._registry import registered

from ._oracle_registry import ORACLES

# Each chapter's oracles.py registers its oracles as it is imported (``@oracle``); imported
# by name, so that the verdict key (grader/store/_verdict_sources.py, which reads imports)
# sees every chapter's oracles as this module's.
from .autograd import oracles as autograd  # noqa: F401
from .creating_tensors import oracles as creating_tensors  # noqa: F401
from .devices import oracles as devices  # noqa: F401
from .pitfalls import oracles as pitfalls  # noqa: F401
from .shape_ops_broadcasting import oracles as shape_ops_broadcasting  # noqa: F401

__all__ = ["ORACLES", "STORED_ALLOWANCES", "public_examples", "truth_for",
           "write_public_examples"]

# What a public check passes besides ``truth`` where an answer stored at release needs
# it. seeded_init's answers were drawn on the release machine: torch.randn rounds the
# last bits of float32 draws of 16 numbers or more otherwise with AVX2 than without
# (torch/include/ATen/native/cpu/DistributionTemplates.h, NormalFill16), so the student's
# CPU may differ by a few units in the last place. The judge draws on the student's own
# machine and compares exactly.
STORED_ALLOWANCES = {
    "seeded_init": lambda shapes, seed, dtype: tolerance(dtype),
}


def truth_for(name: str, example: tuple) -> dict:
    """The keyword arguments the judge adds to ``name``'s comparison on ``example``:
    ``truth``, computed here, for a stored check; nothing for a check that asks torch
    itself."""
    return {"truth": ORACLES[name](*example)} if registered()[name].stored else {}


def public_examples(name: str) -> list[tuple[tuple, dict]]:
    """``name``'s public examples, each with what its public check passes besides it:
    torch's answer, and any allowance the stored answer needs (``STORED_ALLOWANCES``)."""
    allowance = STORED_ALLOWANCES.get(name, lambda *example: {})
    return [(example, {"truth": ORACLES[name](*example), **allowance(*example)})
            for example in registered()[name].examples()]


def write_public_examples(folder: Path | None = None) -> list[Path]:
    """(Re)write every stored check's public examples (``python -m grader.cli release``)."""
    exercise_names()  # every chapter's checks registered
    return [_public_examples.save(name, public_examples(name), folder)
            for name, entry in sorted(registered().items()) if entry.stored]
