"""A saved index: the folder a retriever's ``save`` writes and its ``load`` reads back.

Every saved retriever (:class:`~ragkit.core.bm25.BM25Retriever`, :class:`~ragkit.core.dense.DenseRetriever`,
:class:`~ragkit.core.maxp.MaxChunkDenseRetriever`) writes one folder through :func:`atomic_directory`, so a
crash never leaves a half-written index: ``config.json`` (its ``kind``, the :data:`FORMAT_VERSION` and its
parameters), ``docs.jsonl`` (its documents) and whatever arrays it needs. :func:`read_config` refuses a
folder saved by another kind of retriever or another format version.

What it cannot do: it is one process's save (no lock: :mod:`ragkit.ingest.store` adds locks around it for
named collections), and there is no migration from an older format version (re-build and save again).
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
    """Yield a temporary folder next to ``path``; on success it replaces ``path``, on error it is removed
    and the old index is untouched. POSIX cannot rename a folder over a non-empty one in one step, so the
    old index is renamed aside first: a crash between the two renames leaves it under ``.old-<pid>``, never a mix.

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
