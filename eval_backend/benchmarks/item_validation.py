"""The error a dataset row that a benchmark cannot read raises, whatever the benchmark."""


class ItemValidationError(ValueError):
    """A dataset row lacks what the protocol needs; the message names config, index and field."""
