"""Named collections on disk: where they live, how they are saved, listed, deleted and loaded as a retriever.

A collection is one folder under :func:`collections_dir` (``$RAGKIT_COLLECTIONS_DIR``, else
``~/.cache/ragkit/collections``, following ``$RAGKIT_CACHE_DIR``)::

    <name>/collection.json   name, counts, settings, when it was built, what was ingested
    <name>/manifest.json     one record per file (ragkit.ingest.manifest)
    <name>/bm25/             BM25Retriever.save
    <name>/dense/            DenseRetriever.save (FAISS flat index of the chunks' vectors)

:func:`save_collection` writes all of it into a fresh folder and swaps it in with
:func:`ragkit.core.saved_index.atomic_directory`, so an ingest that fails or is interrupted leaves the
previous collection as it was. A :class:`Collection` is a ragkit retriever: ``search_with_scores(query,
k)`` is the tuned hybrid of its BM25 and dense indexes (:func:`ragkit.core.hybrid.fused`), so any
graph takes it, and ``collection_search(NAME)`` opens it on its first search.

Locks (``filelock``, which uses ``flock`` on Unix and ``msvcrt`` on Windows, on hidden files next to the collections): one ingest or delete at a time per
collection (a second one fails at once with :class:`CollectionBusy`); loading waits only while a new
version is being written and swapped in (seconds: the embedding is done before that).

Simplifications: the chunks are stored twice (once in each index folder, as their ``save`` writes
them); locks are advisory and local (not for a network file system); names are limited to letters,
digits, ``_``, ``-`` and ``.`` so a name can never point outside the collections folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict

from ragkit.core.embeddings import default_cache_dir, load_embedder
from ragkit.core.saved_index import atomic_directory, read_documents
from ragkit.core.search import LazySearch, Scored, ScoredRetriever
from ragkit.defaults import GRAPHS
from ragkit.ingest.manifest import Manifest

COLLECTION_FORMAT = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_WINDOWS_RESERVED = frozenset(["CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)),
                               *(f"LPT{n}" for n in range(1, 10))])  # device names, with or without a suffix


class CollectionBusy(RuntimeError):
    """Another ingest or delete of the same collection is running."""


def collections_dir(root: str | Path | None = None) -> Path:
    """Where collections live: ``root``, else ``$RAGKIT_COLLECTIONS_DIR``, else ``<cache dir>/collections``."""
    if root is not None:
        return Path(root).expanduser()
    override = os.environ.get("RAGKIT_COLLECTIONS_DIR")
    return Path(override).expanduser() if override else default_cache_dir() / "collections"


def check_name(name: str) -> str:
    """A collection name, checked: 1-64 letters, digits, ``_``, ``-``, ``.``; starts with a letter or digit.

    >>> check_name("my-notes_2")
    'my-notes_2'
    >>> check_name("../etc")
    Traceback (most recent call last):
    ...
    ValueError: invalid collection name '../etc': use 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit
    """
    if not isinstance(name, str) or not _NAME.match(name) or ".." in name:
        raise ValueError(f"invalid collection name {name!r}: use 1-64 letters, digits, '_', '-' or '.', "
                         "starting with a letter or digit")
    if name.endswith(".") or name.split(".")[0].upper() in _WINDOWS_RESERVED:
        raise ValueError(f"invalid collection name {name!r}: Windows cannot name a folder that way (a reserved device "
                         "name such as CON or NUL, or a name ending in '.'); choose another, so the collection "
                         "works on every machine")
    return name


def collection_path(name: str, root: str | Path | None = None) -> Path:
    """The folder of collection ``name`` (which may not exist yet)."""
    return collections_dir(root) / check_name(name)


@contextmanager
def locked(name: str, root: str | Path | None, purpose: str, wait: bool) -> Iterator[None]:
    """Hold a lock on ``<root>/.<name>.<purpose>.lock``; ``wait=False`` raises CollectionBusy if taken."""
    folder = collections_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(folder / f".{check_name(name)}.{purpose}.lock", timeout=-1 if wait else 0)
    try:
        lock.acquire()
    except Timeout as err:
        raise CollectionBusy(f"collection {name!r} is being ingested or deleted by another process; try again when it ends") from err
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class CollectionInfo:
    """What ``ragkit collections`` shows: counts, size on disk, when it was built, what was ingested."""

    name: str
    path: str
    documents: int
    chunks: int
    pages: int
    size_bytes: int
    built: str
    sources: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def folder_size(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def read_info(folder: Path) -> CollectionInfo:
    """The ``collection.json`` of a collection folder, with its current size on disk."""
    path = folder / "collection.json"
    if not path.is_file():
        raise FileNotFoundError(f"{folder} is not a ragkit collection: collection.json is missing")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format_version") != COLLECTION_FORMAT:
        raise ValueError(f"{folder}: collection format {data.get('format_version')!r}, expected {COLLECTION_FORMAT}; re-ingest it")
    return CollectionInfo(name=data["name"], path=str(folder), documents=data["documents"], chunks=data["chunks"],
                          pages=data.get("pages", 0), size_bytes=folder_size(folder), built=data["built"],
                          sources=data.get("sources", []), settings=data.get("settings", {}))


def list_collections(root: str | Path | None = None) -> list[CollectionInfo]:
    """Every collection under the collections folder, by name (folders that are not collections are left out)."""
    folder = collections_dir(root)
    if not folder.is_dir():
        return []
    found = []
    for child in sorted(folder.iterdir()):
        if child.is_dir() and not child.name.startswith(".") and (child / "collection.json").is_file():
            try:
                found.append(read_info(child))
            except (ValueError, KeyError, json.JSONDecodeError):
                continue  # a damaged folder is not listed; ingest under its name rebuilds it
    return found


def delete_collection(name: str, root: str | Path | None = None) -> CollectionInfo:
    """Delete a collection's folder and return what it held; FileNotFoundError if there is none."""
    folder = collection_path(name, root)
    with locked(name, root, "ingest", wait=False), locked(name, root, "swap", wait=True):
        if not (folder / "collection.json").is_file():
            raise FileNotFoundError(f"no collection named {name!r} in {collections_dir(root)}")
        info = read_info(folder)
        shutil.rmtree(folder)
    return info


def save_collection(name: str, root: str | Path | None, bm25: Any, dense: Any, manifest: Manifest,
                    info: dict[str, Any]) -> Path:
    """Write indexes, manifest and ``collection.json`` to a temporary folder, then swap it in atomically.

    Loading waits while this writes (seconds: the embedding was done before) and swaps.
    """
    folder = collection_path(name, root)
    with locked(name, root, "swap", wait=True), atomic_directory(folder) as tmp:
        bm25.save(tmp / "bm25")
        dense.save(tmp / "dense")
        manifest.save(tmp / "manifest.json")
        record = {"format_version": COLLECTION_FORMAT, "name": name, **info}
        (tmp / "collection.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return folder


class Collection(ScoredRetriever):
    """A saved collection as a retriever: the tuned hybrid of its BM25 and dense (MiniLM + FAISS) indexes.

    >>> docs = load_collection("my-notes").search_with_scores("How do I reset it?", 3)  # doctest: +SKIP
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str
    info: CollectionInfo
    retriever: Any

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        return self.retriever.search_with_scores(query, k)

    @property
    def chunks(self) -> list[Document]:
        """Every chunk of the collection (the documents its indexes search)."""
        return list(self.retriever.retrievers[0].docs)

    def __repr__(self) -> str:
        return f"Collection({self.name!r}, documents={self.info.documents}, chunks={self.info.chunks})"

    __str__ = __repr__


def load_collection(name: str, root: str | Path | None = None, k: int = GRAPHS.k,
                    embeddings: Embeddings | None = None) -> Collection:
    """Open a saved collection as a retriever (default embedder: ``load_embedder()``, as at ingest)."""
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.core.dense import DenseRetriever
    from ragkit.core.hybrid import fused

    folder = collection_path(name, root)
    embedder = embeddings or load_embedder()
    with locked(name, root, "swap", wait=True):
        if not (folder / "collection.json").is_file():
            known = [c.name for c in list_collections(root)]
            raise FileNotFoundError(f"no collection named {name!r} in {collections_dir(root)}; "
                                    f"existing: {known or 'none'} (create it with `ragkit ingest PATH --collection {name}`)")
        info = read_info(folder)
        wanted = info.settings.get("embedding_model")
        model = getattr(embedder, "model_name", type(embedder).__name__)
        if wanted and wanted != model:
            raise ValueError(f"collection {name!r} was embedded with {wanted!r}, not {model!r}: pass that embedder or re-ingest")
        bm25 = BM25Retriever.load(folder / "bm25", k=k)
        dense = DenseRetriever.load(folder / "dense", embeddings=embedder, k=k)
    return Collection(name=name, info=info, retriever=fused(bm25, dense, k=k), k=k)


def stored_chunks(folder: Path) -> list[Document]:
    """The chunks saved in a collection folder (empty when it has none), for reuse by the next ingest."""
    path = folder / "bm25" / "docs.jsonl"
    return read_documents(path) if path.is_file() else []


def source_names(paths: Sequence[str | Path]) -> list[str]:
    """The asked paths as absolute strings (recorded in ``collection.json``)."""
    return [str(Path(p).resolve()) for p in paths]


def collection_search(name: str, k: int = GRAPHS.k) -> LazySearch:
    """An ingested collection (``ragkit ingest PATH --collection NAME``), opened on first search.

    >>> collection_search("notes")  # nothing is opened yet
    LazySearch('collection:notes', built=False)
    """
    check_name(name)  # a bad name fails when the graph is built, not at its first question

    return LazySearch(lambda: load_collection(name, k=k), k, name=f"collection:{name}")

__all__ = ["COLLECTION_FORMAT", "Collection", "CollectionBusy", "CollectionInfo", "check_name", "collection_path", "collection_search",
           "collections_dir", "delete_collection", "list_collections", "load_collection", "read_info",
           "save_collection", "stored_chunks"]
