"""Keyword retrieval with BM25, using ragkit's analyzer: lower-case, Lucene stopwords, Porter.

BM25 scores a document by how often it contains each query term (saturating through ``k1``), discounted
for long documents (``b``) and weighted by how rare the term is (idf). We use Lucene's idf,
``log(1 + (N - n + 0.5) / (n + 0.5))``, which is never negative, so tiny corpora (a workshop's three
documents) still rank sensibly. Two backends compute the same scores:

- ``"bm25s"`` (the default, faster at every size in ``benchmarks/scale/README.md``): ``bm25s`` stores every
  document's term score in a sparse matrix, so a query only touches the documents that contain its terms;
  :class:`SparseBM25` gives it rank-bm25's interface;
- ``"rank_bm25"``: rank-bm25's ``BM25Okapi`` (:class:`LuceneIdfBM25`), which loops over every document in
  Python for every query term: the readable from-scratch version notebook 01 compares with.

Simplifications: the whole index lives in memory; ``save`` stores the documents and parameters, and
``load`` re-tokenizes them (a second or two for SciFact) instead of storing the term statistics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from langchain_core.documents import Document
from pydantic import ConfigDict, PrivateAttr
from rank_bm25 import BM25Okapi

from ragkit.core.nlp import tokenize
from ragkit.core.saved_index import (
    FORMAT_VERSION,
    atomic_directory,
    read_config,
    read_documents,
    write_documents,
    write_json,
)
from ragkit.core.search import Scored, ScoredRetriever, check_corpus
from ragkit.defaults import RETRIEVAL

DEFAULT_K1 = RETRIEVAL.bm25_k1  # the tuned values (ragkit.defaults); Lucene's are k1=1.2, b=0.75
DEFAULT_B = RETRIEVAL.bm25_b
Backend = Literal["bm25s", "rank_bm25"]
DEFAULT_BACKEND: Backend = "bm25s"


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores, best first, ties in corpus order: a stable full sort's first ``k``.

    ``np.partition`` finds the k-th score in linear time, so only the documents at or above it are sorted.

    >>> top_k(np.array([0.5, 2.0, 0.5, 1.0, 0.5]), 3).tolist()
    [1, 3, 0]
    """
    if k >= len(scores):
        return np.argsort(-scores, kind="stable")
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    candidates = np.flatnonzero(scores >= kth)
    return candidates[np.argsort(-scores[candidates], kind="stable")][:k]


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


class SparseBM25:
    """Lucene-idf BM25 on a ``bm25s`` sparse index, with the part of rank-bm25's interface ragkit reads.

    Scores equal :class:`LuceneIdfBM25`'s: bm25s's ``"lucene"`` method leaves out the constant factor
    ``k1 + 1``, which is multiplied back in. Tokens become ids document by document, so the corpus is
    never held as lists of strings.

    >>> bm = SparseBM25([["red", "wine"], ["white", "wine"]])
    >>> [round(float(x), 3) for x in bm.get_scores(["red", "wine"])], round(bm.idf["wine"], 3)
    ([0.875, 0.182], 0.182)
    """

    def __init__(self, corpus: Iterable[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        import bm25s

        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(token, len(vocab)) for token in doc] for doc in corpus]
        self.k1, self.b, self.corpus_size = k1, b, len(ids)
        self.doc_len = np.array([len(doc) for doc in ids], dtype=np.float64)
        self.avgdl = float(self.doc_len.mean())
        self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene", dtype="float64")
        self._bm25.index((ids, vocab), create_empty_token=False, show_progress=False)
        df = np.diff(self._bm25.scores["indptr"])  # a column's stored scores: the documents holding the term
        idf = np.log(1.0 + (len(ids) - df + 0.5) / (df + 0.5))
        self.idf = {term: float(idf[i]) for term, i in vocab.items()}

    def get_scores(self, query: list[str]) -> np.ndarray:
        """BM25 score of every document (an array as long as the corpus)."""
        ids = self._bm25.get_tokens_ids(query)
        if not ids:
            return np.zeros(self.corpus_size)
        return self._bm25.get_scores_from_ids(ids) * (self.k1 + 1)

    def term_frequencies(self, term: str) -> np.ndarray:
        """How often ``term`` occurs in each document, recovered exactly from the stored scores.

        A stored score is ``idf * tf / (tf + k1 * norm)``, so ``tf = score * k1 * norm / (idf - score)``,
        rounded to the integer it is (float64 keeps the error near 1e-12). With ``k1 = 0`` the score does
        not depend on tf, so there is nothing to recover.
        """
        if self.k1 == 0:
            raise ValueError("term frequencies cannot be recovered from a k1=0 index: use backend='rank_bm25'")
        tf = np.zeros(self.corpus_size)
        column = self._bm25.vocab_dict.get(term)
        if column is not None:
            start, end = self._bm25.scores["indptr"][column : column + 2]
            rows, stored = self._bm25.scores["indices"][start:end], self._bm25.scores["data"][start:end]
            norm = 1 - self.b + self.b * self.doc_len[rows] / self.avgdl
            tf[rows] = np.rint(stored * self.k1 * norm / (self.idf[term] - stored))
        return tf


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
    backend: Backend = DEFAULT_BACKEND
    _index: LuceneIdfBM25 | SparseBM25 = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        self.docs = check_corpus(self.docs, "BM25Retriever")
        if self.k1 < 0 or not 0.0 <= self.b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")
        tokens = (self.tokenizer(doc.page_content) for doc in self.docs)
        self._index = SparseBM25(tokens, self.k1, self.b) if self.backend == "bm25s" else LuceneIdfBM25(list(tokens), k1=self.k1, b=self.b)
        if not self._index.avgdl:
            raise ValueError("BM25Retriever: no document contains an indexable word (all are empty or stopwords)")

    @classmethod
    def from_documents(cls, docs: Sequence[Document], **kwargs: Any) -> BM25Retriever:
        """Build the index (``k1``, ``b``, ``k``, ``tokenizer`` and ``backend`` may be passed as keywords)."""
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

        With :func:`ragkit.evaluation.tuning.bm25_scores` this reproduces :meth:`scores` for any k1 and b,
        without re-indexing.
        """
        terms = [t for t in self.tokenizer(query) if t in self._index.idf]
        if isinstance(self._index, SparseBM25):
            tf = np.array([self._index.term_frequencies(t) for t in terms], dtype=np.float64)
        else:
            tf = np.array([[doc.get(t, 0) for doc in self._index.doc_freqs] for t in terms], dtype=np.float64)
        return np.array([self._index.idf[t] for t in terms]), tf.reshape(len(terms), len(self.docs))

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        scores = self.scores(query)
        order = top_k(scores, k)  # ties keep corpus order
        return [(self.docs[i], float(scores[i])) for i in order if scores[i] > 0]

    def save(self, path: str | Path) -> None:
        """Save documents and parameters atomically to the folder ``path``."""
        with atomic_directory(path) as tmp:
            write_documents(tmp / "docs.jsonl", self.docs)
            write_json(tmp / "config.json", {"kind": "bm25", "format_version": FORMAT_VERSION, "k1": self.k1, "b": self.b,
                                             "k": self.k, "backend": self.backend})

    @classmethod
    def load(cls, path: str | Path, **overrides: Any) -> BM25Retriever:
        """Load an index saved by ``save``; keywords (``k``, ``tokenizer``...) override saved values."""
        config = read_config(path, "bm25")
        params = {"k1": config["k1"], "b": config["b"], "k": config["k"], "backend": config.get("backend", DEFAULT_BACKEND), **overrides}
        return cls(docs=read_documents(Path(path) / "docs.jsonl"), **params)
