"""The offline answer grader (Self-RAG): does this answer resolve the question?

``LocalAnswerGrader`` says an answer is useful when it is not a refusal, says something the question did
not (unless it is a yes/no question: "HyDE." does not answer "What is HyDE?"), has what the question's
type asks for (:func:`ragkit.core.nlp.answer_type`: "how much" needs a number, "when" a date, "who" a
name), and is about the question (``w * cosine + (1 - w) * coverage`` reaches ``bar``).

What it cannot do: it reads question words (English only), has no check for "where" and "why", and takes
any number for "how much", even the wrong one.
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_answer
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    answer_type,
    clean_query,
    has_answer,
    names_symbol,
    numbers,
    strip_citations,
    symbols,
    term_coverage,
    tokenize,
)
from ragkit.defaults import VERIFIER
from ragkit.roles.answer_grader_protocols import Usefulness, declines


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


__all__ = ["LocalAnswerGrader", "new_terms"]
