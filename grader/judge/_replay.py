"""Replay a passing hidden check's examples instead of searching for them again.

Hidden checks are derandomized (``_plugin``): on every notebook that passes a
check, hypothesis draws the same examples in the same order, because what it
draws next depends only on its fixed seed and on the examples so far having
passed. Searching costs more than the student's calls (strategies that build
tensors, the engine's bookkeeping), so a warm judge records, the first time a
check passes, the arguments of each call (deep copies, taken before the call)
and the random state the call started from. For every later notebook it
calls the test body on those arguments directly:

* every replayed example passes: hypothesis would have drawn exactly these
  and passed; the check passes, at the cost of the calls alone;
* one fails: the check runs under hypothesis from scratch, which finds,
  shrinks and reports the failure as it always does.

What a judge records it also adds to a file in the instructor folder, which
the next judge of the same grader reads before its first notebook of that
assignment (``_replay_file``: only examples that read back exactly are kept):
a later batch, a recycled judge or another worker replays from its first
notebook on.

A search first runs without hypothesis's shrink phase, which only follows a
failure: a check that passes is decided there. A failure is searched again
with shrinking, for the smallest failing input, unless the instructor asked for
the first failing input (``$TENSOR_ANATOMY_FIRST_FAILURE``) or it is an unfinished
exercise (the stub's bare ``NotImplementedError``): its input does not matter,
and shrinking it would be hundreds of draws of tensors, often most of a
notebook's judging time. A replayed example that fails goes where the search
without shrinking would lead, since that search would fail first on that same
example: a stub's failure is final as it is (its input is shown as the stub's
call, made from the call's arguments: ``_describe``), and any other goes straight
to the shrinking search. Measured, the bench's 30 notebooks in one judge: the
196 stubs' checks took 1.88 s of CPU searched, 0.68 s decided by their replay.

A verdict is therefore the one hypothesis gives, for answers that depend only
on their inputs, which every check assumes (an unfinished exercise shows its
first failing input, not its smallest). An answer that depends on the calls
before it, say one drawn from an unseeded global generator, has seen the
replayed calls before the search: the values its failure shows can differ
from a fresh judge's. The recorded examples come from the judge's own
strategies only; the student's process never sees them as anything but
copies, so nothing a submission does can change them.
"""

import contextlib
import copy
import functools
import hashlib
import inspect
import random
from pathlib import Path

import pytest
import torch
from hypothesis import Phase, settings

from grader._errors import StudentRaised
from grader.judge import _replay_file

__all__ = ["ExampleReplay", "unfinished"]

_UNREPLAYABLE = object()  # an argument that cannot be deep-copied (a check we always search)


def _random_state():
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None
    return random.getstate(), torch.random.get_rng_state(), cuda


def _set_random_state(state) -> None:
    python, cpu, cuda = state
    random.setstate(python)
    torch.random.set_rng_state(cpu)
    if cuda is not None:
        torch.cuda.set_rng_state_all(cuda)


def _same_state(a, b) -> bool:
    cuda = (a[2] is None and b[2] is None) or (
        a[2] is not None and b[2] is not None and len(a[2]) == len(b[2])
        and all(map(torch.equal, a[2], b[2])))
    return a[0] == b[0] and torch.equal(a[1], b[1]) and cuda


def _recording(inner, fixtures: set, log: list):
    """``inner`` (hypothesis's test body), logging each call's drawn arguments first."""

    @functools.wraps(inner)
    def record(*args, **kwargs):
        drawn = {k: v for k, v in kwargs.items() if k not in fixtures}
        state = _random_state()
        # Most checks draw nothing from the global generators: one state object for all
        # their calls, written once to the file of kept examples (pickle keeps one copy of
        # an object met twice). Measured, chapter 1: 11.0 MB and 0.94 s to read, before.
        earlier = [entry[1] for entry in log[-1:] if entry is not _UNREPLAYABLE]
        if earlier and _same_state(earlier[0], state):
            state = earlier[0]
        try:
            log.append((copy.deepcopy((args, drawn)), state))
        except Exception:  # noqa: BLE001 - e.g. a tensor in the middle of a graph
            log.append(_UNREPLAYABLE)
        return inner(*args, **kwargs)

    return record


@contextlib.contextmanager
def _recorded(handle, fixtures: set, log: list):
    """hypothesis's test body, logging each call's drawn arguments (``_recording``)."""
    inner = handle.inner_test
    handle.inner_test = _recording(inner, fixtures, log)
    try:
        yield
    finally:
        handle.inner_test = inner


def unfinished(failure: BaseException) -> bool:
    """Whether a check failed on an exercise not written yet: the stub's bare
    ``raise NotImplementedError()`` (torch's own NotImplementedErrors say why)."""
    return (isinstance(failure, StudentRaised) and failure.type_name == "NotImplementedError"
            and not failure.message)


@contextlib.contextmanager
def _without_shrinking(test):
    """``test`` (a ``@given`` check) runs with its own settings, less the shrink phase."""
    # The settings @given reads at each run (@settings cannot be applied twice).
    own = test._hypothesis_internal_use_settings
    phases = [phase for phase in own.phases if phase is not Phase.shrink]
    test._hypothesis_internal_use_settings = settings(own, phases=phases)
    try:
        yield
    finally:
        test._hypothesis_internal_use_settings = own


def _shrinks(test) -> bool:
    """Whether ``test``'s own settings shrink a failure (the grading profile's, unless the
    instructor asked for the first failing input: ``_plugin``)."""
    return Phase.shrink in test._hypothesis_internal_use_settings.phases


def _replayed_failure(inner, fixtures: dict, examples: list) -> BaseException | None:
    """How the test body fails the first recorded example it fails, where it stops; None if
    it passes every one."""
    for arguments, state in examples:
        args, drawn = copy.deepcopy(arguments)
        saved = _random_state()
        _set_random_state(state)
        try:
            inner(*args, **drawn, **fixtures)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as failure:  # noqa: BLE001 - any outcome but a pass: hypothesis decides
            return failure
        finally:
            _set_random_state(saved)
    return None


class ExampleReplay:
    """Each passing ``@given`` check recorded once and replayed after (for ``_plugin``)."""

    def __init__(self):
        self._examples: dict[tuple, list] = {}  # (check file digest, test id) → examples
        self._digests: dict = {}  # check file → digest, read once per notebook
        self._file, self._files_read = None, set()  # where examples are kept (_replay_file)
        self._new: dict[tuple, list] = {}  # recorded for this notebook, not kept yet
        self.replayed = self.searched = 0

    def begin(self, kept: Path | None = None) -> None:
        """A new notebook: check files are read again (one may have changed). ``kept``: the
        stem of the file of examples other judges kept for its assignment, read once."""
        self._digests, self._new = {}, {}
        self._file = _replay_file.device_file(Path(kept)) if kept else None
        if self._file is not None and self._file not in self._files_read:
            self._files_read.add(self._file)
            self._examples = {**_replay_file.read(self._file), **self._examples}

    def keep(self) -> None:
        """The notebook is judged: what it recorded goes to the file, for other judges."""
        if self._file is not None and self._new:
            _replay_file.keep(self._file, self._new)
        self._new = {}

    def _key(self, item) -> tuple:
        if item.path not in self._digests:
            self._digests[item.path] = hashlib.sha256(item.path.read_bytes()).hexdigest()
        return self._digests[item.path], item.nodeid

    def call(self, pyfuncitem):
        """Run a check as ``pytest_pyfunc_call`` would: True once done, None for pytest to."""
        handle = getattr(pyfuncitem.obj, "hypothesis", None)
        if handle is None:
            return None  # not a hypothesis check: pytest calls it as usual
        names = inspect.signature(pyfuncitem.obj).parameters
        fixtures = {name: pyfuncitem.funcargs[name] for name in names}
        key = self._key(pyfuncitem)
        examples, failure = self._examples.get(key), None
        if examples is not None:
            failure = _replayed_failure(handle.inner_test, fixtures, examples)
            if failure is None or unfinished(failure):
                # Every example passed, or the stub raised on the one a search fails first
                # (the same examples, in order): decided, as a search would decide it.
                self.replayed += 1
                if failure is not None:
                    raise failure
                return True
        self.searched += 1
        if failure is not None and _shrinks(pyfuncitem.obj):
            # A search fails first where the replay did (the same examples, in order), and
            # not on a stub: it would only be searched again, shrinking. So shrink at once.
            pyfuncitem.obj(**fixtures)  # raises, shrunk (an answer that passes now: searched)
        log: list = []
        try:
            with _recorded(handle, set(fixtures), log), _without_shrinking(pyfuncitem.obj):
                pyfuncitem.obj(**fixtures)  # raises if the check fails: nothing is recorded
        except (Exception, pytest.fail.Exception) as failure:  # re-raised: shrunk unless unfinished
            if unfinished(failure) or not _shrinks(pyfuncitem.obj):
                raise
            pyfuncitem.obj(**fixtures)  # again, shrinking: the smallest failing input
            raise  # (had it passed this time, the first failure stands)
        if not any(entry is _UNREPLAYABLE for entry in log):
            self._examples[key] = self._new[key] = log
        return True
