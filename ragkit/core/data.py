"""Reading the teaching data's files: where they are, and failing loudly, with the file's name, when one is broken.

Every loader in :mod:`ragkit.data` goes through these helpers: :func:`locate` resolves a path argument
(default: a file under :func:`data_dir`) and says what was expected when it is missing; :func:`read_json`
and :func:`read_text` turn encoding and syntax errors into a :class:`DataError` naming the file and line;
:func:`records`, :func:`require` and :func:`unique_ids` check the entries of a JSON list.

Simplifications: the checks are hand-written for flat records (a field's type, no nested schema); a real
project with many formats would reach for pydantic or JSON Schema.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from langchain_core.documents import Document


class DataError(ValueError):
    """A data file exists but cannot be used (bad JSON, a missing field, no sections, an empty corpus)."""


def data_dir() -> Path:
    """The folder holding the teaching data: ``$RAGKIT_DATA_DIR`` if set, else the project's ``data/``."""
    override = os.environ.get("RAGKIT_DATA_DIR")
    return Path(override).expanduser() if override else Path(__file__).resolve().parents[2] / "data"


def locate(path: str | Path | None, default: str, expected: str, want_dir: bool = False) -> Path:
    """Resolve a loader's path argument and fail early, saying what should be there."""
    p = Path(path) if path is not None else data_dir() / default
    if not p.exists() or (want_dir and not p.is_dir()) or (not want_dir and not p.is_file()):
        kind = "folder" if want_dir else "file"
        raise FileNotFoundError(
            f"{kind} not found: {p}. Expected {expected}. "
            "Pass a path, or set RAGKIT_DATA_DIR to the folder that holds the data files."
        )
    return p


def read_text(path: Path) -> str:
    """The file's text, or a DataError saying it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DataError(f"{path}: not UTF-8 text (byte {err.start}); save the file as UTF-8") from err


def read_json(path: Path) -> Any:
    """The parsed JSON of a file, or a DataError naming the line and column of the syntax error."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from err


def records(path: Path, data: Any, key: str) -> list[dict[str, Any]]:
    """The list of entries under ``key`` (or the top-level list itself), checked to be non-empty dicts."""
    items = data.get(key) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise DataError(f"{path}: expected a list of entries under {key!r}")
    if not items:
        raise DataError(f"{path}: the list {key!r} is empty; add at least one entry")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise DataError(f"{path}: entry {i} of {key!r} is a {type(item).__name__}, not an object")
    return items


def require(path: Path, entry: dict[str, Any], index: int, fields: dict[str, type | tuple[type, ...]]) -> None:
    """Check that an entry has every required field with the right type (a bool is not a number)."""
    label = f"entry {index}" + (f" ({entry['id']})" if isinstance(entry.get("id"), str) else "")
    for name, kind in fields.items():
        if name not in entry or entry[name] is None or entry[name] == "":
            raise DataError(f"{path}: {label} is missing the required field {name!r}")
        value = entry[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise DataError(f"{path}: {label} field {name!r} has type {type(value).__name__}, expected {kind}")
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise DataError(f"{path}: {label} field {name!r} must be a list of strings")


def unique_ids(path: Path, docs: list[Document]) -> list[Document]:
    """Return ``docs`` unchanged, or raise a DataError naming the first id used twice."""
    seen: set[str] = set()
    for doc in docs:
        if doc.metadata["id"] in seen:
            raise DataError(f"{path}: the id {doc.metadata['id']!r} is used twice; ids must be unique")
        seen.add(doc.metadata["id"])
    return docs


__all__ = ["DataError", "data_dir", "locate", "read_json", "read_text", "records", "require", "unique_ids"]
