"""Hybrid retrieval: fuse the rankings of several retrievers (say BM25 and dense) into one.

Keyword and embedding search fail on different questions, so combining them usually beats either one.
Two classic ways to fuse:

- reciprocal rank fusion (RRF, Cormack et al. 2009): a document earns ``1 / (k + rank)`` from every list
  it appears in. It uses ranks only, so the retrievers' score scales never have to agree;
- weighted score fusion: min-max normalise each list's scores to [0, 1], then add them with weights
  (``alpha`` for the first retriever, ``1 - alpha`` for the second is the usual two-retriever form).

:func:`fuse` is the one implementation of both formulas: ``HybridRetriever`` and the tuner
(``ragkit.evaluation.tuning``) call it, so what was tuned is exactly what runs; the tuned method and weight
are in :mod:`ragkit.defaults`. Any mix of retrievers can be fused: each is turned into scored search by
:func:`ragkit.core.search.as_scored_search` (a LangChain ``VectorStore`` through its relevance scores, so
"higher is better" holds for every list before min-max).

Simplification: a document missing from a list contributes nothing from that list (score 0 after
normalisation), although it might have scored well just below that list's cut-off (``fetch_k``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.dense import DenseRetriever
from ragkit.core.search import Scored, ScoredRetriever, as_scored_search, check_k, doc_key
from ragkit.defaults import GRAPHS, RETRIEVAL, RetrievalDefaults


def reciprocal_rank_fusion(ranked_lists: Sequence[Sequence[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse ranked lists of ids: ``score(d) = sum over lists of 1 / (k + rank of d)``, ranks from 1.

    Ties keep the order in which documents were first met (list by list), so the output is deterministic.

    >>> reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]], k=1)
    [('b', 0.8333333333333333), ('c', 0.5833333333333333), ('a', 0.5), ('d', 0.25)]

    With k=1: ``b`` is 2nd then 1st, so 1/(1+2) + 1/(1+1) = 0.833; ``c`` is 3rd then 2nd, 1/4 + 1/3 = 0.583;
    ``a`` is only 1st once, 1/2; ``d`` only 3rd once, 1/4. The usual k=60 flattens these differences:

    >>> dict(reciprocal_rank_fusion([["a", "b"], ["b"]], k=60))["b"] == 1 / 62 + 1 / 61
    True
    """
    if k < 0:
        raise ValueError(f"rrf k must be >= 0, got {k}")
    scores: dict[str, float] = {}
    for ranking in ranked_lists:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda item: -item[1])


def min_max(scores: Sequence[float]) -> list[float]:
    """Rescale scores to [0, 1]; if all are equal, every one becomes 1.0.

    >>> min_max([2.0, 4.0, 3.0])
    [0.0, 1.0, 0.5]
    """
    lo, hi = min(scores, default=0.0), max(scores, default=0.0)
    if hi == lo:
        return [1.0 for _ in scores]
    return [(s - lo) / (hi - lo) for s in scores]


def weighted_score_fusion(scored_lists: Sequence[Sequence[tuple[str, float]]], weights: Sequence[float]) -> list[tuple[str, float]]:
    """Fuse ``(id, score)`` lists: min-max normalise each list, then sum ``weight * normalised score``.

    >>> weighted_score_fusion([[("a", 10.0), ("b", 5.0), ("c", 0.0)], [("c", 0.9), ("a", 0.1)]], [0.5, 0.5])
    [('a', 0.5), ('c', 0.5), ('b', 0.25)]

    ``a``: 0.5 * 1.0 + 0.5 * 0.0 = 0.5; ``c``: 0.5 * 0.0 + 0.5 * 1.0 = 0.5; ``b``: 0.5 * 0.5 = 0.25 (absent
    from the second list). ``a`` and ``c`` tie, and ``a`` was met first.
    """
    if len(weights) != len(scored_lists):
        raise ValueError(f"got {len(weights)} weights for {len(scored_lists)} lists: give one weight per list")
    fused: dict[str, float] = {}
    for weight, scored in zip(weights, scored_lists):
        for (key, _), norm in zip(scored, min_max([s for _, s in scored])):
            fused[key] = fused.get(key, 0.0) + weight * norm
    return sorted(fused.items(), key=lambda item: -item[1])


DEFAULT_RRF_K = RETRIEVAL.rrf_k
DEFAULT_ALPHA = RETRIEVAL.alpha
Method = Literal["rrf", "weighted"]


def fuse(scored_lists: Sequence[Sequence[tuple[str, float]]], method: Method, weights: Sequence[float],
         rrf_k: int = DEFAULT_RRF_K) -> list[tuple[str, float]]:
    """Fuse ``(id, score)`` lists (each best first) into one ranking, by weighted RRF or weighted min-max.

    With RRF each list contributes ``weight / (rrf_k + rank)`` (equal weights give plain RRF, up to a
    constant factor); with ``"weighted"`` it contributes ``weight * min-max(score)``.

    >>> fuse([[("a", 9.0), ("b", 1.0)], [("b", 0.9), ("c", 0.2)]], "rrf", [0.5, 0.5], rrf_k=1)
    [('b', 0.41666666666666663), ('a', 0.25), ('c', 0.16666666666666666)]
    >>> fuse([[("a", 9.0), ("b", 1.0)], [("b", 0.9), ("c", 0.2)]], "weighted", [0.5, 0.5])
    [('a', 0.5), ('b', 0.5), ('c', 0.0)]
    """
    if method == "weighted":
        return weighted_score_fusion(scored_lists, weights)
    if method != "rrf":
        raise ValueError(f"method must be 'rrf' or 'weighted', got {method!r}")
    if len(weights) != len(scored_lists):
        raise ValueError(f"got {len(weights)} weights for {len(scored_lists)} lists: give one weight per list")
    fused: dict[str, float] = {}
    for weight, scored in zip(weights, scored_lists):
        for key, score in reciprocal_rank_fusion([[key for key, _ in scored]], rrf_k):
            fused[key] = fused.get(key, 0.0) + weight * score
    return sorted(fused.items(), key=lambda item: -item[1])


class HybridRetriever(ScoredRetriever):
    """Fuse any list of retrievers with weighted score fusion (the tuned default) or RRF.

    ``retrievers`` may be ragkit retrievers, LangChain vector stores or retrievers, or functions (see
    :func:`ragkit.core.search.as_scored_search`). ``weights`` default to ``[alpha, 1 - alpha]`` for
    two retrievers and to equal weights otherwise. Each retriever is asked for ``fetch_k`` results; a
    document none of them returns cannot be found.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retrievers: list[Any]
    method: Method = RETRIEVAL.fusion  # type: ignore[assignment]
    rrf_k: int = DEFAULT_RRF_K
    alpha: float = DEFAULT_ALPHA
    weights: list[float] | None = None
    fetch_k: int = RETRIEVAL.fetch_k

    def model_post_init(self, __context: Any) -> None:
        if not self.retrievers:
            raise ValueError("HybridRetriever needs at least one retriever: the retrievers list is empty")
        check_k(self.fetch_k, "fetch_k")
        if self.weights is not None and len(self.weights) != len(self.retrievers):
            raise ValueError(f"{len(self.weights)} weights for {len(self.retrievers)} retrievers: give one each")
        self.retrievers = [as_scored_search(r, k=self.fetch_k) for r in self.retrievers]

    def list_weights(self) -> list[float]:
        """The weight of each retriever's list."""
        if self.weights is not None:
            return list(self.weights)
        if len(self.retrievers) == 2:
            return [self.alpha, 1.0 - self.alpha]
        return [1.0 / len(self.retrievers)] * len(self.retrievers)

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        depth = max(k, self.fetch_k)
        results = [retriever.search_with_scores(query, depth) for retriever in self.retrievers]
        by_key: dict[str, Document] = {}
        for scored in results:
            for doc, _ in scored:
                by_key.setdefault(doc_key(doc), doc)
        keyed = [[(doc_key(d), s) for d, s in scored] for scored in results]
        ranking = fuse(keyed, self.method, self.list_weights(), self.rrf_k)
        return [(by_key[key], score) for key, score in ranking[:k]]


# ---------------------------------------------------------------- the retrievers ragkit builds for you
def bm25_retriever(docs: Sequence[Document], k: int = GRAPHS.k, settings: RetrievalDefaults = RETRIEVAL) -> BM25Retriever:
    """BM25 with the tuned k1 and b."""
    return BM25Retriever.from_documents(docs, k1=settings.bm25_k1, b=settings.bm25_b, k=k)


def dense_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None) -> DenseRetriever:
    """Whole-document dense retrieval (each document embedded once)."""
    return DenseRetriever.from_documents(docs, embeddings=embeddings, k=k)


def fused(bm25: object, dense: object, k: int = GRAPHS.k, maxp: bool = False,
          settings: RetrievalDefaults = RETRIEVAL, fetch_k: int | None = None) -> HybridRetriever:
    """BM25 and a dense retriever fused with the tuned method and weight (``maxp``: the max-chunk settings)."""
    return HybridRetriever(
        retrievers=[bm25, dense], method=settings.maxp_fusion if maxp else settings.fusion,  # type: ignore[arg-type]
        alpha=settings.maxp_alpha if maxp else settings.alpha, rrf_k=settings.rrf_k,
        fetch_k=fetch_k or settings.fetch_k, k=k,
    )


def default_retriever(docs: Sequence[Document], k: int = GRAPHS.k, embeddings: Embeddings | None = None) -> HybridRetriever:
    """The retriever every graph uses when you pass none: BM25 + whole-document dense over ``docs``, fused with
    the tuned settings (the README's "hybrid" system)."""
    return fused(bm25_retriever(docs, k), dense_retriever(docs, k, embeddings), k)

