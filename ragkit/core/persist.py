"""Saving indexes to disk so that a crash never leaves a half-written index behind.

``atomic_directory(path)`` hands out a fresh temporary folder *next to* the target (same file system), lets
the caller write every file into it, and only then swaps it into place with ``os.replace``. If anything
fails while writing, the temporary folder is deleted and the old index is untouched.

Simplification: POSIX cannot rename a folder over a non-empty folder in one step, so an existing index is
first renamed aside (``<name>.old-<pid>``), the new one renamed in, and the old one deleted. A crash in the
instant between those two renames leaves the previous index under the ``.old`` name, never a mix of both.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

FORMAT_VERSION = 1


@contextmanager
def atomic_directory(path: str | Path) -> Iterator[Path]:
    """Yield a temporary folder; on success it replaces ``path`` in one rename, on error it is removed.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> with atomic_directory(root / "idx") as tmp:
    ...     _ = (tmp / "a.txt").write_text("hi")
    >>> (root / "idx" / "a.txt").read_text()
    'hi'
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and not target.is_dir():
        raise FileExistsError(f"cannot save an index to {target}: a file (not a folder) is in the way")
    tmp = target.parent / f".{target.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = target.parent / f".{target.name}.old-{os.getpid()}"
    if target.exists():
        os.replace(target, old)
    try:
        os.replace(tmp, target)
    except BaseException:
        if old.exists():
            os.replace(old, target)  # put the previous index back
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write a small JSON file (sorted keys, so saves are byte-for-byte reproducible)."""
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_config(folder: str | Path, kind: str) -> dict[str, Any]:
    """Read ``config.json`` of a saved index and check it was saved by the class that is loading it."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no saved index at {folder}: the folder does not exist")
    config_path = folder / "config.json"
    if not config_path.is_file():
        raise FileNotFoundError(f"{folder} is not a saved ragkit index: config.json is missing")
    config = json.loads(config_path.read_text(encoding="utf-8"))
    if config.get("kind") != kind:
        raise ValueError(f"{folder} holds a {config.get('kind')!r} index, not a {kind!r} index")
    if config.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"{folder} was saved with format {config.get('format_version')}, expected {FORMAT_VERSION}")
    return config


def write_documents(path: Path, docs: Sequence[Document]) -> None:
    """Write documents as JSON lines: one ``{"id", "page_content", "metadata"}`` object a line."""
    with path.open("w", encoding="utf-8") as f:
        for doc in docs:
            row = {"id": doc.id, "page_content": doc.page_content, "metadata": doc.metadata}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def read_documents(path: Path) -> list[Document]:
    """Read documents written by ``write_documents``."""
    if not path.is_file():
        raise FileNotFoundError(f"saved index is incomplete: {path} is missing")
    docs = []
    with path.open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}, line {line_no}: not valid JSON ({err.msg})") from err
            docs.append(Document(page_content=row["page_content"], metadata=row["metadata"], id=row.get("id")))
    return docs
