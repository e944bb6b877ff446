"""Which notebook each worker judges next, dealt as the workers free up.

A judge searches a check's examples on the first notebook that passes it and replays
them for the notebooks after (``grader.judge._replay``); it also adds them to a file per
assignment that every judge reads before its first notebook of that assignment
(``_replay_file``). So a worker keeps to the assignments it has started (its judge
replays them); a free worker starts an assignment nobody has started; and once none is
left, it helps with the assignment with the most notebooks left among those with a
notebook judged (the examples it drew are kept by then), instead of idling while
another worker judges a long queue. A worker waits, rather than search an assignment
another worker is searching now, unless nothing at all is being judged.

Dealt ahead, in whole chains to the least loaded queue (by notebooks, not by their
cost), one queue finished 4.5 to 7.3 s before the other (the bench's 30 notebooks, 2
cores): a chapter's notebooks took 3.9 to 15.3 s in all, most of it in its searches.
Any order gives the same verdicts (``tests/judge/test_replay.py``).
"""

import collections
from collections.abc import Hashable

__all__ = ["Dealer"]


class Dealer:
    """Deals each notebook (by its key) once, to whichever worker asks as it frees up."""

    def __init__(self, notebooks: list[tuple[str, str]]):
        """``notebooks``: (key, assignment) in the order assignments should be started."""
        self._left: dict[str, list[str]] = {}  # assignment → its keys not dealt yet
        for key, assignment in notebooks:
            self._left.setdefault(assignment, []).append(key)
        self._started: set[str] = set()
        self._judged: set[str] = set()  # assignments with a notebook judged (or failed)
        self._taken = collections.defaultdict(list)  # worker → its assignments, latest last

    def deal(self, worker: Hashable, others_judging: bool) -> tuple[str, str] | None:
        """The next (key, assignment) for ``worker``; None: it waits for a notebook to be
        judged (only while ``others_judging``), or nothing is left."""
        assignment = self._choose(worker, others_judging)
        if assignment is None:
            return None
        keys = self._left[assignment]
        key = keys.pop(0)
        if not keys:
            del self._left[assignment]
        self._started.add(assignment)
        if assignment not in self._taken[worker]:
            self._taken[worker].append(assignment)
        return key, assignment

    def judged(self, assignment: str) -> None:
        """A notebook of ``assignment`` is judged: its examples are kept for any judge."""
        self._judged.add(assignment)

    def _choose(self, worker: Hashable, others_judging: bool) -> str | None:
        own = [a for a in reversed(self._taken[worker]) if a in self._left]
        fresh = [a for a in self._left if a not in self._started]
        ready = [a for a in self._left if a in self._judged or not others_judging]
        for choices in (own, fresh):
            if choices:
                return choices[0]
        return max(ready, key=lambda a: len(self._left[a]), default=None)
