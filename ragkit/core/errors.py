"""The two setup errors. Each is raised with a message naming the fix, never turned into an answer."""

from __future__ import annotations


class DataError(ValueError):
    """A data file exists but cannot be used (bad JSON, a missing field, no sections, an empty corpus)."""


class DataNotFound(FileNotFoundError):
    """A workbook folder or data file is missing."""


__all__ = ["DataError", "DataNotFound"]
