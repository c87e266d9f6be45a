"""Document graders: is this retrieved document relevant to the question?

``LocalGrader`` is a small calibrated classifier. For each (question, document) pair it measures three
things and mixes them with logistic regression:

1. ``cosine``: MiniLM similarity of the question to the whole document,
2. ``best_sentence``: the similarity of the question to the document's closest sentence (a long document
   with one relevant sentence scores low on 1 but high on 2),
3. ``coverage``: the share of the question's key terms (stemmed) that appear in the document.

The weights and the decision threshold were fitted on SciFact TRAIN pairs (each train claim with its top
10 retrieved abstracts, relevant = cited in the qrels) by ``benchmarks/roles/grader_scifact.py``; the
script prints the values pasted below. ``LocalGrader.fit`` refits them on your own labelled pairs.
The threshold is set to keep 80% of the relevant TRAIN pairs (see ``RECALL_TARGET``), not at the F1 best:
SciFact calls an abstract relevant only when it is cited as evidence for the claim, a much stricter notion
than "helps answer the question", and its F1-best threshold rejects plainly useful documents.

Simplifications: three features and a linear model, no IDF weighting of the key terms (so a question
verb like "goes" counts as much as "oysters"). On other collections refit, or move ``threshold``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import clean_query, split_sentences, term_coverage
from ragkit.defaults import GRADER
from ragkit.roles.base import Grade
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import GRADER_PROMPT, MAX_PROMPT_DOCUMENT_CHARS

FEATURES = ("cosine", "best_sentence", "coverage")
# The grader's job in the graphs is "to filter out erroneous retrievals" (the Adaptive RAG prompt), so the
# threshold keeps 80% of the truly relevant TRAIN pairs rather than maximising F1: a relevant document
# wrongly dropped costs a rewrite or a web search and loses evidence, a marginal one wrongly kept is
# still checked by the writer's support bar and the hallucination grader.
RECALL_TARGET = GRADER.recall_target
# Fitted on SciFact TRAIN by benchmarks/roles/grader_scifact.py (see benchmarks/results/roles_grader.json);
# recorded in ragkit.defaults.GRADER.
DEFAULT_WEIGHTS = GRADER.weights
DEFAULT_BIAS = GRADER.bias
DEFAULT_THRESHOLD = GRADER.threshold  # keeps 80% of relevant TRAIN pairs; the F1-best TRAIN threshold is 0.33


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1e-2, iterations: int = 50) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method; returns ``(weights, bias)``.

    >>> w, b = fit_logistic(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    >>> bool(w[0] > 0), bool(b < 0)
    (True, True)
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    A = np.hstack([X, np.ones((len(X), 1))])
    theta = np.zeros(A.shape[1])
    reg = l2 * np.eye(A.shape[1])
    reg[-1, -1] = 0.0  # the bias is not penalised
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(A @ theta)))
        gradient = A.T @ (p - y) + reg @ theta
        hessian = (A * (p * (1 - p))[:, None]).T @ A + reg
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:-1], float(theta[-1])


class LocalGrader:
    """Relevance as a logistic mix of document cosine, best-sentence cosine and key-term coverage.

    >>> grader = LocalGrader()  # doctest: +SKIP
    >>> grader.grade("Is the soup vegan?", Document(page_content="Tomato soup, vegan, 7 euros.")).relevant  # doctest: +SKIP
    True
    """

    def __init__(
        self,
        embedder: Embeddings | None = None,
        weights: Sequence[float] = DEFAULT_WEIGHTS,
        bias: float = DEFAULT_BIAS,
        threshold: float = DEFAULT_THRESHOLD,
    ):
        if len(weights) != len(FEATURES):
            raise ValueError(f"weights must have {len(FEATURES)} values ({', '.join(FEATURES)}), got {len(weights)}")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.weights = np.asarray(weights, dtype=np.float64)
        self.bias = float(bias)
        self.threshold = float(threshold)

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
        grades = []
        for row, p in zip(X, self.probability(X)):
            note = ", ".join(f"{name} {value:.2f}" for name, value in zip(FEATURES, row))
            grades.append(Grade(bool(p >= self.threshold), round(float(p), 4), note))
        return grades

    def grade(self, question: str, document: Document) -> Grade:
        return self.grade_many(question, [document])[0]

    def fit(self, X: np.ndarray, y: np.ndarray, l2: float = 1e-2, recall_target: float | None = RECALL_TARGET) -> "LocalGrader":
        """Refit the weights on labelled feature rows (from ``features``), then the threshold.

        The threshold keeps ``recall_target`` of the relevant rows (``None``: the F1-best threshold).
        """
        self.weights, self.bias = fit_logistic(X, y, l2=l2)
        p, y = self.probability(X), np.asarray(y)
        self.threshold = best_f1_threshold(p, y) if recall_target is None else threshold_for_recall(p, y, recall_target)
        return self


def threshold_for_recall(scores: np.ndarray, labels: np.ndarray, target: float) -> float:
    """The highest score threshold that still keeps at least ``target`` of the relevant pairs.

    >>> threshold_for_recall(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 0, 1, 0]), 1.0)
    0.3
    """
    positives = np.sort(np.asarray(scores)[np.asarray(labels) == 1])[::-1]
    if len(positives) == 0:
        raise ValueError("no relevant pairs: cannot pick a threshold for a recall target")
    needed = max(1, int(np.ceil(target * len(positives))))
    return float(positives[needed - 1])


def best_f1_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """The score threshold that maximises F1 (ties: the higher threshold).

    >>> best_f1_threshold(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 1, 0, 0]))
    0.8
    """
    best, best_f1 = 0.5, -1.0
    for t in sorted(set(np.round(scores, 6).tolist()), reverse=True):
        predicted = scores >= t
        tp = float((predicted & (labels == 1)).sum())
        f1 = 2 * tp / max(predicted.sum() + (labels == 1).sum(), 1)
        if f1 > best_f1:
            best, best_f1 = t, f1
    return float(best)


class BinaryRelevance(BaseModel):
    """Is the document relevant to the question?"""

    relevant: bool = Field(description="true if the document contains keywords or meaning related to the question")


class LLMGrader:
    """A chat model grades relevance (a ``bool`` field). On failure the document is KEPT (relevant, fallback).

    Why keep it: dropping evidence because the grader failed would silently empty the context and send the
    graph to a rewrite or web search; keeping it lets the writer use it, and the hallucination grader
    (which fails closed) still checks the answer.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMGrader(scripted('{"relevant": false}')).grade("Is the soup vegan?", Document(page_content="Wine list."))
    Grade(relevant=False, score=0.0, note='', fallback=False)
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = GRADER_PROMPT):
        self.model = model
        self.prompt = prompt

    def grade(self, question: str, document: Document) -> Grade:
        question = clean_query(question, what="question")
        (document,) = check_documents([document], what="document")
        text = document.page_content[:MAX_PROMPT_DOCUMENT_CHARS]
        result = call_structured(self.model, self.prompt, BinaryRelevance, {"question": question, "document": text})
        if not result.ok:
            return Grade(True, 0.5, f"kept by default: {result.note}", fallback=True)
        return Grade(result.value.relevant, 1.0 if result.value.relevant else 0.0)

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        return [self.grade(question, d) for d in check_documents(documents)]
