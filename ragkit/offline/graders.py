"""Two offline graders: is this document relevant to the question, and does this answer resolve it?

``LocalGrader`` is a small calibrated classifier: logistic regression over three features of a (question,
document) pair, ``cosine`` (MiniLM similarity to the whole document), ``best_sentence`` (to its closest
sentence, so a long document with one relevant sentence still scores) and ``coverage`` (the share of the
question's stemmed key terms it has). The weights and threshold are in :data:`ragkit.defaults.GRADER`;
the threshold favours recall, because a relevant document wrongly dropped costs a rewrite while a
marginal one wrongly kept is still checked downstream. ``fit`` refits it on your labelled pairs.

``LocalAnswerGrader`` says an answer is useful when it is not a refusal, says something the question did
not (unless it is a yes/no question: "HyDE." does not answer "What is HyDE?"), has what the question's
type asks for (:func:`ragkit.core.nlp.answer_type`: "how much" needs a number, "when" a date, "who" a
name), and is about the question (``w * cosine + (1 - w) * coverage`` reaches ``bar``).

What they cannot do: three features and a linear model, no IDF (a question verb like "goes" counts as
much as "oysters"); refit or move the threshold on another collection. The answer grader reads question
words (English only), has no check for "where" and "why", and takes any number for "how much", even the
wrong one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_answer, check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    answer_type,
    clean_query,
    has_answer,
    names_symbol,
    numbers,
    split_sentences,
    strip_citations,
    symbols,
    term_coverage,
    tokenize,
)
from ragkit.defaults import GRADER, VERIFIER
from ragkit.roles.protocols import Grade, Usefulness, declines

FEATURES = ("cosine", "best_sentence", "coverage")


# ---------------------------------------------------------------- document relevance
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

    def fit(self, X: np.ndarray, y: np.ndarray, l2: float = 1e-2,
            recall_target: float | None = GRADER.recall_target) -> "LocalGrader":
        """Refit the weights on labelled feature rows (from ``features``), then the threshold, which keeps
        ``recall_target`` of the relevant rows (``None``: the F1-best threshold)."""
        self.weights, self.bias = fit_logistic(X, y, l2=l2)
        p, y = self.probability(X), np.asarray(y)
        self.threshold = best_f1_threshold(p, y) if recall_target is None else threshold_for_recall(p, y, recall_target)
        return self


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1e-2, iterations: int = 50) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method; returns ``(weights, bias)``.

    >>> w, b = fit_logistic(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    >>> bool(w[0] > 0), bool(b < 0)
    (True, True)
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    A = np.hstack([X, np.ones((len(X), 1))])
    theta = np.zeros(A.shape[1])
    reg = l2 * np.eye(A.shape[1])
    reg[-1, -1] = 0.0  # the bias is not penalised
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(A @ theta)))
        step = np.linalg.solve((A * (p * (1 - p))[:, None]).T @ A + reg, A.T @ (p - y) + reg @ theta)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def threshold_for_recall(scores: np.ndarray, labels: np.ndarray, target: float) -> float:
    """The highest score threshold that still keeps at least ``target`` of the relevant pairs.

    >>> threshold_for_recall(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 0, 1, 0]), 1.0)
    0.3
    """
    positives = np.sort(np.asarray(scores)[np.asarray(labels) == 1])[::-1]
    if len(positives) == 0:
        raise ValueError("no relevant pairs: cannot pick a threshold for a recall target")
    return float(positives[max(1, int(np.ceil(target * len(positives)))) - 1])


def best_f1_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """The score threshold that maximises F1 (ties: the higher threshold).

    >>> best_f1_threshold(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 1, 0, 0]))
    0.8
    """
    best, best_f1 = 0.5, -1.0
    for t in sorted(set(np.round(scores, 6).tolist()), reverse=True):
        predicted = scores >= t
        f1 = 2 * float((predicted & (labels == 1)).sum()) / max(predicted.sum() + (labels == 1).sum(), 1)
        if f1 > best_f1:
            best, best_f1 = t, f1
    return float(best)


# ---------------------------------------------------------------- answer usefulness
def new_terms(question: str, answer: str) -> list[str]:
    """Words (stemmed, stopwords dropped) and numbers of the answer that the question does not contain.

    >>> new_terms("What is HyDE?", "HyDE [1]"), new_terms("What is HyDE?", "HyDE embeds a fake answer [1].")
    ([], ['emb', 'fake', 'answer'])
    >>> new_terms("How many legs does a spider have?", "8.")
    ['8']
    """
    asked = set(tokenize(question, frozenset())) | numbers(question)
    said = dict.fromkeys([*tokenize(strip_citations(answer)), *sorted(numbers(answer))])
    return [t for t in said if t not in asked]


class LocalAnswerGrader:
    """Useful = not a refusal, says something new, has what the question type needs, and is on the question.

    >>> grader = LocalAnswerGrader()  # doctest: +SKIP
    >>> grader.grade("How much are the oysters?", "Oysters are served raw.").useful  # doctest: +SKIP
    False
    """

    def __init__(self, embedder: Embeddings | None = None, bar: float = VERIFIER.answer_bar,
                 similarity_weight: float = VERIFIER.answer_similarity_weight):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.bar, self.similarity_weight = bar, similarity_weight

    def grade(self, question: str, answer: str) -> Usefulness:
        question, answer = clean_query(question, what="question"), check_answer(answer)
        if declines(answer):
            return Usefulness(False, 0.0, "the answer is a refusal")
        kind = answer_type(question)
        if kind != "yes/no" and not new_terms(question, answer):
            return Usefulness(False, 0.0, "the answer only repeats words of the question")
        said = strip_citations(answer)
        if not has_answer(kind, said, question):
            return Usefulness(False, 0.0, f"a {kind} question, but the answer has no {kind}")
        unnamed = [s for s in symbols(question) if not names_symbol(said, [s])]
        if unnamed:
            return Usefulness(False, 0.0, f"the question asks about {unnamed[0]!r}, but the answer never names it")
        q, a = embed(self.embedder, [question, said])
        cosine, coverage = float(q @ a), term_coverage(question, answer)
        relevance = self.similarity_weight * cosine + (1 - self.similarity_weight) * coverage
        note = f"{kind} question; cosine {cosine:.2f}, key-term coverage {coverage:.2f}"
        return Usefulness(relevance >= self.bar, round(relevance, 4), note)


__all__ = ["FEATURES", "LocalAnswerGrader", "LocalGrader", "best_f1_threshold", "fit_logistic", "new_terms",
           "threshold_for_recall"]
