"""The answer grader's contract (Self-RAG): does an answer address and resolve the question? And
:func:`declines`, the refusal check both answer graders make first.

What it cannot do: an answer grader does not check that the answer is right (that it is grounded is the
hallucination grader's question, asked before this one); :func:`declines` knows a few English phrasings of
"I don't know", no others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ragkit.roles.protocols import is_refusal

_DECLINES = re.compile(
    r"\b(not enough information|don't know|do not know|cannot answer|can't answer|no information|unable to answer)\b",
    re.IGNORECASE)


def declines(answer: str) -> bool:
    """True for a refusal, or an answer that says in other words that it has no answer ("I don't know").

    >>> declines("Sorry, I don't know."), is_refusal("Sorry, I don't know.")
    (True, False)
    """
    return is_refusal(answer) or bool(_DECLINES.search(answer))


@dataclass(frozen=True)
class Usefulness:
    useful: bool
    score: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class AnswerGrader(Protocol):
    def grade(self, question: str, answer: str) -> Usefulness: ...


__all__ = ["AnswerGrader", "Usefulness", "declines"]
