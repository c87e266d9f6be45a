"""Offline answer and context metrics for golden-set replay (no model needed).

- **context precision / recall by reference ids**: RAGAS's ID-based definitions. Precision is the share of
  the retrieved context ids that are reference ids; recall the share of reference ids that were retrieved.
- **answer correctness**: SQuAD-style exact match and token F1 of the answer against the reference answer
  (lower-cased, punctuation and articles removed, citation markers dropped).
- **faithfulness**: whether the local hallucination grader finds the answer grounded in the contexts it
  was written from (1.0 grounded, 0.0 not), and **refused**: whether the answer is an explicit refusal.

>>> token_f1("The Eiffel tower [1].", "the eiffel tower"), exact_match("Paris!", "paris")
(1.0, 1.0)
>>> context_precision(["HB-01", "HB-07"], ["HB-07"]), context_recall(["HB-01", "HB-07"], ["HB-07", "HB-09"])
(0.5, 0.5)

Simplifications: token F1 rewards shared words, so a long answer that contains the reference scores lower
than a short one; a refusal scored against a reference refusal ("the handbook does not say") gets little F1,
so unanswerable questions are judged by ``refused`` instead.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

_CITATION = re.compile(r"\[\d+(?:\s*[,;-]\s*\d+)*\]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalise_answer(text: str) -> str:
    """SQuAD's normalisation, plus citation markers removed.

    >>> normalise_answer("The Harbour-fish soup [2]!")
    'harbourfish soup'
    """
    text = _CITATION.sub(" ", text.lower())
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(answer: str, reference: str) -> float:
    return float(normalise_answer(answer) == normalise_answer(reference))


def token_f1(answer: str, reference: str) -> float:
    """Harmonic mean of token precision and recall after normalisation (SQuAD's F1)."""
    said, gold = normalise_answer(answer).split(), normalise_answer(reference).split()
    common = sum((Counter(said) & Counter(gold)).values())
    if not said or not gold or not common:
        return float(said == gold)
    precision, recall = common / len(said), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def context_precision(retrieved_ids: Sequence[str], reference_ids: Sequence[str]) -> float | None:
    """Share of retrieved ids that are reference ids (None when nothing was retrieved)."""
    if not retrieved_ids:
        return None
    reference = set(reference_ids)
    return sum(i in reference for i in retrieved_ids) / len(retrieved_ids)


def context_recall(retrieved_ids: Sequence[str], reference_ids: Sequence[str]) -> float | None:
    """Share of reference ids that were retrieved (None when there are no reference ids)."""
    if not reference_ids:
        return None
    retrieved = set(retrieved_ids)
    return sum(i in retrieved for i in reference_ids) / len(reference_ids)


__all__ = ["context_precision", "context_recall", "exact_match", "normalise_answer", "token_f1"]
