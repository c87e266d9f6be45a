"""The statute QA graph's contracts: its two own roles (the question classifier and the evidence grader), and
what it must know about its statute, passed in as one object (the bundled Coastal Waters Act's:
``ragkit.domains.statute.domain.STATUTE``). The roles' implementations are in :mod:`ragkit.offline.question_classifier`,
:mod:`ragkit.offline.evidence` and :mod:`ragkit.roles.llm_analysis`.

The graph (:mod:`ragkit.graphs.statute_qa`) routes, hops, writes and verifies over any statute whose
articles carry ``metadata["article"]``; what it cannot know by itself is how that statute's text is cited,
which kinds of question it is asked and what the refusals say. :class:`StatuteDomain` holds those pieces,
and the graph calls them by name (``domain.paragraphs_of(articles)``); the statute's folder builds it once.

What it cannot do: the pieces are plain functions with no shared state, so a statute whose citations need
a context (the act being read, the last article named) must close over it in its own functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel

from ragkit.core.references import ReferenceIndex
from ragkit.roles.protocols import DocumentGrader, HallucinationGrader


# ---------------------------------------------------------------- question classifier
@dataclass(frozen=True)
class KindDecision:
    """A question's *kind* (which evidence it needs: a label of a domain's table), not its *form*
    (``bandit.contextual.question_form``) nor its *answer type* (``core.nlp.answer_type``); confidence is a score."""

    kind: str
    confidence: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class QuestionClassifier(Protocol):
    def classify(self, question: str) -> KindDecision: ...


# ---------------------------------------------------------------- evidence grader
EvidenceVerdict = Literal["sufficient", "short"]


@dataclass(frozen=True)
class EvidenceGrade:
    """The verdict on a set of documents; ``supporting`` are 0-based indexes of those that hold the answer."""

    verdict: EvidenceVerdict
    supporting: tuple[int, ...] = ()
    score: float = 0.0
    note: str = ""
    fallback: bool = False

    @property
    def sufficient(self) -> bool:
        return self.verdict == "sufficient"


@runtime_checkable
class EvidenceGrader(Protocol):
    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade: ...


# ---------------------------------------------------------------- the statute
Refusal = Literal["unanswerable", "no_such_article", "low_confidence", "unsupported", "search_failed", "language"]


@dataclass(frozen=True)
class CitationReport:
    """What verify found: the kept citations, the dropped ones (label and why), and the unsupported sentences."""

    valid: tuple[str, ...] = ()
    invalid: tuple[tuple[str, str], ...] = ()
    unsupported: tuple[str, ...] = ()
    blamed: tuple[str, ...] = ()  # ids of paragraphs that were cited but did not support their sentence
    supported: tuple[str, ...] = ()  # ids of paragraphs that were cited and supported their sentence

    @property
    def verified(self) -> bool:
        """Every sentence kept at least one citation that supports it."""
        return bool(self.valid) and not self.unsupported


@dataclass(frozen=True)
class StatuteDomain:
    """What the statute QA graph knows about its statute: the question kinds, the refusals, the roles that
    know the kinds, and how the statute is cited (see the module docstring).

    ``routing_table`` maps each searched kind (``routed_kinds``) to a strategy name; the question that cites
    an article takes ``citation_kind``, one the classifier calls ``refuse_kind`` is refused unsearched, a
    failing classifier means ``safe_kind``, and ``multihop_kind`` lowers the bar of the reference hop.
    ``refusals`` are the refusal texts, one per :data:`Refusal` plus ``closest`` and ``language_cited``
    (format strings naming ``{articles}`` and ``{first}``).
    """

    # the questions people ask
    routed_kinds: tuple[str, ...]
    routing_table: Mapping[str, str]
    citation_kind: str
    refuse_kind: str
    safe_kind: str
    multihop_kind: str
    refusals: Mapping[str, str]
    # the roles that know those kinds: local ones from the articles or a document grader, LLM ones from a model
    local_question_classifier: Callable[[Sequence[Document]], QuestionClassifier]
    llm_question_classifier: Callable[[BaseChatModel], QuestionClassifier]
    local_evidence_grader: Callable[[DocumentGrader], EvidenceGrader]
    llm_evidence_grader: Callable[[BaseChatModel], EvidenceGrader]
    # how the statute is cited: read in questions, written into answers, checked against the articles
    pinned_articles: Callable[[str, Sequence[int]], tuple[list[int], list[str]]]  # question -> cited, problems
    with_titles: Callable[[str, Mapping[int, str]], str]  # the question with each cited article's title
    paragraphs_of: Callable[[Sequence[Document]], list[Document]]  # articles -> one Document per paragraph
    cited_first: Callable[[Sequence[Document], str], list[Document]]  # the paragraphs the question cites first
    cite_paragraphs: Callable[[str, Sequence[Document]], str]  # the writer's "[n]" -> "[Article 12(3)]"
    check_answer_citations: Callable[[str, Mapping[int, Document], HallucinationGrader], CitationReport]
    remove_citations: Callable[[str, set[str]], str]  # the answer without the named bracketed citations
    reference_index: Callable[[Sequence[Document]], ReferenceIndex]  # the links between the articles' paragraphs


__all__ = ["CitationReport", "EvidenceGrade", "EvidenceGrader", "EvidenceVerdict", "KindDecision", "QuestionClassifier",
           "Refusal", "StatuteDomain"]
