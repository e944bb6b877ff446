"""The late policy (``grader/batch/_late_policy.py``): days late past a grace period,
late days spent from a budget in due-date order, a capped penalty per day or zero past a
cutoff; and its exports (``grader/batch/_export.py``) from a gradebook built with
nbgrader's API, the raw score kept beside the penalised one."""

import csv
import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.batch import with_alembic

from grader.batch._late_policy import HandIn, LatePolicy, apply_late_policy, read_late_policy

DAY, HOUR, MINUTE = (datetime.timedelta(days=1), datetime.timedelta(hours=1),
                     datetime.timedelta(minutes=1))
START = datetime.datetime(2026, 11, 2, 23, 59)
# Names in another order than the due dates: late days go by due date, not by name.
DUE = {"intro": START, "autograd": START + 7 * DAY, "devices": START + 14 * DAY}
POLICY = LatePolicy(grace=15 * MINUTE, penalty_per_day=0.1, max_penalty=0.5,
                    zero_after_days=7, late_days=3,
                    grace_by_assignment={"devices": HOUR})
# student → {assignment: time handed in past its due date}; every raw score 10
CLASS = {
    "ada": {"intro": -HOUR, "autograd": -DAY, "devices": datetime.timedelta(0)},
    "bo": {"intro": 10 * MINUTE, "autograd": 2 * DAY, "devices": 3 * DAY - HOUR},
    "cy": {"intro": 8 * DAY, "autograd": 15 * MINUTE + datetime.timedelta(seconds=1)},
    "dee": {"intro": 5 * DAY, "autograd": 10 * DAY, "devices": 6 * DAY},
}
# (student, assignment) → (days late, late days spent, left, penalty, penalised)
EXPECTED = {
    ("ada", "intro"): (0, 0, 3, 0.0, 10.0), ("ada", "autograd"): (0, 0, 3, 0.0, 10.0),
    ("ada", "devices"): (0, 0, 3, 0.0, 10.0),
    ("bo", "intro"): (0, 0, 3, 0.0, 10.0),  # within the grace
    ("bo", "autograd"): (2, 2, 1, 0.0, 10.0),
    ("bo", "devices"): (3, 1, 0, 0.2, 8.0),  # 71 h past due, 70 past its own 1 h grace
    ("cy", "intro"): (8, 0, 3, 1.0, 0.0),  # past the cutoff: zero, no day spent on it
    ("cy", "autograd"): (1, 1, 2, 0.0, 10.0),  # one second past the grace: a started day
    ("dee", "intro"): (5, 3, 0, 0.2, 8.0),
    ("dee", "autograd"): (10, 0, 0, 1.0, 0.0),
    ("dee", "devices"): (6, 0, 0, 0.5, 5.0),  # 6 days charged, capped at half
}


def _hand_ins(late_by: dict) -> dict:
    return {(student, name): HandIn(DUE[name] + late, DUE[name], 10.0)
            for student, handed in late_by.items() for name, late in handed.items()}


def _table(outcomes) -> dict:
    return {key: (o.days_late, o.late_days_spent, o.late_days_left, round(o.penalty, 9),
                  round(o.penalised, 9)) for key, o in outcomes.items()}


def test_a_sample_class_spends_late_days_in_due_order_then_pays_per_day():
    outcomes = apply_late_policy(DUE, _hand_ins(CLASS), POLICY)
    assert _table(outcomes) == EXPECTED
    assert all(o.raw == 10.0 for o in outcomes.values())  # the raw score kept


def test_no_policy_charges_nothing():
    outcomes = apply_late_policy(DUE, _hand_ins(CLASS), LatePolicy())
    assert {o.penalised for o in outcomes.values()} == {10.0}
    assert outcomes["dee", "autograd"].days_late == 10


_lateness = st.one_of(st.none(), st.integers(-3 * 86400, 20 * 86400))
_policies = st.builds(
    LatePolicy, grace=st.integers(0, 3 * 86400).map(lambda s: datetime.timedelta(seconds=s)),
    penalty_per_day=st.floats(0, 1), max_penalty=st.floats(0, 1),
    zero_after_days=st.none() | st.integers(0, 10), late_days=st.integers(0, 6))
_class = st.dictionaries(
    st.sampled_from(["s1", "s2", "s3"]),
    st.dictionaries(st.sampled_from(sorted(DUE)),
                    st.tuples(_lateness, st.floats(0, 100, allow_nan=False))), max_size=3)


@settings(max_examples=300, deadline=None)
@given(_policies, _class)
def test_the_penalised_score_stays_between_0_and_the_raw_and_no_budget_is_overspent(
        policy, handed):
    hand_ins = {(student, name): HandIn(None if late is None
                                        else DUE[name] + datetime.timedelta(seconds=late),
                                        DUE[name], raw)
                for student, by_name in handed.items() for name, (late, raw) in by_name.items()}
    outcomes = apply_late_policy(DUE, hand_ins, policy)
    assert outcomes.keys() == hand_ins.keys()
    for outcome in outcomes.values():
        assert 0.0 <= outcome.penalised <= outcome.raw
        assert 0 <= outcome.late_days_spent <= outcome.days_late
        assert 0 <= outcome.late_days_left <= policy.late_days
    for student in handed:
        spent = sum(o.late_days_spent for (s, _), o in outcomes.items() if s == student)
        assert spent <= policy.late_days


def test_the_policy_file_is_read_and_a_typo_refused(tmp_path):
    path = tmp_path / "late_policy.toml"
    assert read_late_policy(path) == LatePolicy()  # no file: no penalty
    path.write_text("grace_minutes = 15\npenalty_per_day = 0.1\nmax_penalty = 0.5\n"
                    "zero_after_days = 7\nlate_days = 3\n"
                    "[assignments.devices]\ngrace_minutes = 60\n")
    assert read_late_policy(path) == POLICY
    path.write_text("late_day = 3\n")
    with pytest.raises(ValueError, match="unknown setting 'late_day'"):
        read_late_policy(path)
    path.write_text("penalty_per_day = 10\n")
    with pytest.raises(ValueError, match="penalty_per_day must be a fraction"):
        read_late_policy(path)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A gradebook of the sample class (one exercise of 10 points per assignment);
    the policy read from ``late_policy.toml`` in the instructor folder."""
    from nbgrader.api import Gradebook

    from grader.batch._export import export_for_lms

    instructor = tmp_path_factory.mktemp("instructor")
    db_url = f"sqlite:///{instructor / 'gradebook.db'}"
    with pytest.MonkeyPatch.context() as patch, Gradebook(with_alembic(patch, db_url)) as book:
        for name, due in DUE.items():
            book.update_or_create_assignment(name, duedate=due)
            book.update_or_create_notebook(name, name)
            book.update_or_create_grade_cell("q", name, name, max_score=10.0, cell_type="code")
        for student, handed in CLASS.items():
            book.update_or_create_student(student)
            for name, late in handed.items():
                book.add_submission(name, student, timestamp=DUE[name] + late)
                book.find_grade("q", name, name, student).auto_score = 10.0
                book.db.commit()
    (instructor / "late_policy.toml").write_text(
        "grace_minutes = 15\npenalty_per_day = 0.1\nmax_penalty = 0.5\nzero_after_days = 7\n"
        "late_days = 3\n[assignments.devices]\ngrace_minutes = 60\n")
    export_for_lms(db_url, instructor / "export")
    return instructor / "export"


def _rows(path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_exports_keep_the_raw_score_beside_the_penalised_one(exported):
    wide = {row["student_id"]: row for row in _rows(exported / "grades_wide.csv")}
    assert [wide["dee"][c] for c in ("intro:raw", "intro", "intro:late", "intro:late_days",
                                     "autograd", "devices")] == ["10", "8", "late", "3", "0", "5"]
    assert (wide["dee"]["raw_total"], wide["dee"]["total"]) == ("30", "13")
    assert (wide["bo"]["intro:late"], wide["cy"]["devices"]) == ("on time", "")
    canvas = {row["SIS Login ID"]: row for row in _rows(exported / "canvas.csv")[1:]}
    moodle = {row["Username"]: row for row in _rows(exported / "moodle.csv")}
    for lms in (canvas, moodle):
        assert [lms["bo"][n] for n in ("intro", "autograd", "devices")] == ["10", "10", "8"]
        assert [lms["cy"][n] for n in ("intro", "autograd", "devices")] == ["0", "10", ""]


def test_the_late_day_statement_has_a_row_per_submission_in_due_order(exported):
    rows = _rows(exported / "late_days.csv")
    assert list(rows[0]) == ["student_id", "assignment", "submitted", "due", "days_late",
                             "late_days_spent", "late_days_left", "penalty"]
    table = {(r["student_id"], r["assignment"]): (int(r["days_late"]), int(r["late_days_spent"]),
                                                  int(r["late_days_left"]), float(r["penalty"]))
             for r in rows}
    assert table == {key: expected[:4] for key, expected in EXPECTED.items()}
    assert [r["assignment"] for r in rows if r["student_id"] == "bo"] == [
        "intro", "autograd", "devices"]
    assert rows[0]["submitted"] == "2026-11-02 22:59:00" and rows[0]["due"] == "2026-11-02 23:59:00"
