"""nbgrader's check of each cell's nbgrader metadata, its JSON schema checked once.

nbgrader's ``CheckCellMetadata`` (twice in each autograde: its sanitize and its
autograde preprocessors) validates every cell with ``jsonschema.validate``, which first
checks nbgrader's own schema against the JSON Schema meta-schema, for every cell: a
tenth of nbgrader's lane under cProfile (4.6 of the 5.2 profiled seconds of its
validation, 1,608 cells of 30 notebooks); without it, ``make bench``'s autograde phase
took 0.19 core-seconds per notebook instead of 0.22. ``CheckCellMetadataOnce`` checks the
schema once per process and keeps the validator; each cell is validated against it as
``jsonschema.validate`` would (the class the schema names, the best-matching error).
Where that finds an error, nbgrader's own check runs, to fail as it always has.
"""

import functools

import jsonschema
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.nbgraderformat.common import BaseMetadataValidator
from nbgrader.preprocessors import CheckCellMetadata

from grader import _notebook

__all__ = ["CheckCellMetadataOnce"]


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    """A validator of nbgrader's metadata schema (as its own validator reads it), the schema
    checked against its meta-schema once per process."""
    schema = MetadataValidator().schema
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


class _SchemaCheckedOnce(BaseMetadataValidator):
    """The base validator's step, less the schema's check after the first cell."""

    def validate_cell(self, cell) -> None:
        meta = _notebook.nbgrader_metadata(cell)
        if not meta or not isinstance(meta, dict) \
                or meta.get("schema_version", 0) != MetadataValidator.schema_version:
            return super().validate_cell(cell)  # nbgrader's own: none, too old, too new
        error = jsonschema.exceptions.best_match(_validator().iter_errors(meta))
        if error is not None:
            raise error
        return None


class _Validator(MetadataValidator, _SchemaCheckedOnce):
    """nbgrader's validator, whose call of the base step reaches ``_SchemaCheckedOnce``."""


class CheckCellMetadataOnce(CheckCellMetadata):
    """nbgrader's ``CheckCellMetadata``, its schema checked once (see the module's docstring)."""

    def preprocess(self, nb, resources):
        try:
            _Validator().validate_nb(nb)
        except ValidationError:
            return super().preprocess(nb, resources)  # nbgrader's own log and error
        return nb, resources
