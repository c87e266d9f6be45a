"""The role contracts: what each LLM role takes and returns, whatever implements it.

A role is a small interface with two kinds of implementation: a local one (offline, deterministic, built
from the MiniLM embedder and classic IR/NLP techniques) and an LLM one (a prompt plus structured output on
any LangChain chat model). Graph builders take roles as arguments, so a learner can swap one for the
other, or for a scripted fake in a test, without touching the graph.

Every result is a small frozen dataclass: decisions are ``bool`` or ``Literal`` values, never strings to
compare. ``note`` carries a short human-readable reason (for traces), and ``fallback`` is true when an LLM
role could not parse the model's output and took its documented safe default instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, Sequence, runtime_checkable

from langchain_core.documents import Document

NOT_ENOUGH_INFORMATION = "I don't have enough information in the provided documents to answer that."


# ---------------------------------------------------------------- router
@dataclass(frozen=True)
class RouteSpec:
    """One destination a router can choose, described the way a prompt would describe it."""

    name: str
    description: str
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteDecision:
    route: str
    confidence: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class Router(Protocol):
    routes: Sequence[RouteSpec]

    def route(self, question: str) -> RouteDecision: ...


# ---------------------------------------------------------------- document grader
@dataclass(frozen=True)
class Grade:
    relevant: bool
    score: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class DocumentGrader(Protocol):
    def grade(self, question: str, document: Document) -> Grade: ...

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]: ...


# ---------------------------------------------------------------- question rewriter
@runtime_checkable
class QuestionRewriter(Protocol):
    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str: ...


# ---------------------------------------------------------------- writer
@dataclass(frozen=True)
class Answer:
    """An answer with ``[n]`` citations; ``citations`` are 1-based indexes into the documents given."""

    text: str
    citations: tuple[int, ...] = ()
    answered: bool = True  # False for an explicit "not enough information"
    fallback: bool = False


@runtime_checkable
class Writer(Protocol):
    def write(self, question: str, documents: Sequence[Document]) -> Answer: ...


# ---------------------------------------------------------------- hallucination grader / verifier
@dataclass(frozen=True)
class Groundedness:
    grounded: bool
    unsupported: tuple[str, ...] = ()  # the answer sentences no source supports
    score: float = 1.0
    note: str = ""
    fallback: bool = False


@runtime_checkable
class HallucinationGrader(Protocol):
    def check(self, documents: Sequence[Document], answer: str) -> Groundedness: ...


# ---------------------------------------------------------------- answer grader
@dataclass(frozen=True)
class Usefulness:
    useful: bool
    score: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class AnswerGrader(Protocol):
    def grade(self, question: str, answer: str) -> Usefulness: ...


# ---------------------------------------------------------------- judge (CRAG)
Verdict = Literal["sufficient", "insufficient", "ambiguous", "irrelevant"]


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    keep: tuple[int, ...] = ()  # 0-based indexes of the documents that passed
    note: str = ""
    clarifying_question: str | None = None  # for "ambiguous"
    corrected_query: str | None = None  # for "insufficient"
    fallback: bool = False  # the judge failed and the fail-soft default was used


@runtime_checkable
class Judge(Protocol):
    def judge(self, question: str, documents: Sequence[Document]) -> Judgement: ...


__all__ = [
    "NOT_ENOUGH_INFORMATION",
    "Answer",
    "AnswerGrader",
    "DocumentGrader",
    "Grade",
    "Groundedness",
    "HallucinationGrader",
    "Judge",
    "Judgement",
    "QuestionRewriter",
    "RouteDecision",
    "RouteSpec",
    "Router",
    "Usefulness",
    "Verdict",
    "Writer",
]
