"""Which notebook each worker judges next (``grader/batch/_dealing.py``): one search per
assignment where it can be, no worker idle while another has a queue, each notebook once."""

import random

import pytest

from grader.batch._dealing import Dealer

BATCH = [("a1", "A"), ("a2", "A"), ("a3", "A"), ("b1", "B"), ("b2", "B")]


def test_a_worker_keeps_to_its_assignment_and_a_free_one_starts_another():
    dealer = Dealer([*BATCH, ("c1", "C")])
    assert dealer.deal("w1", others_judging=False) == ("a1", "A")
    assert dealer.deal("w2", others_judging=True) == ("b1", "B")  # not A: w1 searches it
    dealer.judged("A")
    assert dealer.deal("w1", others_judging=True) == ("a2", "A")  # its judge replays A
    assert dealer.deal("w3", others_judging=True) == ("c1", "C")


def test_a_free_worker_waits_for_a_search_then_helps_with_its_queue():
    dealer = Dealer(BATCH)
    dealer.deal("w1", others_judging=False)
    dealer.deal("w2", others_judging=True)
    dealer.judged("B")
    assert dealer.deal("w2", others_judging=True) == ("b2", "B")
    dealer.judged("B")
    # Only A is left, and w1 is still on its first notebook: its examples are not kept yet.
    assert dealer.deal("w2", others_judging=True) is None
    dealer.judged("A")
    assert dealer.deal("w2", others_judging=True) == ("a2", "A")
    assert dealer.deal("w1", others_judging=True) == ("a3", "A")
    assert dealer.deal("w1", others_judging=True) is None  # all dealt


def test_with_nothing_being_judged_a_worker_takes_what_is_left():
    dealer = Dealer(BATCH[:3])
    dealer.deal("w1", others_judging=False)
    # w1's notebook failed without a verdict being stored, say: nothing is in flight.
    assert dealer.deal("w2", others_judging=False) == ("a2", "A")


@pytest.mark.parametrize("workers", [1, 2, 3, 16])
def test_every_notebook_is_dealt_once_and_no_worker_leaves_its_own_queue(workers):
    rng = random.Random(workers)
    batch = [(f"{a}{i}", a) for a in "ABCDEF" for i in range(rng.randint(1, 9))]
    dealer, idle, running, dealt = Dealer(batch), [f"w{i}" for i in range(workers)], {}, []
    latest = {}  # worker → the assignment of its last notebook
    while True:  # as grader.batch._parallel deals: to each free worker, then a completion
        for worker in list(idle):
            notebook = dealer.deal(worker, others_judging=bool(running))
            if notebook is None:
                continue
            left = {a for key, a in batch if (key, a) not in dealt}
            if latest.get(worker) in left:  # its judge has that one's examples
                assert notebook[1] == latest[worker], (worker, notebook, dealt)
            latest[worker] = notebook[1]
            idle.remove(worker)
            running[worker] = notebook
            dealt.append(notebook)
        if not running:
            break
        worker = rng.choice(sorted(running))
        dealer.judged(running.pop(worker)[1])
        idle.append(worker)
    assert sorted(dealt) == sorted(batch)
