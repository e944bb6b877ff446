"""Where things are in a course checkout; every list is derived from disk."""

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Course"]


@dataclass(frozen=True)
class Course:
    root: Path

    @classmethod
    def find(cls, start: Path | None = None) -> "Course":
        """The checkout holding ``nbgrader_config.py``, from ``start`` upwards."""
        here = Path(start or Path.cwd()).resolve()
        for folder in (here, *here.parents):
            if (folder / "nbgrader_config.py").exists() and (folder / "solutions").is_dir():
                return cls(folder)
        raise FileNotFoundError(f"no course (nbgrader_config.py + solutions/) above {here}")

    @property
    def instructor(self) -> Path:
        default = self.root / "instructor"
        return Path(os.environ.get("TENSOR_ANATOMY_INSTRUCTOR_DIR", default)).resolve()

    @property
    def db_url(self) -> str:
        """The gradebook: SQLite in the instructor folder, or ``$TENSOR_ANATOMY_DB_URL``
        (e.g. ``postgresql+psycopg://user@host/db`` for many graders at once)."""
        default = f"sqlite:///{self.instructor / 'gradebook.db'}"
        return os.environ.get("TENSOR_ANATOMY_DB_URL", default)

    def assignments(self) -> list[str]:
        """Every assignment: a folder of ``solutions/`` holding a notebook."""
        return sorted(p.parent.name for p in (self.root / "solutions").glob("*/*.ipynb"))

    def source_notebook(self, assignment: str) -> Path:
        return self._only_notebook(self.root / "solutions" / assignment)

    def release_notebook(self, assignment: str) -> Path:
        return self._only_notebook(self.root / "exercises" / assignment)

    def submitted(self, student: str, assignment: str) -> Path:
        return self.instructor / "submitted" / student / assignment

    @staticmethod
    def _only_notebook(folder: Path) -> Path:
        notebooks = sorted(folder.glob("*.ipynb"))
        if len(notebooks) != 1:
            raise FileNotFoundError(f"expected one notebook in {folder}, found {len(notebooks)}")
        return notebooks[0]
