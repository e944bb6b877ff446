"""Judge every submission of a batch in parallel, on a Dask cluster.

A local cluster by default (one worker per core, in this process); give a
scheduler address to spread the batch over a real cluster whose workers see
the same course folder. Each task is one notebook: a judge process with its
own sandboxed student process, exactly as in serial grading, from a warm
judge that each cluster worker keeps (``_judge_server``); only the verdict
comes back, stored by content (``grader.store._verdicts``, its one writer) for nbgrader
to pick up.
"""

import collections
import contextlib
import itertools
import os
from pathlib import Path

from grader._progress import ProgressLine
from grader.bridge._structure import RestoredAhead
from grader.bridge._variants import variants_of
from grader.judge._judge_server import judge
from grader.store import _verdicts

__all__ = ["judge_batch"]


def _judge_and_store(nb: dict, assignment: str, folder: str, after=None,
                     variants: dict | None = None) -> str | None:
    """Judge one notebook for the store (``verdict_for``); why not, if it could not be.

    ``after`` is what the notebook before it in its chain returned: Dask runs
    this one where that one ran. A failure is returned, not raised, so that the
    rest of the chain still runs.
    """
    kept = _verdicts.examples_file(Path(folder), assignment)
    try:
        _verdicts.verdict_for(Path(folder), nb, assignment,
                              lambda: judge(nb, assignment, variants=variants, kept=kept),
                              variants)
    except Exception as exc:  # noqa: BLE001 - reported; nbgrader judges it again
        return f"{type(exc).__name__}: {exc}"
    return None


def _pending(batch: dict[str, tuple[dict, list[Path]]], folder: Path,
             translations: dict[str, list[dict]], ahead: RestoredAhead | None = None) -> dict:
    """key → (notebook, assignment, its submissions, their variant) to judge: no stored
    verdict yet, each code and variant once. Each notebook restored is kept in ``ahead``."""
    pending, ahead = {}, ahead or RestoredAhead()
    for assignment, (release, submissions) in batch.items():
        for path in submissions:
            try:
                nb, _ = ahead.restore(path, release, translations.get(assignment, ()))
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue  # triage reports it; nbgrader's own run says why
            # submitted/<student>/<assignment>/<notebook>: the id it was collected under;
            # the verdict store lives in the instructor folder, beside the key.
            variants = variants_of(folder.parent, assignment, path.parents[1].name)
            if _verdicts.stored_verdict(folder, nb, assignment, variants) is None:
                key = _verdicts.verdict_key(nb, assignment, variants)
                pending.setdefault(key, (nb, assignment, [], variants))[2].append(path)
    return pending


def _chains(order: list, workers: int) -> list[list]:
    """``order``'s notebooks dealt into chains, each judged one after another on one worker.

    A judge records a check's examples on the first notebook that passes it and
    replays them for the next ones (``_replay``), so each chain pays the search
    once (any order gives the same verdicts; only the time differs). An
    assignment gets its share of the workers in chains (at least one).
    """
    chains = []
    for _, group in itertools.groupby(order, key=lambda item: item[1][1]):
        group = list(group)
        count = max(1, round(workers * len(group) / len(order)))
        chains += [group[i::count] for i in range(count)]
    return chains


def _queues(chains: list[list], workers: list[str]) -> dict[str, list]:
    """The chains dealt to the workers, each chain whole to the least loaded one.

    A worker judges its queue in order, one notebook at a time: its assignments
    are judged one after another, so nbgrader can take each in turn while the
    cluster judges the rest, and no worker's queue interleaves two searches.
    """
    queues = {worker: [] for worker in workers}
    for chain in chains:
        min(queues.values(), key=len).extend(chain)
    return queues


@contextlib.contextmanager
def _client(workers: int | None, scheduler: str | None):
    from distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler) as client:
            yield client
        return
    # Workers in this process: each only waits on its warm judge (a process of its
    # own, with the student's sandboxed process under it), so a worker process
    # of its own would add nothing but its start-up. Closed here, not at exit:
    # its judges would idle through nbgrader's steps.
    with LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                      processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def _completions(pending: dict, folder: Path, workers: int | None, scheduler: str | None):
    """(assignment, submissions, failure or None) for each notebook judged, as they complete."""
    from distributed import as_completed

    progress = ProgressLine(len(pending), "notebooks judged")
    with _client(workers, scheduler) as client:
        # Later chapters have the heavier checks: start them first, so that no
        # worker is left with a long tail at the end.
        order = sorted(pending.items(), key=lambda item: item[1][1], reverse=True)
        workers = list(client.scheduler_info()["workers"]) or [None]
        futures = {}
        for worker, queue in _queues(_chains(order, len(workers)), workers).items():
            previous = None
            for key, (nb, assignment, paths, variants) in queue:
                # Where the queue is dealt, unless that worker is gone.
                previous = client.submit(_judge_and_store, nb, assignment, str(folder), previous,
                                         variants, key=key, pure=False, workers=worker and [worker],
                                         allow_other_workers=True)
                futures[previous] = assignment, paths
        for future in as_completed(futures):
            failure = (f"{future.key}: {future.exception()}" if future.status == "error"
                       else future.result() and f"{future.key}: {future.result()}")
            progress.advance()
            yield *futures[future], failure
    progress.close()


def judge_batch(batch: dict[str, tuple[dict, list[Path]]], folder: Path,
                workers: int | None = None, scheduler: str | None = None,
                each_judged=None, when_judged=None,
                translations: dict[str, list[dict]] | None = None,
                ahead: RestoredAhead | None = None) -> list[str]:
    """Judge what is not judged yet; return the failures (nbgrader will judge those again).

    ``batch``: assignment → (its released notebook, the submitted notebooks);
    ``translations``: assignment → its released notebook in each other language;
    ``ahead``: where the notebooks restored for judging are kept for nbgrader.
    Callbacks run in this thread while the cluster judges the rest, so that
    nbgrader's steps (one core's work) overlap with judging instead of following it:
    ``each_judged(assignment, submissions)`` as each notebook's verdict is stored
    (the submissions with that code), ``when_judged(assignment)`` once every
    notebook of that assignment is judged.
    """
    each = each_judged or (lambda assignment, submissions: None)
    notify = when_judged or (lambda assignment: None)
    pending = _pending(batch, folder, translations or {}, ahead)
    left = collections.Counter(assignment for _, assignment, _, _ in pending.values())
    for assignment in batch:
        if not left[assignment]:
            notify(assignment)
    failures, last = [], None
    for assignment, paths, failure in (_completions(pending, folder, workers, scheduler)
                                       if pending else ()):
        if failure:
            failures.append(failure)
        else:
            each(assignment, paths)
        left[assignment] -= 1
        if left[assignment]:
            continue
        if any(left.values()):
            notify(assignment)
        else:
            last = assignment  # after the cluster is closed: nothing left to overlap
    if last:
        notify(last)
    return failures
