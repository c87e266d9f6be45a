"""Dense retrieval for long documents: embed every chunk, return each document scored by its best chunk.

An embedding model reads a fixed window (MiniLM: 256 word pieces, about 1,000 characters), so one vector
per long document only "sees" its beginning. ``MaxChunkDenseRetriever`` cuts each document into chunks
(``split_documents``), embeds every chunk (and, by default, the whole text as well), and scores a
document by the cosine of its *best* chunk: MaxP, as in Dai & Callan (2019), "Deeper Text Understanding
for IR with Contextual Neural Language Modeling". It returns the parent documents, each at most once.

How the search stays exact: FAISS lists chunks best first, so the first time a document appears in that
list is its best chunk. The retriever reads deeper and deeper (doubling) until it has met ``k`` different
documents, which are then exactly the top ``k`` by best-chunk score.

MMR (``search_type="mmr"``) runs over *documents*, not chunks: the ``fetch_k`` best documents are
candidates, each represented by its best chunk for this query, and MMR picks ``k`` of them.

Simplifications: chunk sizes are in characters (see ``chunking``); later chunks lose the title, which
only the first chunk (and the whole text) carries; documents are identified by ``metadata["id"]`` (else
``Document.id``, else their position), so two documents may not share an id.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict, PrivateAttr

from ragkit.core.chunking import source_id, split_documents
from ragkit.core.dense import DenseRetriever, mmr_select
from ragkit.core.hybrid import HybridRetriever, bm25_retriever, fused
from ragkit.core.saved_index import (
    FORMAT_VERSION,
    atomic_directory,
    read_config,
    read_documents,
    write_documents,
    write_json,
)
from ragkit.core.search import Scored, ScoredRetriever, check_corpus, check_k
from ragkit.defaults import GRAPHS, RETRIEVAL, RetrievalDefaults

WHOLE = "all"  # passage id suffix of a whole-document passage: "<doc id>#all"


def make_passages(docs: Sequence[Document], chunk_size: int = 1000, chunk_overlap: int = 150, include_whole: bool = True) -> list[Document]:
    """The passages to embed: every chunk, plus each whole document whose text is not already one chunk.

    >>> doc = Document("Short title. " + "A long sentence about tides. " * 6, metadata={"id": "d1"})
    >>> [p.metadata["id"] for p in make_passages([doc], chunk_size=100, chunk_overlap=20)]
    ['d1#0', 'd1#1', 'd1#2', 'd1#all']
    >>> [p.metadata["id"] for p in make_passages([Document("Tiny.", metadata={"id": "d2"})])]  # one chunk = the text
    ['d2#0']
    """
    chunks = split_documents(docs, chunk_size, chunk_overlap)
    if not include_whole:
        return chunks
    by_parent: dict[str, list[Document]] = {}
    for chunk in chunks:
        by_parent.setdefault(chunk.metadata["parent_id"], []).append(chunk)
    passages: list[Document] = []
    for position, doc in enumerate(docs):
        parent = source_id(doc, position)
        own = by_parent.get(parent, [])
        passages.extend(own)
        if not (len(own) == 1 and own[0].page_content == doc.page_content.strip()):
            key = f"{parent}#{WHOLE}"
            metadata = {**doc.metadata, "id": key, "parent_id": parent, "chunk": WHOLE, "start_index": 0}
            passages.append(Document(page_content=doc.page_content, metadata=metadata, id=key))
    return passages


class MaxChunkDenseRetriever(ScoredRetriever):
    """Dense search over chunks that returns parent documents, each scored by its best chunk (MaxP).

    >>> long_doc = Document("Bread. " + "Flour and water. " * 80 + "Tides follow the moon.", metadata={"id": "long"})
    >>> r = MaxChunkDenseRetriever.from_documents([long_doc, Document("Bees dance.", metadata={"id": "bees"})])  # doctest: +SKIP
    >>> [(d.metadata["id"], c.metadata["id"]) for d, c, _ in r.search_with_chunks("What moves the tides?", 1)]  # doctest: +SKIP
    [('long', 'long#1')]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    docs: list[Document]
    passages: DenseRetriever
    chunk_size: int = 1000
    chunk_overlap: int = 150
    include_whole: bool = True
    search_type: Literal["similarity", "mmr"] = "similarity"
    fetch_k: int = 20
    lambda_mult: float = 0.5
    _owner: np.ndarray = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        self.docs = check_corpus(self.docs, "MaxChunkDenseRetriever")
        if self.search_type not in ("similarity", "mmr"):
            raise ValueError(f"search_type must be 'similarity' or 'mmr', got {self.search_type!r}")
        check_k(self.fetch_k, "fetch_k")
        if not 0.0 <= self.lambda_mult <= 1.0:
            raise ValueError(f"lambda_mult must be between 0 and 1, got {self.lambda_mult}")
        position: dict[str, int] = {}
        for i, doc in enumerate(self.docs):
            key = source_id(doc, i)
            if key in position:
                raise ValueError(f"MaxChunkDenseRetriever: documents {position[key]} and {i} share the id {key!r}; parent ids must be unique")
            position[key] = i
        try:
            self._owner = np.array([position[p.metadata["parent_id"]] for p in self.passages.docs], dtype=np.int64)
        except KeyError as err:
            raise ValueError(f"MaxChunkDenseRetriever: a passage points at parent {err}, which is not among the documents") from err

    @classmethod
    def from_documents(cls, docs: Sequence[Document], embeddings: Embeddings | None = None, chunk_size: int = 1000,
                       chunk_overlap: int = 150, include_whole: bool = True, **kwargs: Any) -> MaxChunkDenseRetriever:
        """Chunk ``docs``, embed every passage (default embedder: ``load_embedder()``) and index them in FAISS."""
        docs = check_corpus(docs, "MaxChunkDenseRetriever")
        passages = DenseRetriever.from_documents(make_passages(docs, chunk_size, chunk_overlap, include_whole), embeddings=embeddings)
        return cls(docs=docs, passages=passages, chunk_size=chunk_size, chunk_overlap=chunk_overlap, include_whole=include_whole, **kwargs)

    def best_passages(self, query_vec: np.ndarray, n: int) -> list[tuple[int, int, float]]:
        """The ``n`` best documents as ``(document row, best passage row, cosine)``, best first (exact)."""
        total = len(self.passages.docs)
        depth = min(total, n * max(1, -(-total // len(self.docs))) + 10)
        while True:
            sims, rows = self.passages.search_vectors(query_vec[None, :], depth)
            best: dict[int, tuple[int, float]] = {}
            for sim, row in zip(sims, rows):
                if row >= 0:
                    best.setdefault(int(self._owner[row]), (int(row), float(sim)))
            if len(best) >= n or depth == total:
                return [(doc, row, sim) for doc, (row, sim) in list(best.items())[:n]]
            depth = min(total, depth * 2)

    def search_with_chunks(self, query: str, k: int | None = None) -> list[tuple[Document, Document, float]]:
        """``(document, its best passage, score)`` for the top ``k`` documents: shows *why* each was found."""
        query, k = self._prepare(query, k)
        q = self.passages.query_vector(query)[0]
        if self.search_type == "similarity":
            found = self.best_passages(q, k)
        else:
            candidates = self.best_passages(q, max(k, self.fetch_k))
            vectors = self.passages.vectors([row for _, row, _ in candidates])
            found = [(candidates[i][0], candidates[i][1], value) for i, value in mmr_select(q, vectors, k, self.lambda_mult)]
        return [(self.docs[doc], self.passages.docs[row], score) for doc, row, score in found]

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        return [(doc, score) for doc, _, score in self.search_with_chunks(query, k)]

    def save(self, path: str | Path) -> None:
        """Save the documents, the passage index and the settings atomically to the folder ``path``."""
        with atomic_directory(path) as tmp:
            self.passages.save(tmp / "passages")
            write_documents(tmp / "docs.jsonl", self.docs)
            write_json(tmp / "config.json", {
                "kind": "dense-maxp", "format_version": FORMAT_VERSION, "k": self.k, "chunk_size": self.chunk_size,
                "chunk_overlap": self.chunk_overlap, "include_whole": self.include_whole, "search_type": self.search_type,
                "fetch_k": self.fetch_k, "lambda_mult": self.lambda_mult,
            })

    @classmethod
    def load(cls, path: str | Path, embeddings: Embeddings | None = None, **overrides: Any) -> MaxChunkDenseRetriever:
        """Load an index saved by ``save``; pass the same embedder that built it (default ``load_embedder()``)."""
        config = read_config(path, "dense-maxp")
        keys = ("k", "chunk_size", "chunk_overlap", "include_whole", "search_type", "fetch_k", "lambda_mult")
        passages = DenseRetriever.load(Path(path) / "passages", embeddings=embeddings)
        return cls(docs=read_documents(Path(path) / "docs.jsonl"), passages=passages, **{**{key: config[key] for key in keys}, **overrides})


def maxp_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None,
                   settings: RetrievalDefaults = RETRIEVAL) -> MaxChunkDenseRetriever:
    """Best-chunk dense retrieval with the tuned chunking (the README's "dense-maxp" row)."""
    return MaxChunkDenseRetriever.from_documents(docs, embeddings, settings.chunk_size, settings.chunk_overlap,
                                                 include_whole=settings.include_whole, k=k)


def hybrid_maxp_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None,
                          settings: RetrievalDefaults = RETRIEVAL) -> HybridRetriever:
    """BM25 + best-chunk dense, fused with the max-chunk settings (the README's "hybrid-maxp" row)."""
    return fused(bm25_retriever(docs, k, settings), maxp_retriever(docs, k, embeddings, settings), k, maxp=True,
                 settings=settings)
