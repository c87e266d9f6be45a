"""The nodes of the CRAG graph, each importable and testable alone (the builder is in ``ragkit.graphs.crag``).

A node that needs a role is built by a small factory that closes over it (``judge_node(judge)``); a node
that needs none is a plain function (``finish``, ``refuse``, ``clarify``). Every node returns only the
state keys it changed. ``CragState`` lives here too, so the nodes and the routers share one definition.

Simplifications: a clarification is appended to the question in brackets rather than rewritten into a new
question; the retry cannot tell the writer *why* a sentence failed, only what to write from.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, TypedDict

from langchain_core.documents import Document
from langgraph.types import interrupt
from typing_extensions import Annotated

from ragkit.core import contract as policy
from ragkit.core.contract import add_path, traced
from ragkit.core.search import ScoredSearch, with_score
from ragkit.defaults import GRAPHS
from ragkit.graphs.crag_helpers import (
    REFUSALS,
    Refusal,
    check_clarification,
    merge_clarification,
    same_query,
    supporting_documents,
    tidy,
    valid_judgement,
)
from ragkit.roles.base import HallucinationGrader, Judge, QuestionRewriter, Verdict, Writer
from ragkit.roles.judge import fail_soft


class CragState(TypedDict, total=False):
    question: str  # the user's question, tidied, with any clarification merged in
    language_note: str | None  # set when the local roles cannot read the question's language
    query: str  # the query the next search uses
    queries: list[str]  # every query searched so far, in order
    candidates: list[Document]  # the reranked results of the last search
    search_note: str
    search_failed: bool  # the last search raised (policy 2): the run refuses and says so
    verdict: Verdict
    kept: list[Document]  # the documents the judge passed
    judge_note: str
    judge_fallback: bool  # True once the judge failed and the fail-soft default was used
    corrected_query: str | None
    clarifying_question: str | None
    clarifications: list[str]
    corrections: int  # re-searches done
    stalled: bool  # the last corrected query repeated an earlier one (or there was none)
    sources: list[Document]  # what the current draft was written from (all the verifier sees)
    draft: str
    answered: bool
    grounded: bool
    unsupported: list[str]
    revisions: int
    caps: dict[str, int]
    answer: str
    outcome: Literal["answered", "refused"]
    refusal: Refusal | None
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


Node = Callable[[CragState], CragState]


def refine_node(caps: dict[str, int], max_chars: int = GRAPHS.max_question_chars, chat_model_set: bool = False) -> Node:
    """Build the entry node: it checks the question (input policy) and resets the per-question counters."""

    @traced("refine")
    def refine(state: CragState) -> CragState:
        """Check and tidy the question and reset the per-question counters.

        Reads: question. Writes: question, language_note, query, queries, counters, caps.
        """
        question = tidy(policy.check_question(state.get("question"), max_chars, "build_crag_graph"))
        return {"question": question, "language_note": policy.language_note(question, chat_model_set), "query": question, "queries": [], "clarifications": [], "corrections": 0,
                "revisions": 0, "judge_fallback": False, "stalled": False, "grounded": False, "unsupported": [],
                "draft": "", "answered": False, "refusal": None, "search_failed": False, "caps": dict(caps)}

    return refine


def retrieve_node(search: ScoredSearch, reranker: Any | None = None, k: int = GRAPHS.k,
                  fetch_k: int = GRAPHS.crag_fetch_k) -> Node:
    """Build the ``retrieve`` node: search (``fetch_k`` deep when reranking), rerank, keep the best ``k``."""

    @traced("retrieve")
    def retrieve(state: CragState) -> CragState:
        """Search for the current query, then rerank the hits and keep the best ``k``; a failing search
        (or reranker) is recorded, not raised.

        Reads: query, queries. Writes: candidates, queries, search_note, search_failed.
        """
        query = state["query"]
        outcome = policy.run_search(search, query, fetch_k if reranker is not None else k, what="search")
        candidates = outcome.documents[:k]
        note, failed = outcome.note, outcome.failed
        if reranker is not None and outcome.documents:
            try:
                candidates = [with_score(d, s) for d, s in reranker.rerank_with_scores(query, outcome.documents, k)]
            except Exception as err:  # noqa: BLE001 - policy 2: keep the search order, say so
                note = f"{note}; reranking failed ({type(err).__name__}: {err}), search order kept"
        return {"candidates": candidates, "queries": [*state.get("queries", []), query], "search_note": note,
                "search_failed": failed}

    return retrieve


def judge_node(judge: Judge, fallback_keep: int = 3) -> Node:
    """Build the ``judge`` node around a judge; its failures become the fail-soft default."""

    @traced("judge")
    def judge_(state: CragState) -> CragState:
        """Ask the judge for a verdict; a failure or malformed output becomes the fail-soft default.

        Reads: question, candidates. Writes: verdict, kept, judge_note, judge_fallback, corrected_query,
        clarifying_question.
        """
        candidates = state.get("candidates", [])
        try:
            j = judge.judge(state["question"], candidates)
            problem = valid_judgement(j, len(candidates))
        except Exception as err:  # noqa: BLE001 - any judge failure is fail-soft by design
            problem = f"the judge raised {type(err).__name__}: {err}"
        if problem:
            j = fail_soft(candidates, problem, fallback_keep)
        return {"verdict": j.verdict, "kept": [candidates[i] for i in j.keep], "judge_note": j.note,
                "judge_fallback": state.get("judge_fallback", False) or j.fallback,
                "corrected_query": j.corrected_query, "clarifying_question": j.clarifying_question}

    return judge_


def correct_node(rewriter: QuestionRewriter) -> Node:
    """Build the ``correct`` node: the judge's corrected query, else the rewriter's."""

    @traced("correct")
    def correct(state: CragState) -> CragState:
        """Choose the corrected query; stall if there is none or it was already tried.

        Reads: corrected_query, question, candidates, queries, corrections. Writes: query, corrections, stalled.
        """
        proposal = state.get("corrected_query")
        if not proposal:
            try:
                proposal = rewriter.rewrite(state["question"], state.get("candidates", []))
            except Exception:  # noqa: BLE001 - no corrected query: stop re-searching
                proposal = None
        if not isinstance(proposal, str) or not proposal.strip() or any(same_query(proposal, q) for q in state.get("queries", [])):
            return {"stalled": True}
        return {"query": " ".join(proposal.split()), "corrections": state.get("corrections", 0) + 1, "stalled": False}

    return correct


@traced("clarify")
def clarify(state: CragState) -> CragState:
    """Pause and ask the user; on resume, merge the clarification into the question.

    Reads: question, clarifying_question, clarifications. Writes: question, query, clarifications.
    """
    reply = check_clarification(interrupt({"clarifying_question": state.get("clarifying_question")
                                           or "Could you say more precisely what you mean?",
                                           "question": state["question"]}))
    question = merge_clarification(state["question"], reply)
    return {"question": question, "query": question, "clarifications": [*state.get("clarifications", []), reply]}


def write_node(writer: Writer) -> Node:
    """Build the ``write`` node around a writer."""

    @traced("write")
    def write(state: CragState) -> CragState:
        """Write an answer from the kept documents only.

        Reads: question, kept. Writes: sources, draft, answered.
        """
        kept = state.get("kept", [])
        if not kept:
            return {"sources": [], "draft": "", "answered": False}
        answer = writer.write(state["question"], kept)
        return {"sources": kept, "draft": answer.text, "answered": answer.answered}

    return write


def verify_node(verifier: HallucinationGrader) -> Node:
    """Build the ``verify`` node around a verifier (a hallucination grader)."""

    @traced("verify")
    def verify(state: CragState) -> CragState:
        """Check the draft against its sources; the verifier never sees the question.

        Reads: sources, draft. Writes: grounded, unsupported.
        """
        g = verifier.check(state.get("sources", []), state["draft"])
        return {"grounded": bool(g.grounded), "unsupported": list(g.unsupported)}

    return verify


def revise_node(writer: Writer) -> Node:
    """Build the ``revise`` node: the writer's one retry, from the documents the supported sentences cite."""

    @traced("revise")
    def revise(state: CragState) -> CragState:
        """Write again from only the documents the draft's supported sentences cite.

        Reads: question, draft, sources, unsupported, revisions. Writes: sources, draft, answered, revisions.
        """
        docs = supporting_documents(state["draft"], state.get("sources", []), state.get("unsupported", []))
        update: CragState = {"revisions": state.get("revisions", 0) + 1, "sources": docs, "draft": "", "answered": False}
        if docs:
            answer = writer.write(state["question"], docs)
            update.update(draft=answer.text, answered=answer.answered)
        return update

    return revise


@traced("finish")
def finish(state: CragState) -> CragState:
    """Deliver the verified draft. Reads: draft. Writes: answer, outcome, refusal."""
    return {"answer": state["draft"], "outcome": "answered", "refusal": None}


def refusal_reason(state: CragState) -> Refusal:
    """Why the run refuses, from the state: a failed search, no coverage, an unsupported draft, ambiguity,
    or too little evidence."""
    if state.get("language_note"):
        return "language"
    if state.get("search_failed"):
        return "search_failed"
    verdict = state.get("verdict")
    if verdict == "irrelevant":
        return "irrelevant"
    if state.get("revisions", 0) or (state.get("answered") and state.get("draft") and not state.get("grounded")):
        return "unsupported"
    if verdict == "ambiguous":
        return "ambiguous"
    return "insufficient"


@traced("refuse")
def refuse(state: CragState) -> CragState:
    """An honest refusal saying why. Reads: search_failed, verdict, draft, grounded, answered, search_note.
    Writes: answer, outcome, refusal."""
    reason = refusal_reason(state)
    text = REFUSALS[reason]
    if reason == "language":
        text = state["language_note"]
    elif reason == "search_failed":
        text = f"{text} ({state.get('search_note', 'the search raised an error')})"
    return {"answer": text, "outcome": "refused", "refusal": reason}


__all__ = ["CragState", "clarify", "correct_node", "finish", "judge_node", "refine_node", "refusal_reason",
           "refuse", "retrieve_node", "revise_node", "verify_node", "write_node"]
