"""``ingest(path, collection=NAME)``: read a folder into a named, persisted, searchable collection.

The steps, each in its own module: find the files (:mod:`ragkit.ingest.files`), decide from the
manifest which ones changed (:mod:`ragkit.ingest.manifest`), read the new and changed ones
(:mod:`ragkit.ingest.readers`), cut them into chunks with the shared settings
(:func:`ragkit.core.chunking.split_documents`, sizes from :data:`ragkit.defaults.RETRIEVAL`), build
the BM25 and dense indexes over all chunks (vectors through the embedding cache, so the chunks of
unchanged files cost a cache look-up), and save the collection atomically (:mod:`ragkit.ingest.store`).

The collection mirrors what was asked *this time*: a file that is gone, or that can no longer be read,
loses its chunks; a changed file's chunks are replaced, never duplicated. A folder in which nothing
changed is not rewritten at all. A file that cannot be used is skipped with a reason naming it
(:class:`ragkit.ingest.files.Skipped`) and the rest is ingested; if *nothing* can be used, the ingest is
refused (:class:`IngestError`) and any previous collection stays as it was.

Every chunk's metadata: ``source`` (the file's path relative to the folder asked for), ``title``,
``kind`` (markdown, text, html, pdf), ``heading`` (Markdown/HTML section path) or ``page`` (PDF, from 1),
``id`` (``<source>:<part>#<chunk>``, stable across re-ingests of the same file) and ``parent_id``.

Simplification: the BM25 and dense indexes are rebuilt over every chunk when anything changed (BM25
statistics depend on the whole corpus; the dense side reuses cached vectors), so a one-file change in
a folder of a million chunks still costs a full index build, not an incremental update.
"""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.chunking import split_documents
from ragkit.core.embeddings import load_embedder, progress_bar
from ragkit.defaults import GRAPHS, RETRIEVAL
from ragkit.ingest.files import MAX_FILE_BYTES, FileEntry, Skipped, discover
from ragkit.ingest.manifest import FileRecord, Manifest, SkipRecord, removed_keys, same_stat, sha256_bytes
from ragkit.ingest.readers import READER_VERSION, ReadError, ReadResult, read_file
from ragkit.ingest.store import collection_path, locked, save_collection, source_names, stored_chunks

PROGRESS_MIN_FILES = 50  # fewer files than this: no progress bar over files


class IngestError(ValueError):
    """Nothing in what was asked could be ingested; ``skipped`` says why for each file."""

    def __init__(self, message: str, skipped: Sequence[Skipped] = ()) -> None:
        super().__init__(message)
        self.skipped = list(skipped)


@dataclass
class IngestReport:
    """What one ingest did: files read, reused, removed and skipped (with reasons), counts and time."""

    collection: str
    path: str
    documents: int = 0
    chunks: int = 0
    pages: int = 0
    read: list[str] = field(default_factory=list)
    reused: int = 0
    removed: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    hidden: int = 0
    new_chunks: int = 0
    up_to_date: bool = False
    seconds: float = 0.0

    def summary(self) -> str:
        """One paragraph for people: what changed and where the collection is."""
        state = "up to date, nothing rewritten" if self.up_to_date else "saved"
        lines = [f"collection {self.collection!r} {state}: {self.documents} documents, {self.chunks} chunks"
                 + (f", {self.pages} PDF pages" if self.pages else "") + f" ({self.seconds:.1f} s)",
                 f"  read {len(self.read)} new or changed file(s) ({self.new_chunks} chunks), reused {self.reused}, "
                 f"removed {len(self.removed)}, skipped {len(self.skipped)}"
                 + (f", passed over {self.hidden} hidden" if self.hidden else ""),
                 f"  at {self.path}"]
        lines += [f"  skipped {s}" for s in self.skipped]
        return "\n".join(lines)


def join_small_chunks(chunks: list[Document], part_text: str, min_chars: int) -> list[Document]:
    """Join a chunk shorter than ``min_chars`` to the next chunk of the same part, then renumber the ids.

    The splitter leaves a short heading or first line alone when the paragraph after it is longer than a
    chunk; on its own such a chunk matches little and answers nothing. The joined chunk is the exact span
    of the part's text from the short chunk's start to the next one's end.

    >>> from ragkit.core.chunking import split_documents
    >>> text = "Title\\n\\n" + "A sentence of the body. " * 8
    >>> chunks = split_documents([Document(text, metadata={"id": "f:0"})], chunk_size=120, chunk_overlap=20)
    >>> [len(c.page_content) for c in chunks], [len(c.page_content) for c in join_small_chunks(chunks, text, 12)]
    ([5, 119, 84], [126, 84])
    """
    joined: list[Document] = []
    pending: Document | None = None
    for chunk in chunks:
        if pending is not None:
            start = pending.metadata["start_index"]
            end = chunk.metadata["start_index"] + len(chunk.page_content)
            chunk = Document(part_text[start:end], metadata={**chunk.metadata, "start_index": start})
            pending = None
        if len(chunk.page_content) < min_chars and chunk is not chunks[-1]:
            pending = chunk
            continue
        joined.append(chunk)
    renumbered = []
    for n, chunk in enumerate(joined):
        chunk_id = f"{chunk.metadata['parent_id']}#{n}"
        renumbered.append(Document(chunk.page_content, metadata={**chunk.metadata, "id": chunk_id, "chunk": n}, id=chunk_id))
    return renumbered


def chunk_file(key: str, result: ReadResult, chunk_size: int, chunk_overlap: int) -> list[Document]:
    """The chunks of one read file, with ``source``/``title``/``kind`` and ``heading`` or ``page``.

    Each part is split with :func:`ragkit.core.chunking.split_documents`; a piece under a tenth of
    ``chunk_size`` is joined to the next (:func:`join_small_chunks`).

    >>> from ragkit.ingest.readers import Part
    >>> result = ReadResult("markdown", "Guide", [Part("Install\\n\\nRun it.", {"heading": "Install"})])
    >>> [(c.metadata["id"], c.metadata["heading"], c.metadata["source"]) for c in chunk_file("docs/guide.md", result, 1000, 150)]
    [('docs/guide.md:0#0', 'Install', 'docs/guide.md')]
    """
    chunks: list[Document] = []
    for n, part in enumerate(result.parts):
        doc = Document(part.text, metadata={"source": key, "title": result.title, "kind": result.kind,
                                            **part.metadata, "id": f"{key}:{n}"})
        pieces = split_documents([doc], chunk_size=chunk_size, chunk_overlap=chunk_overlap)
        chunks.extend(join_small_chunks(pieces, part.text, max(1, chunk_size // 10)))
    return chunks


def _settings(embeddings: Embeddings, chunk_size: int, chunk_overlap: int) -> dict[str, Any]:
    return {"chunk_size": chunk_size, "chunk_overlap": chunk_overlap, "reader_version": READER_VERSION,
            "embedding_model": getattr(embeddings, "model_name", type(embeddings).__name__)}


def _previous(folder: Path, settings: dict[str, Any]) -> tuple[Manifest, dict[str, list[Document]], bool]:
    """The last ingest's manifest and chunks by source (empty when absent, unreadable or built otherwise)."""
    try:
        old = Manifest.load(folder / "manifest.json")
        chunks = stored_chunks(folder)
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest(), {}, False
    if old.settings != settings:
        return Manifest(), {}, True  # other chunking, reader or embedder: every file is re-read
    by_source: dict[str, list[Document]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk.metadata["source"], []).append(chunk)
    return old, by_source, True


def _files_bar(total: int, progress: bool | None) -> Any:
    """The bar over files: ``None`` (auto) from PROGRESS_MIN_FILES files on, ``True`` always, ``False`` never."""
    if progress is False:
        return None
    return progress_bar(total, "reading files", unit="file", min_total=0 if progress else PROGRESS_MIN_FILES)


def read_one(entry: FileEntry, old: Manifest, old_chunks: dict[str, list[Document]], rehash: bool,
             chunk_size: int, chunk_overlap: int) -> tuple[str, FileRecord, list[Document]]:
    """One file's outcome: ``("reused" | "read", its record, its chunks)``; raises ReadError or OSError.

    Unchanged by size and mtime (or by hash when those moved): the last ingest's chunks. A file that
    failed last time and has not changed fails again with the same reason, without being read.
    """
    previous, failed = old.files.get(entry.key), old.skipped.get(entry.key)
    if failed is not None and not rehash and same_stat(failed, entry.size, entry.mtime_ns):
        raise ReadError(failed.reason)
    reusable = previous is not None and entry.key in old_chunks
    if reusable and not rehash and same_stat(previous, entry.size, entry.mtime_ns):
        return "reused", previous, old_chunks[entry.key]
    data = entry.path.read_bytes()
    digest = sha256_bytes(data)
    if reusable and previous.sha256 == digest:  # touched, not changed: keep the chunks, record the new mtime
        return "reused", replace(previous, size=entry.size, mtime_ns=entry.mtime_ns), old_chunks[entry.key]
    result = read_file(entry.path, data)
    chunks = chunk_file(entry.key, result, chunk_size, chunk_overlap)
    record = FileRecord(digest, entry.size, entry.mtime_ns, result.kind, result.title, len(result.parts),
                        len(chunks), result.pages)
    return "read", record, chunks


def ingest(path: str | Path | Sequence[str | Path], collection: str, *, root: str | Path | None = None,
           embeddings: Embeddings | None = None, max_file_bytes: int = MAX_FILE_BYTES,
           chunk_size: int = RETRIEVAL.chunk_size, chunk_overlap: int = RETRIEVAL.chunk_overlap,
           rehash: bool = False, progress: bool | None = None, backend: str | None = None) -> IngestReport:
    """Ingest a folder (or files) of Markdown, text, HTML and PDF into collection ``collection``.

    ``root`` is the collections folder (default :func:`ragkit.ingest.store.collections_dir`);
    ``embeddings`` defaults to ``load_embedder(backend=backend)`` (MiniLM with the on-disk cache; ``backend``
    ``"torch"``, ``"onnx"`` or ``"onnx-int8"``, default ``$RAGKIT_EMBEDDER_BACKEND`` or ONNX); ``progress``: ``None``
    shows a bar over files from :data:`PROGRESS_MIN_FILES` files on, ``True`` always, ``False`` never
    (the embedder shows its own bar over chunks on long runs). Raises :class:`IngestError` when no file
    could be used, :class:`ragkit.ingest.store.CollectionBusy` when the collection is being ingested
    already; either way the previous collection is kept.

    >>> report = ingest("my_notes/", collection="notes")  # doctest: +SKIP
    >>> print(report.summary())  # doctest: +SKIP
    """
    started = time.perf_counter()
    folder = collection_path(collection, root)
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    with locked(collection, root, "ingest", wait=False):
        found = discover(paths, max_file_bytes)
        embedder = embeddings or load_embedder(backend=backend)
        settings = _settings(embedder, chunk_size, chunk_overlap)
        old, old_chunks, existed = _previous(folder, settings)
        report = IngestReport(collection=collection, path=str(folder), skipped=list(found.skipped), hidden=found.hidden)
        manifest = Manifest(settings)
        chunks: list[Document] = []
        bar = _files_bar(len(found.files), progress)
        try:
            for entry in found.files:
                try:
                    outcome, record, file_chunks = read_one(entry, old, old_chunks, rehash, chunk_size, chunk_overlap)
                except ReadError as err:
                    manifest.skipped[entry.key] = SkipRecord(entry.size, entry.mtime_ns, str(err))
                    report.skipped.append(Skipped(entry.key, str(err)))
                except OSError as err:  # not remembered: fixing a permission does not change the mtime
                    report.skipped.append(Skipped(entry.key, f"cannot read the file ({err.strerror or err})"))
                else:
                    manifest.files[entry.key] = record
                    chunks.extend(file_chunks)
                    if outcome == "read":
                        report.read.append(entry.key)
                        report.new_chunks += len(file_chunks)
                    else:
                        report.reused += 1
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        report.removed = removed_keys(old, set(manifest.files))
        report.documents, report.chunks = len(manifest.files), len(chunks)
        report.pages = sum(r.pages for r in manifest.files.values())
        if not chunks:
            why = "no supported files found" if not found.files else "no file could be read"
            raise IngestError(f"nothing to ingest in {', '.join(str(p) for p in paths)}: {why} (ragkit reads Markdown, "
                              "text, HTML and PDF)" + (f"; collection {collection!r} was left as it was" if existed else ""),
                              report.skipped)
        if existed and not report.read and not report.removed:
            report.up_to_date = True
            if manifest.to_json() != old.to_json():  # only mtimes or skips moved: record them, rewrite nothing else
                with locked(collection, root, "swap", wait=True):
                    manifest.save(folder / ".manifest.json.tmp")
                    (folder / ".manifest.json.tmp").replace(folder / "manifest.json")
        else:
            from ragkit.core.dense import DenseRetriever
            from ragkit.core.hybrid import bm25_retriever

            bm25 = bm25_retriever(chunks, k=GRAPHS.k)
            dense = DenseRetriever.from_documents(chunks, embeddings=embedder, k=GRAPHS.k)
            info = {"documents": report.documents, "chunks": report.chunks, "pages": report.pages,
                    "built": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                    "sources": source_names(paths), "settings": settings}
            save_collection(collection, root, bm25, dense, manifest, info)
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["PROGRESS_MIN_FILES", "IngestError", "IngestReport", "chunk_file", "ingest"]
