"""The manifest of a collection: which files went in, their hashes and mtimes, and the settings used.

Re-ingesting is cheap because of it. For every file found, the pipeline compares what the file
system says (size, mtime in nanoseconds) with the record from the last ingest:

- same size and mtime: **unchanged**, its chunks are reused without reading the file (as ``make`` and
  ``rsync`` decide; ``rehash=True`` reads and hashes every file instead);
- otherwise the file is read and hashed: the same sha256 means only its mtime moved (chunks reused),
  a new hash means it **changed** (re-read, its old chunks dropped);
- a recorded file no longer found is **removed**, with its chunks;
- a file skipped last time (unreadable, encrypted, binary) with the same size and mtime is skipped
  again, for the same reason, without being read.

The settings (chunk size and overlap, reader version, embedding model) are part of the manifest: when
they differ from the last ingest, every file counts as changed, since every chunk would differ.

Simplification: a file rewritten with identical size within the file system's mtime resolution is
taken as unchanged unless ``rehash=True``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MANIFEST_FORMAT = 1


@dataclass(frozen=True)
class FileRecord:
    """What the last ingest knew about one file (its key is the manifest's dict key)."""

    sha256: str
    size: int
    mtime_ns: int
    kind: str
    title: str
    parts: int
    chunks: int
    pages: int = 0


@dataclass(frozen=True)
class SkipRecord:
    """A file the last ingest could not use, so an unchanged one is not read again just to fail again."""

    size: int
    mtime_ns: int
    reason: str


@dataclass
class Manifest:
    """The files of a collection, the files it skipped, and the settings chunks were made and embedded with."""

    settings: dict[str, Any] = field(default_factory=dict)
    files: dict[str, FileRecord] = field(default_factory=dict)
    skipped: dict[str, SkipRecord] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"format_version": MANIFEST_FORMAT, "settings": self.settings,
                "files": {key: asdict(rec) for key, rec in sorted(self.files.items())},
                "skipped": {key: asdict(rec) for key, rec in sorted(self.skipped.items())}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        if data.get("format_version") != MANIFEST_FORMAT:
            raise ValueError(f"manifest format {data.get('format_version')!r}, expected {MANIFEST_FORMAT}")
        return cls(dict(data["settings"]), {key: FileRecord(**rec) for key, rec in data["files"].items()},
                   {key: SkipRecord(**rec) for key, rec in data.get("skipped", {}).items()})

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Manifest:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of bytes.

    >>> sha256_bytes(b"abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(data).hexdigest()


def same_stat(record: FileRecord | SkipRecord | None, size: int, mtime_ns: int) -> bool:
    """Whether the file system reports the size and mtime the manifest recorded.

    >>> rec = FileRecord("h", 10, 5, "text", "t", 1, 1)
    >>> same_stat(rec, 10, 5), same_stat(rec, 10, 6), same_stat(None, 10, 5)
    (True, False, False)
    """
    return record is not None and record.size == size and record.mtime_ns == mtime_ns


def removed_keys(old: Manifest, present: set[str]) -> list[str]:
    """Files the last ingest had that are gone now (sorted).

    >>> m = Manifest(files={"a.md": FileRecord("h", 1, 1, "markdown", "A", 1, 1), "b.md": FileRecord("h", 1, 1, "markdown", "B", 1, 1)})
    >>> removed_keys(m, {"a.md"})
    ['b.md']
    """
    return sorted(set(old.files) - present)


__all__ = ["MANIFEST_FORMAT", "FileRecord", "Manifest", "SkipRecord", "removed_keys", "same_stat", "sha256_bytes"]
