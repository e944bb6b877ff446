"""A copy of the course to break or change in a test: the files git knows, committed or not."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["copy_course"]


def copy_course(target: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # listed, but deleted in the work tree: not part of the copy
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target
