"""Warm judges: one judge process grades notebook after notebook.

A judge's start-up (torch, pytest, hypothesis, the checks) costs seconds, and
so did each student's process. A warm judge pays that once: it serves
requests on a pipe, each one the same ``run_judge`` a fresh judge would do,
with every student's process forked fresh from the judge's zygote
(``_zygote``). Nothing of a student reaches the next one: the student's code
only ever ran in its own confined process, and the judge keeps nothing of a
student between notebooks (no example database; derandomized examples). It
does keep the examples it drew for checks that passed, to replay them
(``_replay``): drawn by its own strategies, untouched by any answer; and it
adds them to a file in the instructor folder for the judges after it
(``_replay_file``), where no student's process can read or write.

``judge(nb, assignment)`` takes an idle warm judge of this process (or starts
one), so that threads judge in parallel. A judge that fails, times out or has
graded ``_recycle_after()`` notebooks is replaced.

A judge reads its configuration (instructor folder, time limits, confinement:
see ``_sandbox.judge_environment``) once, when it starts. So an idle judge is
taken again only for a request made under the configuration it was started
with: the environment a judge would be started with now, and the folder it
would start in. Under another one a new judge starts, and the idle judges of
other configurations are stopped.
"""

import contextlib
import gc
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from grader._course import speed_pieces_off
from grader.judge._judge_template import ForkedJudge, Template
from grader.student import _sandbox

__all__ = ["close_idle", "import_ahead", "judge", "serve", "started_ahead"]


def _recycle_after() -> int:
    """Notebooks a judge grades before it is replaced: a bound on anything a long-lived
    process accumulates (1: a new judge per notebook, warm judges benched)."""
    return 1 if "warm-judges" in speed_pieces_off() else 100


def _niceness() -> int:
    """Added to a judge's CPU niceness: nbgrader's lane (one thread of the grading command)
    goes first. It takes each notebook after its judge, so if it keeps up, only the last
    assignment's steps are left when judging ends; the judges still have every core but
    the lane's. Measured, 30 notebooks on 2 cores, three runs each: 26.7 s at 10, 27.4 s
    at 0; the lane's work left after judging 1.2 to 1.4 s, was 2.9 to 3.9 s (``make bench``:
    the piece "lane-first"). Students' cell time limits are wall-clock, and generous
    (``TENSOR_ANATOMY_CELL_TIMEOUT``, 60 s): a priority that gives the judges every core
    but one at the worst does not bring a notebook near them."""
    return 0 if "lane-first" in speed_pieces_off() else 10


def _configuration() -> tuple[dict[str, str], str | None]:
    """What a judge started now would be started with: its whole environment (everything
    it and the student's processes it forks can read of ours) and its working folder
    (against which a relative path in that environment resolves)."""
    try:
        folder = os.getcwd()
    except FileNotFoundError:  # ours was removed: the judge starts in it all the same
        folder = None
    return _sandbox.judge_environment(), folder


def _key(configuration: tuple[dict[str, str], str | None]) -> tuple:
    environment, folder = configuration
    return tuple(sorted(environment.items())), folder


class _WarmJudge:
    def __init__(self, configuration: tuple[dict[str, str], str | None]):
        if "judge-template" in speed_pieces_off():
            environment, folder = configuration
            self.proc = _sandbox.start_tied(
                [sys.executable, "-m", "grader.judge._judge", "--serve"], _niceness(),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=environment, cwd=folder)
        else:
            self.proc = _forked(configuration)
        self.served, self.owner = 0, threading.get_ident()
        self.key = _key(configuration)  # served only requests made under this configuration

    def judge(self, request: dict, timeout: float) -> str:
        """Send one request; the judge's one-line answer ("ok" or why not)."""
        self.served += 1
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        fd, line, deadline = self.proc.stdout.fileno(), b"", time.monotonic() + timeout
        while not line.endswith(b"\n"):
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                raise TimeoutError(f"no verdict within {timeout:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("the judge stopped")
            line += chunk
        return line.decode().strip()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()


_idle: list[_WarmJudge] = []
_lock = threading.Lock()
_templates: dict[tuple, Template] = {}  # configuration → the template its judges fork from
_templates_lock = threading.Lock()


def _forked(configuration: tuple[dict[str, str], str | None]) -> ForkedJudge:
    """A judge forked from the template of ``configuration`` (started if there is none,
    or again if it stopped). Templates of other configurations are stopped once no judge
    of theirs runs: stopping one stops its judges."""
    key = _key(configuration)
    with _templates_lock:
        _stop_idle_templates(keep=key)
        for attempt in (1, 2):
            if key not in _templates:
                _templates[key] = Template(configuration, _niceness())
            try:
                return _templates[key].fork()
            except EOFError:
                _templates.pop(key).close()
                if attempt == 2:
                    raise


def _stop_idle_templates(keep: tuple | None = None) -> None:
    """Stop every template but ``keep``'s that no live judge was forked from (holding
    ``_templates_lock``): stopping one stops its judges."""
    idle = [key for key, t in _templates.items() if key != keep and not t.judges_alive()]
    for key in idle:
        _templates.pop(key).close()


def _take() -> _WarmJudge:
    """An idle judge of this process's configuration now, the one this thread used last
    if there is one; else a new judge, started with this configuration.

    Threads that judge in parallel (a cluster's in-process workers) each keep
    to their own judge, and so replay what it recorded (``_replay``). Idle
    judges of another configuration are stopped: nothing would take them.
    """
    me, configuration = threading.get_ident(), _configuration()
    key, taken = _key(configuration), None
    with _lock:
        stale = [warm for warm in _idle if warm.key != key]
        _idle[:] = [warm for warm in _idle if warm.key == key]
        _idle.sort(key=lambda warm: warm.owner == me)  # this thread's own judge last
        while _idle and taken is None:
            warm = _idle.pop()
            if warm.proc.poll() is None:
                warm.owner, taken = me, warm
            else:
                stale.append(warm)
    for warm in stale:  # outside the lock: other threads need not wait for these
        warm.close()
    return taken or _WarmJudge(configuration)


@contextlib.contextmanager
def started_ahead(count: int):
    """``count`` judges started now, idle, for the judging inside the ``with``; on leaving
    it, those nothing took are stopped.

    A judge takes 2.3 s to start (torch, pytest, hypothesis, the checks, its zygote). The
    grading command starts them before its own start-up is done (the verdict keys, the
    cluster, nbgrader's), which keeps one core busy at most (one process, one GIL),
    instead of after it. A judge started ahead is taken like any idle one: only for a
    request made under the configuration it was started with.
    """
    configuration = _configuration()
    ahead = [_WarmJudge(configuration) for _ in range(count)]
    with _lock:
        _idle.extend(ahead)
    try:
        yield
    finally:
        with _lock:
            untaken = [warm for warm in _idle if warm.served == 0 and warm in ahead]
            _idle[:] = [warm for warm in _idle if warm not in untaken]
        for warm in untaken:
            warm.close()


def close_idle() -> None:
    """Stop every idle judge, and every template no judge of which runs (judges are taken
    again only under the configuration they were started with: this frees their
    processes, it is not needed for that)."""
    with _lock:
        while _idle:
            _idle.pop().close()
    with _templates_lock:  # and the templates left with no judge
        _stop_idle_templates()


def judge(nb: dict, assignment: str, timeout: float = 900.0, checks: Path | None = None,
          variants: dict | None = None, kept: Path | None = None) -> dict:
    """The verdict on notebook ``nb``, from a warm judge of this process; ``variants``:
    the items of each finite exercise its student is graded on (``bridge._variants``);
    ``kept``: where judges keep the examples they record (``grader.store.examples_file``)."""
    warm = _take()
    with tempfile.TemporaryDirectory(prefix="tensor-anatomy-judge-") as tmp:
        notebook, out = Path(tmp, "submission.ipynb"), Path(tmp, "verdict.json")
        notebook.write_text(json.dumps(nb), encoding="utf-8")
        request = {"notebook": str(notebook), "assignment": assignment, "out": str(out),
                   "checks": str(checks) if checks else None, "variants": variants,
                   "kept": str(kept) if kept else None}
        try:
            answer = warm.judge(request, timeout)
        except (OSError, EOFError, TimeoutError) as exc:
            warm.close()
            raise RuntimeError(f"judge failed on {assignment}: {exc}") from None
        if answer != "ok" or not out.exists():
            warm.close()
            raise RuntimeError(f"judge failed on {assignment}: {answer}")
        verdict = json.loads(out.read_text(encoding="utf-8"))
    if warm.served >= _recycle_after():
        warm.close()
    else:
        with _lock:
            _idle.append(warm)
    return verdict


def import_ahead() -> None:
    """What a judge imports before its first request (a template, before its forks): with
    the zygote, what torch imports on first use too, which the zygote is to hold."""
    import hypothesis  # noqa: F401 - imported now, so that serve's freeze() covers it

    from grader.student import _zygote

    if "zygote" not in speed_pieces_off():
        _zygote.first_use_imports()


def serve(run_judge) -> int:
    """The judge's side: a request per line on stdin, "ok" or the failure per line back."""
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever pytest prints cannot garble the answers
    from grader.student import _zygote

    import_ahead()
    if "zygote" not in speed_pieces_off():
        # Forked now, before any notebook: the zygote starts with torch imported.
        _zygote.fork_zygote_here()
    # What is imported now lives as long as we do: the collector need not walk it again.
    gc.freeze()
    for line in sys.stdin:
        request = json.loads(line)
        try:
            verdict = run_judge(Path(request["notebook"]), request["assignment"],
                                request["checks"], request.get("variants"),
                                request.get("kept"))
            Path(request["out"]).write_text(json.dumps(verdict, indent=1), encoding="utf-8")
            answers.write("ok\n")
        except Exception as exc:  # noqa: BLE001 - said to the caller, who gives up this judge
            answers.write(" ".join(f"{type(exc).__name__}: {exc}".split())[:2000] + "\n")
    return 0
