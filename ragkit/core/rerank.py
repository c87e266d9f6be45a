"""Rerankers: look again, more carefully, at the few documents a fast retriever brought back.

A first-stage retriever scores each document on its own vector or term counts. A reranker sees the
query and one candidate together and re-orders a short list. Two implementations of one interface:

- ``LocalReranker`` runs offline with the packaged MiniLM. It mixes four signals, each min-max scaled over
  the candidate list: the cosine of the query with the passage's *best-matching sentence* (a long
  abstract that answers in one sentence is not diluted), the cosine with the *whole passage*, BM25 over
  the candidates, and the first-stage order, with weights tuned on SciFact train (``benchmarks/README.md``:
  the sentence signal's default weight is 0; give it one when answers hide in one sentence of a long passage).
- ``CrossEncoderReranker`` uses a sentence-transformers ``CrossEncoder`` (default
  ``cross-encoder/ms-marco-MiniLM-L-6-v2``) if its weights are already on this machine. It never downloads:
  when they are missing it warns once and behaves as a ``LocalReranker``.

Both return copies of the documents with ``metadata["rerank_score"]`` and work as LangChain
``BaseDocumentCompressor``s (``compress_documents``) and inside ``RerankRetriever``.

Simplification: BM25 statistics (idf, average length) come from the candidate list, not the corpus.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict, PrivateAttr

from ragkit.core.bm25 import LuceneIdfBM25
from ragkit.core.embeddings import embed, embed_query, load_embedder
from ragkit.core.hybrid import min_max
from ragkit.core.nlp import clean_query, split_sentences, tokenize
from ragkit.core.search import Scored, ScoredRetriever, as_scored_search, check_k, with_score
from ragkit.defaults import RETRIEVAL

FEATURES = ("sentence", "passage", "bm25", "first_stage")
DEFAULT_WEIGHTS = dict(RETRIEVAL.rerank_weights)


def scale_columns(raw: np.ndarray) -> np.ndarray:
    """Min-max scale each column to [0, 1] (a constant column becomes all ones).

    >>> scale_columns(np.array([[1.0, 5.0], [3.0, 5.0]])).tolist()
    [[0.0, 1.0], [1.0, 1.0]]
    """
    return np.array([min_max(list(column)) for column in raw.T], dtype=np.float64).T.reshape(raw.shape)


class Reranker(BaseDocumentCompressor):
    """Interface: ``scores(query, docs)``; ``rerank`` and ``compress_documents`` are built on it."""

    top_n: int = 4

    @abstractmethod
    def scores(self, query: str, docs: Sequence[Document]) -> np.ndarray:
        """One relevance score per document (higher is better), in the input order."""

    def rerank_with_scores(self, query: str, docs: Sequence[Document], top_n: int | None = None) -> Scored:
        """The ``top_n`` documents (the stored objects) with their scores, best first; ties keep input order."""
        query = clean_query(query)
        top_n = check_k(self.top_n if top_n is None else top_n, "top_n")
        docs = list(docs)
        if not docs:
            return []
        scores = self.scores(query, docs)
        order = np.argsort(-scores, kind="stable")[:top_n]
        return [(docs[i], float(scores[i])) for i in order]

    def rerank(self, query: str, docs: Sequence[Document], top_n: int | None = None) -> list[Document]:
        """The ``top_n`` best documents, as copies with ``metadata["rerank_score"]``."""
        return [with_score(d, s, "rerank_score") for d, s in self.rerank_with_scores(query, docs, top_n)]

    def compress_documents(self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None) -> Sequence[Document]:
        return self.rerank(query, documents, self.top_n)


class LocalReranker(Reranker):
    """Offline reranker: weighted mix of best-sentence cosine, passage cosine, BM25 and first-stage order.

    >>> docs = [Document("Wine is made from grapes. Oysters live in the sea."), Document("Tea is a drink.")]
    >>> LocalReranker().rerank("Where do oysters live?", docs, top_n=1)[0].page_content  # doctest: +SKIP
    'Wine is made from grapes. Oysters live in the sea.'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    embeddings: Embeddings | None = None
    weights: dict[str, float] = dict(DEFAULT_WEIGHTS)

    def model_post_init(self, __context: Any) -> None:
        unknown = set(self.weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown LocalReranker weight(s) {sorted(unknown)}; known: {list(FEATURES)}")

    def features(self, query: str, docs: Sequence[Document]) -> np.ndarray:
        """An ``(n_docs, 4)`` array of the signals in ``FEATURES`` order, each min-max scaled over ``docs``."""
        return scale_columns(self.raw_features(query, docs))

    def raw_features(self, query: str, docs: Sequence[Document]) -> np.ndarray:
        """The signals before scaling: cosines, BM25 over the candidates, and ``n - position``."""
        embeddings = self.embeddings or load_embedder()
        texts = [d.page_content for d in docs]
        # sentence vectors cost ~10 model calls per passage, so only when the sentence signal has a weight
        use_sentences = self.weights.get("sentence", 0.0) != 0.0
        sentences = [split_sentences(t) or [t] for t in texts] if use_sentences else [[] for _ in texts]
        flat = [s for group in sentences for s in group]
        q = embed_query(embeddings, query)[0]  # the query is new: never from the cache
        vectors = embed(embeddings, [*texts, *flat])
        passages, sent_vecs = vectors[: len(texts)], vectors[len(texts) :]
        sent_sims, best_sentence, start = sent_vecs @ q, [], 0
        for group in sentences:
            best_sentence.append(float(sent_sims[start : start + len(group)].max()) if group else 0.0)
            start += len(group)
        bm25 = LuceneIdfBM25([tokenize(t) or ["\u2205"] for t in texts]).get_scores(tokenize(query))
        first_stage = [float(len(docs) - i) for i in range(len(docs))]
        return np.array([best_sentence, (passages @ q).tolist(), list(bm25), first_stage], dtype=np.float64).T

    def scores(self, query: str, docs: Sequence[Document]) -> np.ndarray:
        weights = np.array([self.weights.get(name, 0.0) for name in FEATURES])
        return self.features(query, docs) @ weights


class CrossEncoderReranker(Reranker):
    """A sentence-transformers CrossEncoder if its weights are local; otherwise a LocalReranker, with a warning.

    ``backend`` tells which one is in use: ``"cross-encoder"`` or ``"local"``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    fallback: LocalReranker | None = None
    backend: str = "cross-encoder"
    _model: Any = PrivateAttr(default=None)

    def model_post_init(self, __context: Any) -> None:
        from sentence_transformers import CrossEncoder

        try:  # local_files_only: never reach for the network, fail fast instead
            self._model = CrossEncoder(self.model_name, local_files_only=True, device="cpu")
        except (OSError, ValueError) as err:
            warnings.warn(
                f"CrossEncoderReranker: weights for {self.model_name!r} are not on this machine "
                f"({type(err).__name__}); using LocalReranker instead (nothing was downloaded).",
                RuntimeWarning,
                stacklevel=4,  # point at the caller's CrossEncoderReranker(...) line, not pydantic
            )
            self.backend = "local"
            if self.fallback is None:
                self.fallback = LocalReranker(top_n=self.top_n)

    def scores(self, query: str, docs: Sequence[Document]) -> np.ndarray:
        if self._model is None:
            return self.fallback.scores(query, docs)
        pairs = [(query, d.page_content) for d in docs]
        return np.asarray(self._model.predict(pairs, show_progress_bar=False), dtype=np.float64).reshape(len(docs))


class RerankRetriever(ScoredRetriever):
    """Fetch ``fetch_k`` candidates from ``base`` (any scored search, or anything the adapter takes),
    rerank them, keep the best ``k``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base: Any
    reranker: Reranker
    fetch_k: int = RETRIEVAL.rerank_depth

    def model_post_init(self, __context: Any) -> None:
        self.base = as_scored_search(self.base, k=self.fetch_k)

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        candidates = [doc for doc, _ in self.base.search_with_scores(query, max(k, check_k(self.fetch_k, "fetch_k")))]
        return self.reranker.rerank_with_scores(query, candidates, k)
