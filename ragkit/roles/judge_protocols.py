"""The judge's contract (CRAG, and the supervisor's search through it): one of four verdicts on the
documents retrieved for a question, the check of a judge's output, and the fail-soft default a judge
takes when it cannot judge.

Its implementations: :class:`ragkit.offline.judge.LocalJudge` and :class:`ragkit.roles.llm_judge.LLMJudge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, get_args, runtime_checkable

from langchain_core.documents import Document

Verdict = Literal["sufficient", "insufficient", "ambiguous", "irrelevant"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)


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


def valid_judgement(j: object, n_candidates: int) -> str | None:
    """Why a judge's output cannot be used (wrong type, unknown verdict, bad indexes), or None if it can.

    >>> valid_judgement(Judgement("sufficient", keep=(2,)), n_candidates=2)
    'keep (2,) is not a list of indexes into 2 candidates'
    """
    if not isinstance(j, Judgement):
        return f"the judge returned a {type(j).__name__}, not a Judgement"
    if j.verdict not in VERDICTS:
        return f"unknown verdict {j.verdict!r}"
    if any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n_candidates for i in j.keep):
        return f"keep {j.keep!r} is not a list of indexes into {n_candidates} candidates"
    if j.verdict == "sufficient" and not j.keep and n_candidates:
        return "verdict 'sufficient' without any kept document"
    return None


@runtime_checkable
class Judge(Protocol):
    def judge(self, question: str, documents: Sequence[Document]) -> Judgement: ...


__all__ = ["VERDICTS", "Judge", "Judgement", "Verdict", "fail_soft", "valid_judgement"]
