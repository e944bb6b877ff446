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
import os
from pathlib import Path

from grader._progress import ProgressLine
from grader.batch._dealing import Dealer
from grader.bridge._structure import RestoredAhead
from grader.bridge._variants import variants_of
from grader.judge._judge_server import judge
from grader.store import _verdicts

__all__ = ["judge_batch"]


def _judge_and_store(nb: dict, assignment: str, folder: str,
                     variants: dict | None = None) -> str | None:
    """Judge one notebook for the store (``verdict_for``); why not, if it could not be.

    A failure is returned, not raised: the worker goes on to its next notebook.
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


def _slots(client) -> list[tuple[str | None, int]]:
    """Each thread of each of the cluster's workers, by (address, index)."""
    workers = client.scheduler_info()["workers"]
    return [(address, i) for address, worker in workers.items()
            for i in range(worker.get("nthreads", 1))] or [(None, 0)]


def _completions(pending: dict, folder: Path, workers: int | None, scheduler: str | None):
    """(assignment, submissions, failure or None) for each notebook judged, as they complete."""
    from distributed import as_completed

    progress = ProgressLine(len(pending), "notebooks judged")
    with _client(workers, scheduler) as client:
        # Later chapters have the heavier checks: started first.
        order = sorted(pending, key=lambda key: pending[key][1], reverse=True)
        dealer, idle = Dealer([(key, pending[key][1]) for key in order]), _slots(client)
        running, done, finished = {}, as_completed(), None
        while True:
            for slot in list(idle):  # each free thread gets its next notebook, if any
                dealt = dealer.deal(slot, others_judging=bool(running))
                if dealt is not None:
                    future = _submit(client, pending, dealt[0], folder, slot[0])
                    running[future] = slot
                    done.add(future)
                    idle.remove(slot)
            if finished:  # said after its thread got its next notebook
                progress.advance()
                yield finished
            if not running:
                break
            future = next(done)
            idle.append(running.pop(future))
            dealer.judged(pending[future.key][1])
            finished = *pending[future.key][1:3], _failure(future)
    progress.close()


def _submit(client, pending: dict, key: str, folder: Path, worker: str | None):
    """Judge notebook ``key`` on ``worker`` (elsewhere only if that worker is gone)."""
    nb, assignment, _, variants = pending[key]
    return client.submit(_judge_and_store, nb, assignment, str(folder), variants, key=key,
                         pure=False, workers=worker and [worker], allow_other_workers=True)


def _failure(future) -> str | None:
    if future.status == "error":
        return f"{future.key}: {future.exception()}"
    return future.result() and f"{future.key}: {future.result()}"


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
