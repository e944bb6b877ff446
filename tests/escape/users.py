"""An unprivileged user for the escape suite, and the folders it must reach."""

import contextlib
import fcntl
import json
import os
import pwd
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["reachable_by_others", "unprivileged_user"]


def unprivileged_user(name: str = "tensor-anatomy-escape") -> pwd.struct_passwd:
    """The system user ``name``, made (no home, no login shell) if it does not exist."""
    for attempt in range(20):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            # Another pytest worker may be adding it (or another user) now: useradd then
            # fails ("already exists", or /etc/passwd locked), and the next look finds it.
            made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                                   "/usr/sbin/nologin", name], capture_output=True, text=True)
            if made.returncode != 0:
                time.sleep(0.1 * (attempt + 1))
    made.check_returncode()
    return pwd.getpwnam(name)


# Tests in several pytest workers open folders at once (the interpreter's, the checkout's):
# whoever closes last puts the modes back, so the state is shared, under a lock.
_STATE = Path(tempfile.gettempdir()) / "tensor-anatomy-reachable.json"


@contextlib.contextmanager
def _shared_state():
    """{"holders": [pid, ...], "modes": {folder: mode before}}, locked while held."""
    with open(_STATE.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            state = json.loads(_STATE.read_text()) if _STATE.exists() else {}
            state = {"holders": [pid for pid in state.get("holders", []) if _alive(pid)],
                     "modes": state.get("modes", {})}
            yield state
            _STATE.write_text(json.dumps(state))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class reachable_by_others:
    """Let other users traverse the folders above these paths (the interpreter may sit
    in /root, a CI clone in a 0700 temporary folder); the last process to leave puts
    every mode back."""

    def __init__(self, paths: list[Path]):
        self._paths = paths

    def __enter__(self):
        with _shared_state() as state:
            state["holders"].append(os.getpid())
            for path in self._paths:
                if path.is_dir():  # itself listed too: pytest scans its rootdir
                    _allow(path, 0o005, state["modes"])
                for folder in path.parents:
                    _allow(folder, 0o001, state["modes"])
        return self

    def __exit__(self, *exc):
        with _shared_state() as state:
            if os.getpid() in state["holders"]:
                state["holders"].remove(os.getpid())
            if not state["holders"]:
                for folder, mode in state["modes"].items():
                    Path(folder).chmod(mode)
                state["modes"] = {}


def _allow(folder: Path, bits: int, before: dict) -> None:
    mode = folder.stat().st_mode & 0o7777
    if mode & bits != bits:
        before.setdefault(str(folder), mode)
        folder.chmod(mode | bits)
