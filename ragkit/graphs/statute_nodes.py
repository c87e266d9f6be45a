"""The nodes of the statute QA graph, each importable and testable alone (the builder is in ``ragkit.graphs.statute_qa``).

A node that needs a role or a search is built by a small factory that closes over it
(``classify_node(classifier)``); a node that needs none is a plain function (``refuse``). Every node
returns only the state keys it changed, and every node that calls a role records the model calls and
tokens it used (``usage``: zero for local roles) next to ``path`` and ``timings``.

Simplifications: the rewrite uses the original question and the articles of the last search (the
evidence grader's verdict does not tell the rewriter what was missing); a regeneration leaves out the
paragraphs that failed verification but cannot tell the writer why they failed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from langchain_core.documents import Document
from typing_extensions import Annotated

from ragkit.core import contract as policy
from ragkit.core.contract import add_path, traced
from ragkit.core.nlp import same_query
from ragkit.core.search import ScoredSearch, doc_key
from ragkit.defaults import GRAPHS
from ragkit.domains.statute.paragraphs import bracket_citations, cite_paragraphs, paragraphs_of, remove_citations
from ragkit.graphs.crag import tidy
from ragkit.graphs.statute_helpers import (
    REFUSALS,
    Refusal,
    Usage,
    check_answer_citations,
    is_refusal_text,
    pin,
    pinned_articles,
    record_usage,
    with_titles,
)
from ragkit.roles.evidence import EvidenceGrade, EvidenceGrader
from ragkit.roles.protocols import HallucinationGrader, QuestionRewriter, Writer
from ragkit.roles.question_classifier import QuestionClassifier, QuestionKind


class StatuteQAState(TypedDict, total=False):
    # query lineage, kept apart
    question: str  # the original question, tidied
    active_query: str  # the query the last search used
    rewritten_query: str | None  # the rewriter's proposal after short evidence (None before any)
    queries: list[str]  # every query searched, in order
    language_note: str | None
    # branch signals
    cited: list[int]  # articles the question cites and the statute has (pinned at rank 1)
    citation_problems: list[str]  # cited articles the statute does not have
    question_type: QuestionKind
    type_note: str
    strategy: str
    evidence_sufficient: bool
    evidence_note: str
    refused: bool
    low_confidence: bool
    refusal: Refusal | None
    search_failed: bool
    search_note: str
    # counters and their caps
    retrieval_attempts: int
    generation_attempts: int
    caps: dict[str, int]
    # evidence and answer
    articles: list[Document]  # what the last search returned (pinned first)
    supporting: list[Document]  # the articles the writer writes from
    paragraphs: list[Document]  # the paragraph documents of the last generation
    excluded: list[str]  # paragraph ids a verification blamed (left out of the next generation)
    draft: str
    answer: str
    citations: list[str]  # "Article 12(3)" labels that survived verification
    invalid_citations: list[tuple[str, str]]  # (label, why) dropped by verification
    unsupported: list[str]  # answer sentences with no supporting citation
    usage: Annotated[list[dict[str, Any]], add_path]
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


Node = Callable[[StatuteQAState], StatuteQAState]


def check_question_node(article_numbers: Sequence[int], caps: Mapping[str, int], max_chars: int = GRAPHS.max_question_chars,
                        chat_model_set: bool = False) -> Node:
    """Build the entry node: input policy, the language gate, direct citations, and fresh counters."""
    numbers = tuple(article_numbers)

    @traced("check_question")
    def check_question(state: StatuteQAState) -> StatuteQAState:
        """Check and tidy the question, note its language, find the articles it cites, reset the counters.

        Reads: question. Writes: question, active_query, rewritten_query, queries, language_note, cited,
        citation_problems, question_type, counters, caps and the answer fields.
        """
        question = tidy(policy.check_question(state.get("question"), max_chars, "build_statute_qa_graph"))
        cited, problems = pinned_articles(question, numbers)
        update: StatuteQAState = {
            "question": question, "active_query": question, "rewritten_query": None, "queries": [],
            "language_note": policy.language_note(question, chat_model_set), "cited": cited, "citation_problems": problems,
            "retrieval_attempts": 0, "generation_attempts": 0, "caps": dict(caps), "refused": False, "low_confidence": False,
            "refusal": None, "search_failed": False, "evidence_sufficient": False, "articles": [], "supporting": [],
            "paragraphs": [], "excluded": [], "draft": "", "answer": "", "citations": [], "invalid_citations": [], "unsupported": [],
        }
        if cited:
            update.update(question_type="citation", type_note=f"direct citation of Article(s) {', '.join(map(str, cited))}")
        return update

    return check_question


@traced("unsupported_language")
def unsupported_language(state: StatuteQAState) -> StatuteQAState:
    """The language message (policy 5), naming the cited articles so the user can ask about them in English.

    Reads: language_note, cited. Writes: answer, refused, refusal.
    """
    text = state["language_note"]
    cited = state.get("cited") or []
    if cited:
        names = ", ".join(f"Article {n}" for n in cited)
        text = (f"{text} The question cites {names}; the offline models could find it, but not read what the question "
                f"asks about it, so they will not guess. Ask in English, for example \"What does {names.split(', ')[0]} say about ...?\"")
    return {"answer": text, "refused": True, "refusal": "language"}


def classify_node(classifier: QuestionClassifier) -> Node:
    """Build the ``classify`` node around a question classifier (a failing classifier means ``single``)."""

    @traced("classify")
    def classify(state: StatuteQAState) -> StatuteQAState:
        """Label the question's type. Reads: question. Writes: question_type, type_note, usage."""
        start = time.perf_counter()
        with record_usage() as usage:
            try:
                decision = classifier.classify(state["question"])
                kind, note = decision.kind, decision.note + (" (fallback)" if decision.fallback else "")
            except Exception as err:  # noqa: BLE001 - policy 3: a crashing classifier takes the safe kind
                kind, note = "single", f"classifier failed ({type(err).__name__}: {err}); searching as 'single'"
        return {"question_type": kind, "type_note": note, "usage": [usage.entry("classify", time.perf_counter() - start)]}

    return classify


def retrieve_node(searches: Mapping[str, ScoredSearch], routing_table: Mapping[str, str], articles: Mapping[int, Document],
                  k: int) -> Node:
    """Build the ``retrieve`` node: the routing table picks the strategy, cited articles are pinned at rank 1."""

    @traced("retrieve")
    def retrieve(state: StatuteQAState) -> StatuteQAState:
        """Search with the strategy for the question's type; after short evidence, with the rewritten query.

        Reads: question_type, cited, active_query, rewritten_query, retrieval_attempts, queries.
        Writes: strategy, active_query, queries, articles, retrieval_attempts, search_note, search_failed.
        """
        strategy = routing_table[state.get("question_type", "single")]
        query = state.get("rewritten_query") if state.get("retrieval_attempts", 0) and state.get("rewritten_query") else state["active_query"]
        outcome = policy.run_search(searches[strategy], query, k, what=f"{strategy} search")
        pinned = [articles[n] for n in state.get("cited", [])]
        found = pin([(d, d.metadata.get("score", 0.0)) for d in outcome.documents], pinned, k)
        return {"strategy": strategy, "active_query": query, "queries": [*state.get("queries", []), query], "articles": found,
                "retrieval_attempts": state.get("retrieval_attempts", 0) + 1, "search_note": outcome.note,
                "search_failed": outcome.failed and not pinned}

    return retrieve


def grade_evidence_node(grader: EvidenceGrader, rewriter: QuestionRewriter) -> Node:
    """Build the ``grade_evidence`` node: grade the articles; when short, ask the rewriter for the next query."""

    @traced("grade_evidence")
    def grade_evidence(state: StatuteQAState) -> StatuteQAState:
        """Grade the evidence; keep the supporting articles (pinned ones always); propose a rewrite when short.

        Reads: question, articles, queries. Writes: evidence_sufficient, evidence_note, supporting,
        rewritten_query, usage.
        """
        start = time.perf_counter()
        docs = state.get("articles", [])
        with record_usage() as usage:
            try:
                grade = grader.grade(state["question"], docs)
            except Exception as err:  # noqa: BLE001 - a crashing grader: the evidence counts as short
                grade = EvidenceGrade("short", (), 0.0, f"evidence grader failed ({type(err).__name__}: {err})")
            supporting = [d for d in docs if d.metadata.get("pinned")]
            supporting += [docs[i] for i in grade.supporting if 0 <= i < len(docs) and docs[i] not in supporting]
            update: StatuteQAState = {"evidence_sufficient": grade.sufficient and bool(supporting), "evidence_note": grade.note,
                                      "supporting": supporting}
            if not update["evidence_sufficient"]:
                try:
                    proposal = rewriter.rewrite(state["question"], docs)
                except Exception:  # noqa: BLE001 - no rewrite: the loop stops
                    proposal = None
                update["rewritten_query"] = " ".join(proposal.split()) if isinstance(proposal, str) and proposal.strip() else None
        update["usage"] = [usage.entry("grade_evidence", time.perf_counter() - start)]
        return update

    return grade_evidence


def generate_node(writer: Writer) -> Node:
    """Build the ``generate`` node: the writer answers from the paragraphs of the supporting articles."""

    @traced("generate")
    def generate(state: StatuteQAState) -> StatuteQAState:
        """Write from paragraph documents, turning the writer's ``[n]`` into ``[Article N(p)]`` citations. A
        cited article's title is written after its citation in the question the writer reads.

        Reads: question, supporting, excluded, generation_attempts. Writes: paragraphs, draft,
        generation_attempts, usage.
        """
        start = time.perf_counter()
        excluded = set(state.get("excluded", []))
        supporting = state.get("supporting", [])
        paragraphs = [p for p in paragraphs_of(supporting) if doc_key(p) not in excluded]
        titles = {int(d.metadata["article"]): d.metadata.get("title", "") for d in supporting if d.metadata.get("pinned")}
        draft = ""
        with record_usage() as usage:
            if paragraphs:
                answer = writer.write(with_titles(state["question"], titles), paragraphs)
                draft = cite_paragraphs(answer.text, paragraphs) if answer.answered else ""
        return {"paragraphs": paragraphs, "draft": draft, "generation_attempts": state.get("generation_attempts", 0) + 1,
                "usage": [usage.entry("generate", time.perf_counter() - start)]}

    return generate


def verify_node(verifier: HallucinationGrader) -> Node:
    """Build the ``verify`` node: every citation must name a retrieved article and support its sentence."""

    @traced("verify")
    def verify(state: StatuteQAState) -> StatuteQAState:
        """Drop citations of articles that were not retrieved or that do not support their sentence; the
        answer stands when every sentence keeps a supporting citation.

        Reads: draft, articles, excluded. Writes: citations, invalid_citations, unsupported, excluded,
        draft, answer, usage.
        """
        start = time.perf_counter()
        draft = state.get("draft", "")
        if is_refusal_text(draft):
            return {"citations": [], "unsupported": [], "invalid_citations": [],
                    "usage": [Usage().entry("verify", time.perf_counter() - start)]}
        retrieved = {int(d.metadata["article"]): d for d in state.get("articles", [])}
        with record_usage() as usage:
            report = check_answer_citations(draft, retrieved, verifier)
        cleaned = remove_citations(draft, {label for label, _ in report.invalid} - set(report.valid))
        update: StatuteQAState = {"citations": list(report.valid), "invalid_citations": list(report.invalid),
                                  "unsupported": list(report.unsupported), "draft": cleaned,
                                  "excluded": list(dict.fromkeys([*state.get("excluded", []), *report.blamed])),
                                  "usage": [usage.entry("verify", time.perf_counter() - start)]}
        if report.verified:
            update.update(answer=cleaned, refused=False, low_confidence=False)
        return update

    return verify


@traced("refuse")
def refuse(state: StatuteQAState) -> StatuteQAState:
    """Refuse at once: the question is unanswerable, or cites only articles the statute lacks.

    Reads: citation_problems. Writes: answer, refused, refusal.
    """
    problems = state.get("citation_problems") or []
    if problems and not state.get("cited"):
        return {"answer": f"{REFUSALS['no_such_article']}: {'; '.join(problems)}.", "refused": True, "refusal": "no_such_article"}
    return {"answer": REFUSALS["unanswerable"], "refused": True, "refusal": "unanswerable"}


@traced("refuse_low_confidence")
def refuse_low_confidence(state: StatuteQAState) -> StatuteQAState:
    """Refuse because the evidence stayed short or no answer survived verification, naming the closest articles.

    Reads: search_failed, search_note, generation_attempts, articles. Writes: answer, refused, low_confidence, refusal.
    """
    if state.get("search_failed") and not state.get("articles"):
        reason: Refusal = "search_failed"
        text = f"{REFUSALS[reason]} ({state.get('search_note', 'the search raised an error')})"
    else:
        reason = "unsupported" if state.get("generation_attempts", 0) and state.get("draft") else "low_confidence"
        text = REFUSALS[reason]
        closest = [f"Article {d.metadata['article']} ({d.metadata.get('title', '')})" for d in state.get("articles", [])[:3]]
        if closest:
            text += f" The closest provisions I found: {'; '.join(closest)}."
    return {"answer": text, "refused": True, "low_confidence": reason != "search_failed", "refusal": reason}


def rewrite_repeats(state: StatuteQAState) -> bool:
    """True when there is no rewritten query, or it repeats a query already searched (case and spacing aside)."""
    proposal = state.get("rewritten_query")
    tried = [*state.get("queries", []), state.get("active_query", "")]
    return not proposal or any(same_query(proposal, q) for q in tried if q)


def citation_labels(text: str) -> list[str]:
    """The bracketed citation labels of an answer, in order, without repeats."""
    return list(dict.fromkeys(c.label() for c in bracket_citations(text)))


__all__ = ["StatuteQAState", "check_question_node", "citation_labels", "classify_node", "generate_node", "grade_evidence_node",
           "refuse", "refuse_low_confidence", "retrieve_node", "rewrite_repeats", "unsupported_language", "verify_node"]
