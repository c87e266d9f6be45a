"""Small helpers of the statute QA graph: refusal messages, pinning cited articles, checking an answer's
citations, and counting a chat model's tokens. Each is tested on its own; ``ragkit.graphs.statute_qa``
re-exports them.

Token usage comes from the model itself: every LangChain chat model reports ``AIMessage.usage_metadata``
(input, output and total tokens) when its provider does. :func:`record_usage` collects it for everything
run inside a ``with`` block, through a callback handler attached by a context variable (the mechanism of
``langchain_core.callbacks.get_usage_metadata_callback``, which ignores messages without a model name;
this one counts them too). Local roles call no model, so they record zero calls and zero tokens.

Simplifications: a sentence's citations are checked one paragraph at a time, so a sentence that merges
two paragraphs supports neither on its own and is regenerated; the pinned articles are put first in the
order the question cites them, whatever their scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from threading import Lock
from typing import Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.tracers.context import register_configure_hook

from ragkit.core.search import Scored, doc_key, with_score
from ragkit.domains.statute.citations import Citation, check_citations, parse_citations
from ragkit.domains.statute.paragraphs import answer_citations, split_paragraphs
from ragkit.roles.protocols import NOT_ENOUGH_INFORMATION, HallucinationGrader

Refusal = Literal["unanswerable", "no_such_article", "low_confidence", "unsupported", "search_failed", "language"]
REFUSALS: dict[str, str] = {
    "unanswerable": "The statute does not deal with this question, so I will not guess an answer.",
    "no_such_article": "The question cites an article this statute does not have",
    "low_confidence": "I found no provision that answers this clearly enough, so I will not guess (low confidence).",
    "unsupported": "I could not write an answer whose every sentence its cited paragraph supports, so I will not give one (low confidence).",
    "search_failed": "The search failed, so I could not look anything up and will not guess an answer.",
}


# ---------------------------------------------------------------- direct citations
def pinned_articles(question: str, numbers: Sequence[int]) -> tuple[list[int], list[str]]:
    """The cited articles the statute has (in the question's order) and the problems with the others.

    >>> pinned_articles("Compare Art. 12(3) with Article 99 and 제12조.", range(1, 41))
    ([12], ['there is no Article 99 in this statute (it has Articles 1-40)'])
    """
    citations = parse_citations(question)
    have = {int(n): 0 for n in numbers}
    docs = [Document("", metadata={"article": n, "paragraphs": 0}) for n in have]
    pinned, problems = [], []
    for check in check_citations(citations, docs):
        if check.citation.article in have:
            if check.citation.article not in pinned:
                pinned.append(check.citation.article)
        elif check.problem not in problems:
            problems.append(check.problem)
    return pinned, problems


def with_titles(question: str, titles: Mapping[int, str]) -> str:
    """The question with each cited article's title written after the citation, for the local roles.

    "What is Article 16 about?" shares no word with the article's paragraphs; "What is Article 16 (Closed
    areas and seasons) about?" shares three.

    >>> with_titles("what is article 16 about", {16: "Closed areas and seasons"})
    'what is article 16 (Closed areas and seasons) about'
    """
    out, last = [], 0
    for citation in parse_citations(question):
        title = titles.get(citation.article)
        if title:
            out.extend([question[last:citation.end], f" ({title})"])
            last = citation.end
    return "".join(out) + question[last:]


def pin(results: Scored, pinned: Sequence[Document], k: int) -> list[Document]:
    """The pinned documents first (rank 1, 2, ...), then the search results that are not pinned, ``k`` in all
    (more when more articles are pinned); each carries ``metadata["score"]`` and ``metadata["pinned"]``.

    >>> a, b, c = (Document(x, metadata={"id": x}) for x in "abc")
    >>> [(d.page_content, d.metadata["pinned"]) for d in pin([(a, 0.9), (b, 0.8)], [b], 2)]
    [('b', True), ('a', False)]
    """
    keys = {doc_key(d) for d in pinned}
    top = max((s for _, s in results), default=1.0)
    out = [with_score(Document(d.page_content, metadata={**d.metadata, "pinned": True}, id=d.id), top + 1.0) for d in pinned]
    for doc, score in results:
        if len(out) >= max(k, len(pinned)):
            break
        if doc_key(doc) not in keys:
            out.append(with_score(Document(doc.page_content, metadata={**doc.metadata, "pinned": False}, id=doc.id), score))
    return out


# ---------------------------------------------------------------- checking an answer's citations
@dataclass(frozen=True)
class CitationReport:
    """What verify found: the kept citations, the dropped ones (label and why), and the unsupported sentences."""

    valid: tuple[str, ...] = ()
    invalid: tuple[tuple[str, str], ...] = ()
    unsupported: tuple[str, ...] = ()
    blamed: tuple[str, ...] = ()  # ids of paragraphs that were cited but did not support their sentence

    @property
    def verified(self) -> bool:
        """Every sentence kept at least one citation that supports it."""
        return bool(self.valid) and not self.unsupported


def _paragraph_docs(citation: Citation, articles: Mapping[int, Document]) -> list[Document]:
    paragraphs = split_paragraphs(articles[citation.article])
    if citation.paragraph is None:
        return paragraphs
    return [p for p in paragraphs if p.metadata["paragraph"] == citation.paragraph]


def check_answer_citations(answer: str, retrieved: Mapping[int, Document], verifier: HallucinationGrader) -> CitationReport:
    """Check each bracketed citation of ``answer``: its article must be among ``retrieved`` (article number ->
    article), its paragraph must exist, and the hallucination grader must find that paragraph supports the
    sentence. A sentence left without a supporting citation is unsupported.

    >>> class Yes:
    ...     def check(self, documents, answer):
    ...         from ragkit.roles.protocols import Groundedness
    ...         return Groundedness(True)
    >>> art = {12: Document("Article 12. Revocation\\n\\n(1) A.\\n\\n(3) Notice of 14 days.", metadata={"article": 12, "id": "art-12"})}
    >>> r = check_answer_citations("Notice of 14 days [Article 12(3)] [Article 40(1)]. Also B [Article 12(7)].", art, Yes())
    >>> r.valid, r.invalid, r.unsupported
    (('Article 12(3)',), (('Article 40(1)', 'Article 40 was not retrieved'), ('Article 12(7)', 'Article 12 has no paragraph (7)')), ('Also B.',))
    """
    valid, invalid, unsupported, blamed = [], [], [], []
    for sentence, citations in answer_citations(answer):
        kept = False
        for citation in citations:
            label = citation.label()
            if citation.article not in retrieved:
                invalid.append((label, f"Article {citation.article} was not retrieved"))
                continue
            paragraphs = _paragraph_docs(citation, retrieved)
            if not paragraphs:
                invalid.append((label, f"Article {citation.article} has no paragraph ({citation.paragraph})"))
                continue
            if verifier.check(paragraphs, sentence).grounded:
                kept = True
                if label not in valid:
                    valid.append(label)
            else:
                invalid.append((label, "does not support its sentence"))
                blamed.extend(doc_key(p) for p in paragraphs)
        if not kept:
            unsupported.append(sentence)
    return CitationReport(tuple(valid), tuple(invalid), tuple(unsupported), tuple(dict.fromkeys(blamed)))


def is_refusal_text(text: str) -> bool:
    """True for an empty draft or a writer's explicit "not enough information"."""
    return not text.strip() or text.strip().startswith(NOT_ENOUGH_INFORMATION.rstrip("."))


# ---------------------------------------------------------------- token usage
@dataclass
class Usage:
    """Model calls and tokens counted inside one :func:`record_usage` block."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    _lock: Lock = field(default_factory=Lock, repr=False, compare=False)

    def add(self, message: Any) -> None:
        usage = getattr(message, "usage_metadata", None) or {}
        with self._lock:
            self.calls += 1
            self.input_tokens += int(usage.get("input_tokens", 0) or 0)
            self.output_tokens += int(usage.get("output_tokens", 0) or 0)
            self.total_tokens += int(usage.get("total_tokens", 0) or 0)

    def entry(self, node: str, seconds: float | None = None) -> dict[str, Any]:
        out = {"node": node, "calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
               "total_tokens": self.total_tokens}
        return out if seconds is None else {**out, "seconds": round(seconds, 6)}


class _UsageHandler(BaseCallbackHandler):
    def __init__(self, usage: Usage):
        self.usage = usage

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                message = generation.message if isinstance(generation, ChatGeneration) else None
                self.usage.add(message if isinstance(message, AIMessage) else None)


_USAGE: ContextVar[_UsageHandler | None] = ContextVar("ragkit_statute_usage", default=None)
register_configure_hook(_USAGE, inheritable=True)


@contextmanager
def record_usage() -> Iterator[Usage]:
    """Count every chat-model call (and its ``usage_metadata`` tokens) made inside the block.

    >>> from langchain_core.messages import AIMessage
    >>> from ragkit.core.chat_models import scripted
    >>> model = scripted(AIMessage("hi", usage_metadata={"input_tokens": 7, "output_tokens": 2, "total_tokens": 9}))
    >>> with record_usage() as usage:
    ...     _ = model.invoke("hello")
    >>> usage.calls, usage.total_tokens
    (1, 9)
    """
    usage = Usage()
    token = _USAGE.set(_UsageHandler(usage))
    try:
        yield usage
    finally:
        _USAGE.reset(token)


def usage_totals(entries: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Calls and tokens summed over a run's ``usage`` entries.

    >>> usage_totals([{"calls": 1, "input_tokens": 5, "output_tokens": 2, "total_tokens": 7}, {"calls": 0}])
    {'calls': 1, 'input_tokens': 5, 'output_tokens': 2, 'total_tokens': 7}
    """
    keys = ("calls", "input_tokens", "output_tokens", "total_tokens")
    return {k: sum(int(e.get(k, 0)) for e in entries) for k in keys}


__all__ = ["REFUSALS", "CitationReport", "Refusal", "Usage", "check_answer_citations", "is_refusal_text", "pin", "pinned_articles",
           "record_usage", "usage_totals", "with_titles"]
