"""Public examples: fixed inputs with torch's answers, stored at release.

Some exercises' truth is more than a torch call: it is the very idiom or
algorithm the exercise asks for (a graph walk, a training loop, the packing of
a buffer). What computes it lives on the judge's side only
(``grader/hidden/<chapter>/oracles.py``), never in what a student can import. Their public
checks (registered with ``stored=True``) take the truth as ``truth=``, and in
the student's kernel they try their examples as stored here, each with the
keyword arguments written for it at release (``python -m grader.cli release``):
the answer, like a docstring's example, for that input and no other. The judge
never reads these files: it asks the oracles, on every input it draws.

One JSON file per exercise, ``public_examples/<exercise>.json``, in the wire's
format (``grader._wire``: plain data, dtypes, and CPU or meta tensors with
their layout; no pickle). A test checks them against the oracles
(``tests/checks/test_public_examples.py``).
"""

import json
from pathlib import Path

__all__ = ["EXAMPLES_DIR", "decode", "encode", "load", "save"]

EXAMPLES_DIR = Path(__file__).with_name("public_examples")


def _path(name: str, folder: Path | None) -> Path:
    return (folder or EXAMPLES_DIR) / f"{name}.json"


def save(name: str, cases: list[tuple[tuple, dict]], folder: Path | None = None) -> Path:
    """Write ``name``'s examples, each ``(arguments, keyword arguments)``, as the public
    check will pass them to its comparison."""
    import torch

    path = _path(name, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    examples = [json.dumps(example, ensure_ascii=False) for example in encode(cases)]
    head = json.dumps({"exercise": name, "torch": torch.__version__.split("+")[0]})
    # One example a line: a changed example is a changed line.
    path.write_text(head[:-1] + ', "examples": [\n' + ",\n".join(examples) + "\n]}\n",
                    encoding="utf-8")
    return path


def load(name: str, folder: Path | None = None) -> list[tuple[tuple, dict]]:
    """``name``'s examples as stored at release, fresh objects on every call (a function
    that writes to its input changes nothing for the next check)."""
    path = _path(name, folder)
    if not path.is_file():
        raise LookupError(f"{name}: its public examples were never written "
                          f"({path.name}): run `make release`")
    return decode(json.loads(path.read_text(encoding="utf-8"))["examples"])


def encode(cases: list[tuple[tuple, dict]]) -> list[dict]:
    """``cases`` as plain data: ``{"args": ..., "kwargs": ...}`` each, in the wire's format
    (also how a student's variant carries the stored examples drawn for them)."""
    from grader import _wire

    # Arguments and keyword arguments travel apart: an answer never shares storage with
    # the input it was computed from, so a function that writes to its input cannot
    # change the answer it is compared with.
    return [{"args": _wire.encode(tuple(args)), "kwargs": _wire.encode(dict(kwargs))}
            for args, kwargs in cases]


def decode(examples: list[dict]) -> list[tuple[tuple, dict]]:
    """``encode``'s cases back, fresh objects on every call."""
    from grader import _wire

    return [(_wire.decode(example["args"]), _wire.decode(example["kwargs"]))
            for example in examples]
