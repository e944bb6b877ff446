"""An unprivileged user for the escape suite, and the folders it must reach."""

import pwd
import subprocess
from pathlib import Path

__all__ = ["reachable_by_others", "unprivileged_user"]


def unprivileged_user(name: str = "tensor-anatomy-escape") -> pwd.struct_passwd:
    """The system user ``name``, made (no home, no login shell) if it does not exist."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", name], check=True)
        return pwd.getpwnam(name)


class reachable_by_others:
    """Let other users traverse the folders above these paths (the interpreter may sit
    in /root, a CI clone in a 0700 temporary folder); put every mode back after."""

    def __init__(self, paths: list[Path]):
        self._changed: dict[Path, int] = {}
        self._paths = paths

    def __enter__(self):
        for path in self._paths:
            if path.is_dir():  # itself listed too: pytest scans its rootdir
                self._allow(path, 0o005)
            for folder in path.parents:
                self._allow(folder, 0o001)
        return self

    def _allow(self, folder: Path, bits: int) -> None:
        mode = folder.stat().st_mode & 0o7777
        if mode & bits != bits:
            self._changed.setdefault(folder, mode)
            folder.chmod(mode | bits)

    def __exit__(self, *exc):
        for folder, mode in self._changed.items():
            folder.chmod(mode)
