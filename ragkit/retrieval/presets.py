"""The retrievers ragkit builds for you: the benchmark's systems and the graphs' defaults, made one way.

``ragkit bench retrieval`` measures these systems, and the graphs use :func:`default_retriever` when you
pass no retriever, so the "hybrid" row of the README is exactly what a graph runs. All settings come
from :data:`ragkit.defaults.RETRIEVAL` (or a variant of it you pass as ``settings``).

>>> from langchain_core.documents import Document
>>> docs = [Document("Red wine goes with steak", metadata={"id": "a"}), Document("White wine goes with fish", metadata={"id": "b"})]
>>> r = default_retriever(docs, k=1)  # doctest: +SKIP
>>> (r.method, r.alpha)  # doctest: +SKIP
('weighted', 0.6)

Simplification: the default dense side embeds each document once (``DenseRetriever``), the README's
"hybrid" row. For long documents, :func:`hybrid_retriever` with ``dense="maxp"`` scores each by its best
chunk instead (the "hybrid-maxp" row), at several times the embedding cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.defaults import GRAPHS, RETRIEVAL, RetrievalDefaults
from ragkit.retrieval.bm25 import BM25Retriever
from ragkit.retrieval.dense import DenseRetriever
from ragkit.retrieval.hybrid import HybridRetriever
from ragkit.retrieval.maxp import MaxChunkDenseRetriever

Dense = Literal["whole", "maxp"]


def bm25_retriever(docs: Sequence[Document], k: int = GRAPHS.k, settings: RetrievalDefaults = RETRIEVAL) -> BM25Retriever:
    """BM25 with the tuned k1 and b."""
    return BM25Retriever.from_documents(docs, k1=settings.bm25_k1, b=settings.bm25_b, k=k)


def dense_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None,
                    dense: Dense = "whole", settings: RetrievalDefaults = RETRIEVAL) -> DenseRetriever | MaxChunkDenseRetriever:
    """Whole-document dense retrieval, or best-chunk (MaxP) with the tuned chunking."""
    if dense == "whole":
        return DenseRetriever.from_documents(docs, embeddings=embeddings, k=k)
    if dense == "maxp":
        return MaxChunkDenseRetriever.from_documents(docs, embeddings, settings.chunk_size, settings.chunk_overlap,
                                                     include_whole=settings.include_whole, k=k)
    raise ValueError(f"dense must be 'whole' or 'maxp', got {dense!r}")


def fused(bm25: object, dense: object, k: int = GRAPHS.k, maxp: bool = False,
          settings: RetrievalDefaults = RETRIEVAL, fetch_k: int | None = None) -> HybridRetriever:
    """BM25 and a dense retriever fused with the tuned method and weight (``maxp``: the max-chunk settings)."""
    return HybridRetriever(
        retrievers=[bm25, dense], method=settings.maxp_fusion if maxp else settings.fusion,  # type: ignore[arg-type]
        alpha=settings.maxp_alpha if maxp else settings.alpha, rrf_k=settings.rrf_k,
        fetch_k=fetch_k or settings.fetch_k, k=k,
    )


def hybrid_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None,
                     dense: Dense = "whole", settings: RetrievalDefaults = RETRIEVAL) -> HybridRetriever:
    """BM25 + dense over ``docs``, fused as tuned on SciFact train."""
    return fused(bm25_retriever(docs, k, settings), dense_retriever(docs, k, embeddings, dense, settings), k,
                 maxp=dense == "maxp", settings=settings)


def default_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None) -> HybridRetriever:
    """The retriever every graph uses when you pass none: the README's "hybrid" system over ``docs``."""
    return hybrid_retriever(docs, k=k, embeddings=embeddings)


__all__ = ["bm25_retriever", "default_retriever", "dense_retriever", "fused", "hybrid_retriever"]
