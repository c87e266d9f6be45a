"""Keyword retrieval with BM25 (rank-bm25), using ragkit's analyzer: lower-case, Lucene stopwords, Porter.

BM25 scores a document by how often it contains each query term (saturating through ``k1``), discounted
for long documents (``b``) and weighted by how rare the term is (idf). rank-bm25's ``BM25Okapi`` does the
counting; we swap its idf for Lucene's ``log(1 + (N - n + 0.5) / (n + 0.5))``, which is never negative,
so tiny corpora (a workshop's three documents) still rank sensibly.

Simplifications: the whole index lives in memory and every query scores every document (fine up to a
few hundred thousand short documents); ``save`` stores the documents and parameters, and ``load``
re-tokenizes them (a second or two for SciFact) instead of storing the term statistics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.documents import Document
from pydantic import ConfigDict, PrivateAttr
from rank_bm25 import BM25Okapi

from ragkit.core.files import (
    FORMAT_VERSION,
    atomic_directory,
    read_config,
    read_documents,
    write_documents,
    write_json,
)
from ragkit.core.nlp import tokenize
from ragkit.core.search import Scored, ScoredRetriever, check_corpus
from ragkit.defaults import RETRIEVAL

# Tuned on the SciFact *train* split (ragkit.defaults; benchmarks/README.md); Lucene's are k1=1.2, b=0.75.
DEFAULT_K1 = RETRIEVAL.bm25_k1
DEFAULT_B = RETRIEVAL.bm25_b


def bm25_scores(idf: np.ndarray, tf: np.ndarray, doc_len: np.ndarray, avgdl: float, k1: float, b: float) -> np.ndarray:
    """The BM25 formula on arrays: ``sum_t idf_t * tf_td * (k1 + 1) / (tf_td + k1 * (1 - b + b * |d| / avgdl))``.

    ``idf`` has one entry per query term, ``tf`` is ``(terms, documents)``; returns one score per document.
    The tuner re-evaluates it for many (k1, b) pairs from term frequencies gathered once.

    >>> bm25_scores(np.array([1.0]), np.array([[1.0, 0.0]]), np.array([2.0, 2.0]), 2.0, k1=1.2, b=0.75).tolist()
    [1.0, 0.0]
    """
    if len(idf) == 0:
        return np.zeros(len(doc_len))
    norm = k1 * (1 - b + b * doc_len / avgdl)
    return (idf[:, None] * tf * (k1 + 1) / (tf + norm)).sum(axis=0)


class LuceneIdfBM25(BM25Okapi):
    """rank-bm25's Okapi BM25 with Lucene's always-positive idf.

    >>> bm = LuceneIdfBM25([["red", "wine"], ["white", "wine"]])
    >>> round(bm.idf["red"], 3), round(bm.idf["wine"], 3)
    (0.693, 0.182)
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1.0 + (self.corpus_size - freq + 0.5) / (freq + 0.5))
        self.average_idf = sum(self.idf.values()) / max(len(self.idf), 1)


class BM25Retriever(ScoredRetriever):
    """BM25 over a list of documents. Documents sharing no term with the query are not returned.

    >>> docs = [Document("Red wine goes with steak"), Document("White wine goes with fish")]
    >>> r = BM25Retriever.from_documents(docs, k=1)
    >>> r.invoke("fish")[0].page_content
    'White wine goes with fish'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    docs: list[Document]
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B
    tokenizer: Callable[[str], list[str]] = tokenize
    _index: LuceneIdfBM25 = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        self.docs = check_corpus(self.docs, "BM25Retriever")
        if self.k1 < 0 or not 0.0 <= self.b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")
        tokens = [self.tokenizer(doc.page_content) for doc in self.docs]
        if not any(tokens):
            raise ValueError("BM25Retriever: no document contains an indexable word (all are empty or stopwords)")
        self._index = LuceneIdfBM25(tokens, k1=self.k1, b=self.b)

    @classmethod
    def from_documents(cls, docs: Sequence[Document], **kwargs: Any) -> BM25Retriever:
        """Build the index (``k1``, ``b``, ``k`` and ``tokenizer`` may be passed as keywords)."""
        return cls(docs=list(docs), **kwargs)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (an array as long as the corpus)."""
        return np.asarray(self._index.get_scores(self.tokenizer(query)), dtype=np.float64)

    @property
    def idf(self) -> dict[str, float]:
        """Lucene idf of every indexed term (stemmed), e.g. for rare-term features of a query."""
        return dict(self._index.idf)

    @property
    def doc_lengths(self) -> np.ndarray:
        """Number of indexed terms in each document."""
        return np.asarray(self._index.doc_len, dtype=np.float64)

    @property
    def average_length(self) -> float:
        return float(self._index.avgdl)

    def term_matrix(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """``(idf, tf)`` for the query's indexed terms: idf per term, tf as a ``(terms, documents)`` array.

        With :func:`bm25_scores` this reproduces :meth:`scores` for any k1 and b, without re-indexing.
        """
        terms = [t for t in self.tokenizer(query) if t in self._index.idf]
        tf = np.array([[doc.get(t, 0) for doc in self._index.doc_freqs] for t in terms], dtype=np.float64)
        return np.array([self._index.idf[t] for t in terms]), tf.reshape(len(terms), len(self.docs))

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        scores = self.scores(query)
        order = np.argsort(-scores, kind="stable")[:k]  # stable: ties keep corpus order
        return [(self.docs[i], float(scores[i])) for i in order if scores[i] > 0]

    def save(self, path: str | Path) -> None:
        """Save documents and parameters atomically to the folder ``path``."""
        with atomic_directory(path) as tmp:
            write_documents(tmp / "docs.jsonl", self.docs)
            write_json(tmp / "config.json", {"kind": "bm25", "format_version": FORMAT_VERSION, "k1": self.k1, "b": self.b, "k": self.k})

    @classmethod
    def load(cls, path: str | Path, **overrides: Any) -> BM25Retriever:
        """Load an index saved by ``save``; keywords (``k``, ``tokenizer``...) override saved values."""
        config = read_config(path, "bm25")
        params = {"k1": config["k1"], "b": config["b"], "k": config["k"], **overrides}
        return cls(docs=read_documents(Path(path) / "docs.jsonl"), **params)
