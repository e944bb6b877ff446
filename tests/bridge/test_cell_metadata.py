"""nbgrader's metadata check with its schema checked once (``grader/bridge/_cell_metadata``):
the same verdict on every cell as nbgrader's own, for a fraction of the CPU."""

import copy

import jsonschema
import nbformat
from nbformat import v4
from nbgrader.preprocessors import CheckCellMetadata
from support import COURSE, load_notebook

from grader import _notebook
from grader.bridge import _cell_metadata
from grader.bridge._cell_metadata import CheckCellMetadataOnce


def _broken(meta: dict) -> list[dict]:
    """``meta`` (a graded cell's) broken in each way the schema or nbgrader's rules see."""
    def changed(**changes):
        return {key: value for key, value in {**meta, **changes}.items() if value is not None}

    return [changed(points="two"), changed(grade="yes"), changed(grade_id=None),
            changed(grade_id=""), changed(locked=None), changed(schema_version=1),
            changed(schema_version=4), changed(points=None), changed(extra_key=1),
            changed(cell_type=7), changed(task=True), "not a dict"]


def _verdict(check, nb) -> str:
    """What ``check`` makes of ``nb``: "ok", or the error it raises, with its message."""
    try:
        check.preprocess(copy.deepcopy(nb), {})
    except Exception as error:  # noqa: BLE001 - compared, not handled
        return f"{type(error).__name__}: {error}"
    return "ok"


def test_every_cell_gets_nbgrader_s_own_verdict(assignment):  # each assignment's release
    """Each release as it is, and with one graded cell's metadata broken in each way."""
    nb = nbformat.from_dict(load_notebook(COURSE.release_notebook(assignment)))
    cell = next(iter(_notebook.exercise_cells(nb).values()))
    notebooks = [copy.deepcopy(nb)]
    for meta in _broken(dict(cell.metadata.nbgrader)):
        cell.metadata["nbgrader"] = meta
        notebooks.append(copy.deepcopy(nb))
    verdicts = [(_verdict(CheckCellMetadataOnce(), one), _verdict(CheckCellMetadata(), one))
                for one in notebooks]
    assert all(ours == theirs for ours, theirs in verdicts), verdicts
    assert verdicts[0][0] == "ok" and sum(ours != "ok" for ours, _ in verdicts) >= 8


def test_the_schema_is_checked_once_not_per_cell(monkeypatch):
    nb = v4.new_notebook(cells=[v4.new_code_cell("x = 1", metadata={"nbgrader": {
        "grade": False, "solution": True, "locked": False, "grade_id": f"c{k}",
        "schema_version": 3}}) for k in range(20)])
    cls = jsonschema.validators.validator_for(_cell_metadata.MetadataValidator().schema)
    checked, check = [], cls.check_schema
    monkeypatch.setattr(cls, "check_schema", lambda schema: checked.append(1) or check(schema))
    _cell_metadata._validator.cache_clear()
    for _ in range(3):
        CheckCellMetadataOnce().preprocess(nb, {})
    assert checked == [1]
