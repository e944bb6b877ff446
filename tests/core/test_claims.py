"""Every guarantee the documents make names a test, and every test they name exists.

README.md and docs/*.md cite tests as ``tests/<file>.py`` or
``tests/<file>.py::<test>``. A cited file must exist, a cited test must be a
test function defined in it, and every row of the threat model's guarantees
table must cite at least one test by name.
"""

import ast
import re
from pathlib import Path

from support import ROOT

CITATION = re.compile(r"tests/[\w/]+\.py(?:::\w+)?")
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def missing(citations: set[str], root: Path = ROOT) -> list[str]:
    """The citations that name no existing test file, or no test in it."""
    gone = []
    for citation in sorted(citations):
        file, _, name = citation.partition("::")
        path = root / file
        if not path.is_file() or (name and name not in _test_names(path)):
            gone.append(citation)
    return gone


def _citations() -> set[str]:
    return {c for doc in DOCUMENTS for c in CITATION.findall(doc.read_text(encoding="utf-8"))}


def _guarantee_rows() -> list[str]:
    text = (ROOT / "docs" / "threat_model.md").read_text(encoding="utf-8")
    table = text.split("| threat | enforcement | proved by |", 1)[1].split("\n\n", 1)[0]
    return [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]


def test_every_cited_test_exists():
    citations = _citations()
    assert len(citations) >= 40  # the documents were read
    assert missing(citations) == []


def test_every_guarantee_names_the_tests_that_prove_it():
    rows = _guarantee_rows()
    assert len(rows) >= 25
    unproved = [row[:80] for row in rows if not any("::" in c for c in CITATION.findall(row))]
    assert unproved == []


def test_a_citation_of_a_test_that_does_not_exist_is_caught():
    real = "tests/core/test_claims.py::test_every_cited_test_exists"
    assert missing({real}) == []
    assert missing({"tests/test_crash_safety.py", real + "_and_more",
                    "tests/core/test_claims.py::CITATION"}) == [
        "tests/core/test_claims.py::CITATION", real + "_and_more", "tests/test_crash_safety.py"]
