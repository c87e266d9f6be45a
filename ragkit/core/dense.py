"""Dense retrieval: embed every document once, store the vectors in FAISS, find nearest neighbours.

Vectors are L2-normalised, so FAISS's inner-product index (``IndexFlatIP``) returns cosine similarity.
Two search types, as in LangChain's vector stores:

- ``"similarity"``: the ``k`` documents closest to the query;
- ``"mmr"`` (maximal marginal relevance): fetch ``fetch_k`` close documents, then pick ``k`` one at a time,
  each maximising ``lambda_mult * sim(query, d) - (1 - lambda_mult) * max sim(d, already picked)``, so
  near-duplicates of what was already picked lose out.

The index is exact (``IndexFlatIP``, a scan of every vector) below ``ANN_MIN_DOCS`` documents and an
HNSW graph (``IndexHNSWFlat``, approximate: a query visits a few thousand vectors) from there on;
``index_type="flat"`` or ``"hnsw"`` forces either. The settings are ``ragkit.defaults.RETRIEVAL``'s
(how they were chosen: ``benchmarks/scale/README.md``, section 3). A query is searched on one FAISS thread.
An index built elsewhere can be passed to :meth:`DenseRetriever.from_vectors`, say ``faiss.IndexHNSWSQ``, the
same graph over 8-bit codes (at 500k, 0.41x the memory at about the same query time: section 3c).

What it cannot do: HNSW's recall depends on the vectors (a structureless Gaussian needed six times the
``efSearch`` of real-looking ones), so a corpus unlike the measured ones may need a larger ``ef_search``;
HNSW is built with FAISS's threads, so two builds of the same vectors may differ in a few neighbours; the
score reported for an MMR pick is its MMR value when it was picked, not its plain cosine to the query.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import faiss
import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict, PrivateAttr

from ragkit.core.embeddings import embed, embed_query, load_embedder
from ragkit.core.saved_index import (
    FORMAT_VERSION,
    atomic_directory,
    read_config,
    read_documents,
    write_documents,
    write_json,
)
from ragkit.core.search import Scored, ScoredRetriever, check_corpus, check_k
from ragkit.defaults import RETRIEVAL

IndexType = Literal["auto", "flat", "hnsw"]
ANN_MIN_DOCS = RETRIEVAL.ann_min_docs  # "auto": exact below, HNSW from here on
HNSW_M = RETRIEVAL.hnsw_m  # graph neighbours per vector
HNSW_EF_CONSTRUCTION = RETRIEVAL.hnsw_ef_construction  # candidates kept while building
HNSW_EF_SEARCH = RETRIEVAL.hnsw_ef_search  # candidates kept while searching


def mmr_select(query_vec: np.ndarray, cand_vecs: np.ndarray, k: int, lambda_mult: float = 0.5) -> list[tuple[int, float]]:
    """Greedy maximal-marginal-relevance picks: ``(index into cand_vecs, MMR value when picked)``.

    Rows are unit vectors. The values never increase from one pick to the next (redundancy only grows),
    so they serve as scores sorted best first.

    >>> q = np.array([1.0, 0.0]); c = np.array([[1.0, 0.0], [1.0, 0.0], [0.6, 0.8]])
    >>> [(i, round(v, 2)) for i, v in mmr_select(q, c, k=2, lambda_mult=0.4)]  # the duplicate (1) loses to 2
    [(0, 0.4), (2, -0.12)]
    """
    if not 0.0 <= lambda_mult <= 1.0:
        raise ValueError(f"lambda_mult must be between 0 and 1, got {lambda_mult}")
    relevance = cand_vecs @ query_vec
    chosen: list[int] = []
    values: list[float] = []
    redundancy = np.full(len(cand_vecs), -np.inf)
    while len(chosen) < min(k, len(cand_vecs)):
        penalty = np.where(np.isinf(redundancy), 0.0, redundancy)
        value = lambda_mult * relevance - (1.0 - lambda_mult) * penalty
        value[chosen] = -np.inf
        best = int(np.argmax(value))
        chosen.append(best)
        values.append(float(value[best]))
        redundancy = np.maximum(redundancy, cand_vecs @ cand_vecs[best])
    return list(zip(chosen, values))


class DenseRetriever(ScoredRetriever):
    """Cosine-similarity search over embedded documents in FAISS (exact, or HNSW on large corpora), with optional MMR.

    >>> r = DenseRetriever.from_documents([Document("cats purr"), Document("stock prices fell")])  # doctest: +SKIP
    >>> r.invoke("kittens")[0].page_content  # doctest: +SKIP
    'cats purr'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    docs: list[Document]
    embeddings: Embeddings
    search_type: Literal["similarity", "mmr"] = "similarity"
    fetch_k: int = 20
    lambda_mult: float = 0.5
    index_type: IndexType = "auto"
    ef_search: int = HNSW_EF_SEARCH
    _index: faiss.Index = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        self.docs = check_corpus(self.docs, "DenseRetriever")
        if self.search_type not in ("similarity", "mmr"):
            raise ValueError(f"search_type must be 'similarity' or 'mmr', got {self.search_type!r}")
        if self.index_type not in ("auto", "flat", "hnsw"):
            raise ValueError(f"index_type must be 'auto', 'flat' or 'hnsw', got {self.index_type!r}")
        check_k(self.fetch_k, "fetch_k")
        check_k(self.ef_search, "ef_search")

    @classmethod
    def from_documents(cls, docs: Sequence[Document], embeddings: Embeddings | None = None, **kwargs: Any) -> DenseRetriever:
        """Embed ``docs`` (default embedder: ``load_embedder()``) and build the FAISS index."""
        docs, embeddings = check_corpus(docs, "DenseRetriever"), embeddings or load_embedder()
        return cls.from_vectors(docs, embed(embeddings, [d.page_content for d in docs]), embeddings, **kwargs)

    @classmethod
    def from_vectors(cls, docs: Sequence[Document], vectors: np.ndarray | faiss.Index, embeddings: Embeddings | None = None,
                     **kwargs: Any) -> DenseRetriever:
        """Build over vectors computed already: one unit row per document, or a FAISS index that holds them."""
        retriever = cls(docs=list(docs), embeddings=embeddings or load_embedder(), **kwargs)
        retriever._set_vectors(vectors)
        return retriever

    def _set_vectors(self, vectors: np.ndarray | faiss.Index) -> None:
        n = vectors.ntotal if isinstance(vectors, faiss.Index) else len(vectors)
        if n != len(self.docs):
            raise ValueError(f"DenseRetriever: {n} vectors for {len(self.docs)} documents")
        if isinstance(vectors, faiss.Index):
            self._index = vectors
            return
        if self.index_type == "hnsw" or (self.index_type == "auto" and len(vectors) >= ANN_MIN_DOCS):
            self._index = faiss.IndexHNSWFlat(vectors.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
            self._index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        else:
            self._index = faiss.IndexFlatIP(vectors.shape[1])
        self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    @property
    def faiss_index(self) -> faiss.Index:
        """The FAISS index that is searched (``IndexFlatIP`` or ``IndexHNSWFlat``)."""
        return self._index

    @property
    def approximate(self) -> bool:
        """Whether searches go through the HNSW graph (approximate) rather than an exact scan."""
        return isinstance(self._index, faiss.IndexHNSW)

    @property
    def dimension(self) -> int:
        return self._index.d

    def query_vector(self, query: str) -> np.ndarray:
        """The query's ``(1, d)`` unit vector (embedded fresh, never from the cache)."""
        q = embed_query(self.embeddings, query)
        if q.shape[1] != self.dimension:
            raise ValueError(f"query vector has {q.shape[1]} dimensions, the index has {self.dimension}: wrong embedder?")
        return q

    def search_vectors(self, q: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """FAISS search for one ``(1, d)`` query vector: ``(cosines, row ids)`` of the ``depth`` nearest rows."""
        depth = min(depth, len(self.docs))
        params = faiss.SearchParametersHNSW(efSearch=max(self.ef_search, depth)) if self.approximate else None
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)  # one query: FAISS's threads would only wait for each other on busy cores
        try:
            sims, ids = self._index.search(np.ascontiguousarray(q, dtype=np.float32), depth, params=params)
        finally:
            faiss.omp_set_num_threads(threads)
        return sims[0], ids[0]

    def vectors(self, rows: Sequence[int]) -> np.ndarray:
        """The stored unit vectors of the given rows, as an ``(n, d)`` array."""
        return np.vstack([self._index.reconstruct(int(i)) for i in rows]) if len(rows) else np.zeros((0, self.dimension))

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        q = self.query_vector(query)
        sims, ids = self.search_vectors(q, max(k, self.fetch_k) if self.search_type == "mmr" else k)
        if self.search_type == "mmr":
            cands = self.vectors(ids)
            picked = mmr_select(q[0], cands, k, self.lambda_mult)
            sims, ids = np.array([v for _, v in picked]), ids[[i for i, _ in picked]]
        return [(self.docs[int(i)], float(s)) for s, i in zip(sims[:k], ids[:k]) if i >= 0]

    def save(self, path: str | Path) -> None:
        """Save vectors, documents and settings atomically to the folder ``path``."""
        with atomic_directory(path) as tmp:
            faiss.write_index(self._index, str(tmp / "index.faiss"))
            write_documents(tmp / "docs.jsonl", self.docs)
            write_json(tmp / "config.json", {
                "kind": "dense", "format_version": FORMAT_VERSION, "k": self.k, "search_type": self.search_type,
                "fetch_k": self.fetch_k, "lambda_mult": self.lambda_mult, "dimension": self.dimension,
                "index_type": self.index_type, "ef_search": self.ef_search,
                "embedding_model": getattr(self.embeddings, "model_name", type(self.embeddings).__name__),
            })

    @classmethod
    def load(cls, path: str | Path, embeddings: Embeddings | None = None, **overrides: Any) -> DenseRetriever:
        """Load an index saved by ``save``; pass the same embedder that built it (default ``load_embedder()``)."""
        config = read_config(path, "dense")
        index_path = Path(path) / "index.faiss"
        if not index_path.is_file():
            raise FileNotFoundError(f"saved index is incomplete: {index_path} is missing")
        params = {key: config[key] for key in ("k", "search_type", "fetch_k", "lambda_mult", "index_type", "ef_search") if key in config}
        index = faiss.read_index(str(index_path))
        if "index_type" in overrides:  # another kind of index asked for: rebuilt from the stored vectors
            index = index.reconstruct_n(0, index.ntotal)
        return cls.from_vectors(read_documents(Path(path) / "docs.jsonl"), index, embeddings, **{**params, **overrides})
