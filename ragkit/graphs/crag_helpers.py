"""Small helpers of the CRAG graph: refusal messages, question tidying, query comparison, clarifications,
judgement checks, and running / resuming a compiled graph on a thread. Each is tested on its own.

They live apart from ``ragkit.graphs.crag`` so the graph module reads as the graph: state, routers,
nodes, wiring. ``ragkit.graphs.crag`` re-exports every name here.

Simplifications: ``same_query`` compares letters and digits only, so "topic 3" and "topic three" differ;
``merge_clarification`` appends the reply in brackets instead of rewriting the question.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from langchain_core.documents import Document
from langgraph.types import Command

from ragkit.core.nlp import cited_numbers, clean_query, split_sentences, strip_citations
from ragkit.roles.base import NOT_ENOUGH_INFORMATION, Judgement

VERDICTS = ("sufficient", "insufficient", "ambiguous", "irrelevant")
Refusal = Literal["irrelevant", "insufficient", "ambiguous", "unsupported", "search_failed", "language"]
REFUSALS: dict[str, str] = {
    "language": "The offline models read English only, so I cannot answer this question as written.",
    "search_failed": "The search failed, so I could not look anything up and will not guess an answer.",
    "irrelevant": "The knowledge base does not cover this question, so I cannot answer it from my sources.",
    "insufficient": NOT_ENOUGH_INFORMATION,
    "ambiguous": "I still cannot tell what the question refers to, so I will not guess an answer.",
    "unsupported": "I could not write an answer that my sources fully support, so I will not give one.",
}


def tidy(question: str) -> str:
    """Normalise white space and strip wrapping quotes; reject an empty question with a clear error.

    >>> tidy('  "When was   the  abbey founded?" ')
    'When was the abbey founded?'
    """
    question = " ".join(clean_query(question, what="question").split())
    return clean_query(question.strip("\"'`“”‘’ "), what="question")


def same_query(a: str, b: str) -> bool:
    """Queries that differ only in case, spacing or punctuation count as the same.

    >>> same_query("Who built it?", "who  built it"), same_query("who built it", "who built the abbey")
    (True, False)
    """
    def norm(q: str) -> str:
        return " ".join("".join(c if c.isalnum() else " " for c in q.lower()).split())

    return norm(a) == norm(b)


def merge_clarification(question: str, reply: str) -> str:
    """Fold the user's clarification into the question (kept in brackets so both stay visible).

    >>> merge_clarification("When did he die?", "Frederic Chopin")
    'When did he die? (Frederic Chopin)'
    """
    return f"{question} ({reply})"


def check_clarification(reply: object) -> str:
    """A clarification must be a non-empty string; anything else is a clear error."""
    if not isinstance(reply, str):
        raise TypeError(f"the clarification must be a non-empty string, got {type(reply).__name__}: {reply!r:.60}")
    return " ".join(clean_query(reply, what="clarification").split())


def supporting_documents(draft: str, documents: Sequence[Document], unsupported: Sequence[str]) -> list[Document]:
    """The documents cited by the draft's *supported* sentences (if it cites none: all but those cited
    only by unsupported sentences).

    >>> docs = [Document("a"), Document("b"), Document("c")]
    >>> [d.page_content for d in supporting_documents("A is so [1]. B is so [2].", docs, ["B is so [2]."])]
    ['a']
    """
    bad = {strip_citations(s) for s in unsupported}
    sentences = split_sentences(draft)
    good = [s for s in sentences if strip_citations(s) not in bad]
    cited = [n for n in cited_numbers(" ".join(good)) if 1 <= n <= len(documents)]
    if cited:
        return [documents[n - 1] for n in cited]
    blamed = {n for n in cited_numbers(" ".join(s for s in sentences if strip_citations(s) in bad))}
    return [d for i, d in enumerate(documents, start=1) if i not in blamed]


def valid_judgement(j: object, n_candidates: int) -> str | None:
    """Why a judge's output cannot be used (wrong type, unknown verdict, bad indexes), or None if it can."""
    if not isinstance(j, Judgement):
        return f"the judge returned a {type(j).__name__}, not a Judgement"
    if j.verdict not in VERDICTS:
        return f"unknown verdict {j.verdict!r}"
    if any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n_candidates for i in j.keep):
        return f"keep {j.keep!r} is not a list of indexes into {n_candidates} candidates"
    if j.verdict == "sufficient" and not j.keep and n_candidates:
        return "verdict 'sufficient' without any kept document"
    return None


def thread(thread_id: str) -> dict:
    """The run config for one conversation thread.

    >>> thread("q1")
    {'configurable': {'thread_id': 'q1'}}
    """
    return {"configurable": {"thread_id": str(thread_id)}}


def run_crag(graph: Any, question: str, thread_id: str = "crag") -> dict:
    """Ask a question on a thread; the result has ``__interrupt__`` when the graph paused to ask back."""
    return graph.invoke({"question": tidy(question)}, thread(thread_id))


def paused_question(graph: Any, thread_id: str) -> str | None:
    """The clarifying question a paused thread is waiting on, or None if it is not paused."""
    snapshot = graph.get_state(thread(thread_id))
    for pending in snapshot.interrupts:
        if isinstance(pending.value, dict) and "clarifying_question" in pending.value:
            return pending.value["clarifying_question"]
    return None


def resume_crag(graph: Any, clarification: str, thread_id: str = "crag") -> dict:
    """Answer the clarifying question of a paused thread; both checks run before the graph is touched."""
    reply = check_clarification(clarification)
    if paused_question(graph, thread_id) is None:
        raise RuntimeError(f"thread {thread_id!r} is not waiting for a clarification: nothing to resume "
                           "(start a question with run_crag first)")
    return graph.invoke(Command(resume=reply), thread(thread_id))


__all__ = ["REFUSALS", "VERDICTS", "Refusal", "check_clarification", "merge_clarification", "paused_question",
           "resume_crag", "run_crag", "same_query", "supporting_documents", "thread", "tidy", "valid_judgement"]
