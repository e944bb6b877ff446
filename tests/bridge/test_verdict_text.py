"""What a student reads in a graded test cell (``grader.bridge._verdict_text``)."""

from grader.bridge._verdict_text import NOT_ATTEMPTED, report_lines

ENTRY = "says correctly whether this operation returns a view of x or a copy"


def _record(checks: list[dict]) -> dict:
    return {"passed": sum(c["passed"] for c in checks), "total": len(checks), "checks": checks}


def _entry(passed: bool, detail: str = "") -> dict:
    return {"description": ENTRY, "passed": passed, "detail": detail}


def test_passed_examples_of_one_description_are_one_line():
    lines = report_lines("view_or_copy", _record([_entry(True)] * 16), 2.0)
    assert lines[1:] == [f"  ✓ {ENTRY} (16 examples)"]


def test_a_failing_group_says_how_many_and_shows_the_first_failures():
    checks = [_entry(False, f"entry {k} is wrong") for k in range(5)] + [_entry(True)] * 11
    lines = report_lines("view_or_copy", _record(checks), 2.0)
    assert lines[0].endswith("11 of 16 passed → 1.38 / 2 points")
    assert lines[1] == f"  ✗ {ENTRY}: 5 of 16 wrong"
    assert lines[2:] == ["      entry 0 is wrong", "      entry 1 is wrong",
                         "      entry 2 is wrong", "      … and 2 more"]


def test_groups_keep_the_order_of_their_first_check():
    checks = [{"description": d, "passed": True, "detail": ""} for d in "bab"]
    assert report_lines("x", _record(checks), 1.0)[1:] == ["  ✓ b (2 examples)", "  ✓ a"]


def test_a_stub_is_not_attempted_yet_with_no_list_of_failures():
    checks = [{"description": d, "passed": False,
               "detail": "your code: NotImplementedError\nfailing input: x=1"} for d in "abc"]
    assert report_lines("double", _record(checks), 2.0)[1:] == [NOT_ATTEMPTED]


def test_a_stub_that_answers_some_inputs_is_attempted():
    checks = [{"description": "a", "passed": False, "detail": "your code: NotImplementedError"},
              {"description": "b", "passed": False, "detail": "returned 3; torch gives 2"}]
    lines = report_lines("double", _record(checks), 2.0)
    assert NOT_ATTEMPTED not in lines and "      returned 3; torch gives 2" in lines
