"""Put a submission back into the released notebook's shape before nbgrader reads it.

A student controls every byte of the notebook, nbgrader metadata included. A
deleted, retyped, reordered or duplicated grade cell, a forged ``points`` or
``schema_version`` must not change a grade, and must never stop the batch
(nbgrader aborts the whole run on one cell with an old or new metadata schema).

So a grade depends only on the code the student wrote: the released
notebook's cells, in their order, with each answer cell's source taken from
the student's first code cell carrying that answer's ``grade_id``. The
student's own plain cells (helpers, experiments) run too, in their order,
right after the answer they followed. Everything else the student changed in
nbgrader's cells is dropped, and the notebook says so at the top.

The grading command restores each submission once: it judges the restored
notebook ahead of nbgrader (``grader.batch``) and keeps it in its run's
``RestoredAhead``, which nbgrader's sanitize step is given (``sanitize_pipeline``)
and takes it from; that step restores on its own only a notebook nobody restored
before (serial grading, stock ``nbgrader autograde``) or one changed on disk since.
No module holds a submission: each run's notebooks live and go with its run.
"""

import copy
import json
import threading
from pathlib import Path

from grader import _notebook
from grader._language import ENGLISH, KEY, localized, marked

__all__ = ["NOTE_ID", "RestoredAhead", "note_in_language", "restore_structure"]

NOTE_ID = "tensor-anatomy-structure-note"
_TITLE = marked("**Grader's note on this notebook's structure:**", "feedback")
_EDITED = marked("test or locked cells (or their nbgrader metadata) were edited, deleted, "
                 "retyped or added; the released versions were graded instead", "feedback")
_NO_ANSWER = marked("no answer cell found for {names}: graded as blank", "feedback")
_ITEM = "\n- "
# A change as data (the note cell's metadata), rendered in a reader's language by its template.
_CHANGES = {"edited": _EDITED, "no answer": _NO_ANSWER}


def _nbgrader(cell) -> dict | None:
    """The cell's nbgrader metadata; anything malformed counts as forged (``{}``)."""
    meta = cell.get("metadata")
    found = meta.get("nbgrader") if isinstance(meta, dict) else None
    return found if isinstance(found, dict) or found is None else {}


def _answer_ids(release: dict) -> list[str]:
    return [_nbgrader(c)["grade_id"] for c in release["cells"]
            if (_nbgrader(c) or {}).get("solution")]


def _plain(cell: dict, number: int) -> dict:
    """A student's own cell, stripped of any metadata that could mean something."""
    kept = {"cell_type": cell["cell_type"], "id": f"student-cell-{number}",
            "metadata": {}, "source": cell.get("source", "")}
    if cell["cell_type"] == "code":
        kept.update(outputs=[], execution_count=None)
    return kept


def _signature(cell: dict) -> tuple:
    """A grade or locked cell as the student cannot change it: type, source, nbgrader metadata."""
    meta = _nbgrader(cell) or {}
    return cell.get("cell_type"), _notebook.source(cell), meta.get("grade_id"), \
        json.dumps(meta, sort_keys=True, default=str)


def _translated(fixed: set, translations) -> dict[tuple, tuple]:
    """Signature of a grade or locked cell as a translated release has it → the English
    cell's: a student given the assignment in another language leaves those untouched."""
    english = {signature[2]: signature for signature in fixed}
    return {signature: english[signature[2]] for translated in translations
            for cell in translated["cells"] if _nbgrader(cell) is not None
            and (signature := _signature(cell))[2] in english}


class _Sorted:
    """The student's cells sorted out against the release (and its translations)."""

    def __init__(self, submitted: dict, release: dict, translations=()):
        self.answer_ids = _answer_ids(release)
        fixed = {_signature(c) for c in release["cells"]
                 if _nbgrader(c) is not None and _signature(c)[2] not in self.answer_ids}
        translated = _translated(fixed, translations)
        self.answers, self.following, self.changed, anchor = {}, {}, 0, None
        for number, cell in enumerate(submitted.get("cells", [])):
            if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown"):
                self.changed += 1
                continue
            meta = _nbgrader(cell)
            grade_id = meta.get("grade_id") if meta is not None else None
            if meta is not None and cell["cell_type"] == "code" \
                    and grade_id in self.answer_ids and grade_id not in self.answers:
                self.answers[grade_id], anchor = _notebook.source(cell), grade_id
            elif meta is None or grade_id in self.answers:  # a copied answer runs as plain code
                self.following.setdefault(anchor, []).append(_plain(cell, number))
            elif translated.get(_signature(cell), _signature(cell)) in fixed:
                # an untouched grade or locked cell, in English or as translated
                fixed.discard(translated.get(_signature(cell), _signature(cell)))
            else:
                self.changed += 1  # edited, retyped or forged: the release's copy is used
        self.changed += len(fixed)  # deleted ones come back from the release

    def changes(self) -> list[dict]:
        """What had to change, as data: {"change": a key of ``_CHANGES``, its values}."""
        missing = [g for g in self.answer_ids if g not in self.answers]
        notes = [{"change": "edited"}] if self.changed else []
        if missing:
            notes.append({"change": "no answer", "names": ", ".join(missing)})
        return notes


def _said(change: dict, language: str) -> str:
    values = {field: value for field, value in change.items() if field != "change"}
    return localized(_CHANGES[change["change"]], "feedback", language).format(**values)


def _note_text(changes: list[dict], language: str) -> str:
    title = localized(_TITLE, "feedback", language)
    return title + "\n" + "".join(_ITEM + _said(change, language) for change in changes)


def _note(changes: list[dict]) -> dict:
    # The changes kept as data: a feedback page writes the note in the student's language.
    return {"cell_type": "markdown", "id": NOTE_ID, "metadata": {KEY: {"changes": changes}},
            "source": _note_text(changes, ENGLISH)}


def note_in_language(cell: dict, language: str) -> str:
    """The structure note (``_note``'s cell) in ``language``, from the changes it keeps; its
    text as it is where it keeps none that we wrote."""
    ours = cell.get("metadata", {}).get(KEY)
    changes = ours.get("changes") if isinstance(ours, dict) else None
    try:
        return _note_text(changes, language) if isinstance(changes, list) else _notebook.source(
            cell)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return _notebook.source(cell)  # not a note we wrote


def restore_structure(submitted: dict, release: dict,
                      translations=()) -> tuple[dict, list[str]]:
    """The submission in the release's shape, and what had to change (for the student).

    ``translations``: the release in other languages (``exercises/<language>/``), whose
    Markdown and setup line differ: a cell as one of them has it is untouched.
    The result is in the English release's shape, as the gradebook holds it, whatever
    the submission's language (nbgrader would put back the English locked cells anyway)."""
    found = _Sorted(submitted, release, translations)
    restored = copy.deepcopy(release)
    cells, preamble_done = [], False
    for cell in restored["cells"]:
        cell["source"] = _notebook.source(cell)  # nbgrader hashes strings, not lists
        grade_id = (_nbgrader(cell) or {}).get("grade_id")
        is_answer = grade_id in found.answer_ids
        if is_answer and not preamble_done:
            cells += found.following.get(None, [])  # the student's cells before any answer
            preamble_done = True
        if grade_id in found.answers:
            cell["source"] = found.answers[grade_id]
        cells += [cell, *found.following.get(grade_id, [])] if is_answer else [cell]
    if not preamble_done:
        cells += found.following.get(None, [])
    changes = found.changes()
    restored["cells"] = ([_note(changes)] if changes else []) + cells
    return restored, [_said(change, ENGLISH) for change in changes]


def _identity(path: Path) -> tuple:
    """The file as it is on disk now: a rewrite changes its size, time or inode."""
    stat = path.stat()
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


class RestoredAhead:
    """The notebooks one grading run restored ahead of nbgrader, by submission path.

    Owned by the run (``grader.batch``): its judging thread restores, nbgrader's lane
    takes each once. A path is the key as the run found it (``submitted/<id>/...``,
    an id triage let through), and only ever compared, never built into a new name.
    """

    def __init__(self):
        self._kept: dict[Path, tuple[tuple, dict, list[str]]] = {}  # (identity, nb, changes)
        self._lock = threading.Lock()  # the judging thread keeps, nbgrader's lane takes

    def restore(self, path: Path, release: dict, translations=()) -> tuple[dict, list[str]]:
        """``restore_structure`` of the notebook at ``path``, kept for ``take``."""
        path = Path(path).resolve()
        identity = _identity(path)  # before reading: a rewrite meanwhile is then a miss
        restored, changes = restore_structure(_notebook.load(path), release, translations)
        with self._lock:
            self._kept[path] = identity, restored, changes
        return restored, changes

    def take(self, path: Path) -> tuple[dict, list[str]] | None:
        """The restored notebook kept for ``path``, once, if the file is unchanged since."""
        path = Path(path).resolve()
        with self._lock:
            kept = self._kept.pop(path, None)
        try:
            unchanged = kept is not None and kept[0] == _identity(path)
        except OSError:
            return None
        return (copy.deepcopy(kept[1]), list(kept[2])) if unchanged else None
