"""An offline document grader: is this document relevant to the question?

``LocalGrader`` is logistic regression over three features of a (question, document) pair: ``cosine``
(MiniLM similarity to the whole document), ``best_sentence`` (to its closest sentence, so a long document
with one relevant sentence still scores) and ``coverage`` (the share of the question's key terms it has).
Its threshold (:data:`ragkit.defaults.GRADER`) favours recall: a relevant document wrongly dropped costs a
rewrite, a marginal one wrongly kept is still checked downstream. :func:`ragkit.evaluation.tuning.fit_grader`
refits it on your labelled pairs.

What it cannot do: three features and a linear model, no IDF (a question verb like "goes" counts as
much as "oysters"); refit or move the threshold on another collection.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import clean_query, split_sentences, term_coverage
from ragkit.defaults import GRADER
from ragkit.roles.protocols import Grade

FEATURES = ("cosine", "best_sentence", "coverage")


class LocalGrader:
    """Relevance as a logistic mix of document cosine, best-sentence cosine and key-term coverage.

    >>> grader = LocalGrader()  # doctest: +SKIP
    >>> grader.grade("Is the soup vegan?", Document(page_content="Tomato soup, vegan, 7 euros.")).relevant  # doctest: +SKIP
    True
    """

    def __init__(self, embedder: Embeddings | None = None, weights: Sequence[float] = GRADER.weights,
                 bias: float = GRADER.bias, threshold: float = GRADER.threshold):
        if len(weights) != len(FEATURES):
            raise ValueError(f"weights must have {len(FEATURES)} values ({', '.join(FEATURES)}), got {len(weights)}")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.weights, self.bias, self.threshold = np.asarray(weights, dtype=np.float64), float(bias), float(threshold)

    def features(self, question: str, documents: Sequence[Document]) -> np.ndarray:
        """The ``(n, 3)`` feature matrix for one question and n documents, embedded in one batch."""
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return np.zeros((0, len(FEATURES)))
        sentences = [split_sentences(d.page_content) or [d.page_content] for d in documents]
        flat = [s for group in sentences for s in group]
        vectors = embed(self.embedder, [question] + [d.page_content for d in documents] + flat)
        q, docs, sents = vectors[0], vectors[1 : 1 + len(documents)], vectors[1 + len(documents) :]
        sims = sents @ q
        rows, start = [], 0
        for doc, doc_vec, group in zip(documents, docs, sentences):
            best = float(sims[start : start + len(group)].max())
            start += len(group)
            rows.append([float(doc_vec @ q), best, term_coverage(question, doc.page_content)])
        return np.asarray(rows)

    def probability(self, X: np.ndarray) -> np.ndarray:
        """Calibrated probability of relevance for feature rows."""
        return 1.0 / (1.0 + np.exp(-(np.asarray(X) @ self.weights + self.bias)))

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        X = self.features(question, documents)
        notes = [", ".join(f"{name} {value:.2f}" for name, value in zip(FEATURES, row)) for row in X]
        return [Grade(bool(p >= self.threshold), round(float(p), 4), note) for p, note in zip(self.probability(X), notes)]

    def grade(self, question: str, document: Document) -> Grade:
        return self.grade_many(question, [document])[0]


__all__ = ["FEATURES", "LocalGrader"]
