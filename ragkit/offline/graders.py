"""Two offline graders: is this document relevant to the question, and does this answer resolve it?

``LocalGrader`` is a small calibrated classifier: logistic regression over three features of a (question,
document) pair, ``cosine`` (MiniLM similarity to the whole document), ``best_sentence`` (to its closest
sentence, so a long document with one relevant sentence still scores) and ``coverage`` (the share of the
question's stemmed key terms it has). The weights and threshold are in :data:`ragkit.defaults.GRADER`;
the threshold favours recall, because a relevant document wrongly dropped costs a rewrite while a
marginal one wrongly kept is still checked downstream. :func:`ragkit.evaluation.tuning.fit_grader` refits it on your
labelled pairs.

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


__all__ = ["FEATURES", "LocalAnswerGrader", "LocalGrader", "new_terms"]
