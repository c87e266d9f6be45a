"""The judge's contract (CRAG, and the supervisor's search through it): one of four verdicts on the
documents retrieved for a question, and the fail-soft default a judge takes when it cannot judge.

Its implementations: :class:`ragkit.offline.judge.LocalJudge` and :class:`ragkit.roles.llm_judge.LLMJudge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from langchain_core.documents import Document

Verdict = Literal["sufficient", "insufficient", "ambiguous", "irrelevant"]


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    keep: tuple[int, ...] = ()  # 0-based indexes of the documents that passed
    note: str = ""
    clarifying_question: str | None = None  # for "ambiguous"
    corrected_query: str | None = None  # for "insufficient"
    fallback: bool = False  # the judge failed and the fail-soft default was used
    # the grader's best score among the kept documents (all of them when none is kept), read by CRAG's
    # refusal dial; None when the judge gives no score (an LLM judge)
    score: float | None = None


def fail_soft(documents: Sequence[Document], note: str, top: int = 3) -> Judgement:
    """A judge's safe default: keep the top ``top`` candidates as ``sufficient`` and flag ``fallback``.

    >>> fail_soft([Document("a"), Document("b")], "model call failed").keep
    (0, 1)
    """
    return Judgement("sufficient", keep=tuple(range(min(top, len(documents)))), note=f"fail-soft: {note}", fallback=True)


@runtime_checkable
class Judge(Protocol):
    def judge(self, question: str, documents: Sequence[Document]) -> Judgement: ...


__all__ = ["Judge", "Judgement", "Verdict", "fail_soft"]
