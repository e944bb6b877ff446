"""The grading command defers jsonschema's RFC 3987 grammar (``grader/_iri_grammar.py``):
its start-up no longer builds it, and an IRI format check answers as it did."""

import json
import subprocess
import sys

from support import ROOT

# Each case: (value, format); answered in a fresh interpreter with and without the stand-in.
CASES = [("http://例え.jp/a?b#c", "iri"), ("not an iri", "iri"), ("//x/y", "iri-reference"),
         ("http://[::1", "iri"), (":", "iri-reference")]
PROBE = """
import json, sys
{before}
import jsonschema
built_on_import = "rfc3987_syntax.syntax_helpers" in sys.modules
checker = jsonschema.FormatChecker()
answers = [checker.conforms(value, kind) for value, kind in {cases!r}]
print(json.dumps([built_on_import, answers]))
"""


def _probe(before: str) -> tuple[bool, list[bool]]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(before=before, cases=CASES)],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return tuple(json.loads(out))


def test_the_grading_command_starts_without_building_the_grammar():
    built, _ = _probe("import grader.cli")
    assert not built


def test_importing_torch_after_it_does_not_build_the_grammar_either():
    # torch's import reads every module's __file__ (inspect.getmodule): the lane's first
    # layout picture imports torch, and the stand-in must not build the grammar for that.
    built, _ = _probe("import grader.cli\nimport torch")
    assert not built


def test_an_iri_check_answers_as_without_the_stand_in():
    built_stock, stock = _probe("")
    assert built_stock  # the measured cost is real: jsonschema builds it on import
    assert _probe("import grader.cli")[1] == stock
    assert stock == [True, False, True, False, False]
