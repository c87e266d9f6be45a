"""Corrective RAG: refine -> search + rerank -> judge -> write -> verify, with a route for every verdict.

The judge (``ragkit.roles.judge``) *proposes* one of four verdicts; the routers below *dispose*, with caps
kept in the state:

- ``sufficient`` -> write from the documents the judge kept;
- ``insufficient`` -> search again with a corrected query (the judge's, else the rewriter's), at most
  ``max_corrections`` times, and only if that query differs from every query already tried; otherwise go on
  with what was kept, or refuse when nothing was;
- ``ambiguous`` -> pause with LangGraph's ``interrupt`` and ask the user; ``resume_crag`` (or
  ``Command(resume="...")``) merges the reply into the question and searches again (``max_clarifications``);
- ``irrelevant`` -> an honest refusal: the knowledge base does not cover the question.

A judge that raises or returns something malformed is *fail-soft*: the top candidates are kept as
``sufficient`` and ``judge_fallback`` is set. The verifier sees only the sources and the answer, never the
question or the writer; when it finds unsupported sentences, the writer tries once more from only the
documents the supported sentences cite, and a second failure ends in a refusal.

The small helpers (refusal messages, ``tidy``, ``same_query``, ``run_crag`` / ``resume_crag`` ...) live in
``ragkit.graphs.crag_helpers`` and are re-exported here.

Simplifications: one thread id per question (the counters are reset by ``refine``, but ``path`` keeps
adding up on a reused thread); a clarification is appended to the question in brackets rather than
rewritten into a new question; the retry cannot tell the writer *why* a sentence failed, only what to
write from.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from langchain_core.documents import Document
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from typing_extensions import Annotated

from ragkit.graphs.crag_helpers import (REFUSALS, VERDICTS, Refusal, check_clarification, merge_clarification,
                                        paused_question, resume_crag, run_crag, same_query, supporting_documents,
                                        thread, tidy, valid_judgement)
from ragkit.graphs.trace import add_path, traced
from ragkit.roles.base import HallucinationGrader, Judge, QuestionRewriter, Verdict, Writer
from ragkit.roles.judge import fail_soft

class CragState(TypedDict, total=False):
    question: str  # the user's question, tidied, with any clarification merged in
    query: str  # the query the next search uses
    queries: list[str]  # every query searched so far, in order
    candidates: list[Document]  # the reranked results of the last search
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


# ---------------------------------------------------------------- routers (pure functions of the state)
def check_input(state: CragState) -> Literal["refine"]:
    """Entry check, before any node runs: the question must be a non-empty string."""
    if "question" not in state:
        raise ValueError("no question given: invoke the graph with {'question': '...'} (to answer a "
                         "clarifying question, use resume_crag on a paused thread)")
    tidy(state["question"])
    return "refine"


def route_after_judge(state: CragState) -> Literal["write", "correct", "clarify", "refuse"]:
    verdict, caps, kept = state["verdict"], state["caps"], bool(state.get("kept"))
    if verdict == "sufficient":
        return "write"
    if verdict == "insufficient" and state.get("corrections", 0) < caps["corrections"]:
        return "correct"
    if verdict == "ambiguous" and len(state.get("clarifications", [])) < caps["clarifications"]:
        return "clarify"
    if verdict == "irrelevant":
        return "refuse"
    return "write" if kept else "refuse"  # out of corrections or clarifications: go on with what is there


def route_after_correct(state: CragState) -> Literal["retrieve", "write", "refuse"]:
    if not state.get("stalled"):
        return "retrieve"
    return "write" if state.get("kept") else "refuse"


def route_after_write(state: CragState) -> Literal["verify", "refuse"]:
    return "verify" if state.get("answered") and state.get("draft", "").strip() else "refuse"


def route_after_verify(state: CragState) -> Literal["finish", "revise", "refuse"]:
    if state.get("grounded"):
        return "finish"
    return "revise" if state.get("revisions", 0) < state["caps"]["revisions"] else "refuse"


# ---------------------------------------------------------------- the graph
def build_crag_graph(
    retriever: Any,
    judge: Judge | None = None,
    writer: Writer | None = None,
    verifier: HallucinationGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    reranker: Any | None = None,
    k: int = 4,
    fetch_k: int = 12,
    max_corrections: int = 2,
    max_clarifications: int = 1,
    max_revisions: int = 1,
    fallback_keep: int = 3,
    checkpointer: BaseCheckpointSaver | None = None,
):
    """Compile the CRAG graph. Every role is its own argument, so each can use its own model.

    ``retriever`` needs ``search_with_scores(query, k)``; ``reranker`` (optional) needs
    ``rerank_with_scores(query, docs, top_n)``. Roles left as ``None`` get the local implementations.
    The default checkpointer is an ``InMemorySaver`` (the ``ambiguous`` pause needs one), so pass a
    ``thread_id``: ``graph.invoke({"question": q}, {"configurable": {"thread_id": "1"}})``, or use
    :func:`run_crag` and :func:`resume_crag`.
    """
    for name, value in {"k": k, "fetch_k": fetch_k, "fallback_keep": fallback_keep}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    for name, value in {"max_corrections": max_corrections, "max_clarifications": max_clarifications,
                        "max_revisions": max_revisions}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    if not hasattr(retriever, "search_with_scores"):
        raise TypeError(f"retriever must have search_with_scores(query, k); got {type(retriever).__name__}")
    if judge is None or writer is None or verifier is None or rewriter is None:
        from ragkit.roles.hallucination import LocalHallucinationGrader
        from ragkit.roles.judge import LocalJudge
        from ragkit.roles.rewriter import LocalRewriter
        from ragkit.roles.writer import LocalWriter

        judge = judge if judge is not None else LocalJudge()
        writer = writer if writer is not None else LocalWriter()
        verifier = verifier if verifier is not None else LocalHallucinationGrader()
        rewriter = rewriter if rewriter is not None else LocalRewriter()
    caps = {"corrections": max_corrections, "clarifications": max_clarifications, "revisions": max_revisions}

    @traced("refine")
    def refine(state: CragState) -> CragState:
        """Tidy the question and reset the per-question counters.

        Reads: question. Writes: question, query, queries, counters, caps.
        """
        question = tidy(state["question"])
        return {"question": question, "query": question, "queries": [], "clarifications": [], "corrections": 0,
                "revisions": 0, "judge_fallback": False, "stalled": False, "grounded": False, "unsupported": [],
                "draft": "", "answered": False, "refusal": None, "caps": dict(caps)}

    @traced("retrieve")
    def retrieve(state: CragState) -> CragState:
        """Search for the current query, then rerank the hits and keep the best ``k``.

        Reads: query, queries. Writes: candidates, queries.
        """
        query = state["query"]
        hits = retriever.search_with_scores(query, fetch_k if reranker is not None else k)
        if reranker is not None:
            hits = reranker.rerank_with_scores(query, [d for d, _ in hits], k) if hits else []
        candidates = [Document(d.page_content, metadata={**d.metadata, "score": float(s)}, id=d.id) for d, s in hits[:k]]
        return {"candidates": candidates, "queries": [*state.get("queries", []), query]}

    @traced("judge")
    def judge_node(state: CragState) -> CragState:
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

    @traced("correct")
    def correct(state: CragState) -> CragState:
        """Choose the corrected query (the judge's, else the rewriter's); stall if it was already tried.

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

    @traced("verify")
    def verify(state: CragState) -> CragState:
        """Check the draft against its sources; the verifier never sees the question.

        Reads: sources, draft. Writes: grounded, unsupported.
        """
        g = verifier.check(state.get("sources", []), state["draft"])
        return {"grounded": bool(g.grounded), "unsupported": list(g.unsupported)}

    @traced("revise")
    def revise(state: CragState) -> CragState:
        """The writer's one retry, from only the documents the supported sentences cite.

        Reads: question, draft, sources, unsupported, revisions. Writes: sources, draft, answered, revisions.
        """
        docs = supporting_documents(state["draft"], state.get("sources", []), state.get("unsupported", []))
        update: CragState = {"revisions": state.get("revisions", 0) + 1, "sources": docs, "draft": "", "answered": False}
        if docs:
            answer = writer.write(state["question"], docs)
            update.update(draft=answer.text, answered=answer.answered)
        return update

    @traced("finish")
    def finish(state: CragState) -> CragState:
        """Deliver the verified draft. Reads: draft. Writes: answer, outcome."""
        return {"answer": state["draft"], "outcome": "answered", "refusal": None}

    @traced("refuse")
    def refuse(state: CragState) -> CragState:
        """An honest refusal saying why. Reads: verdict, draft, grounded, answered. Writes: answer, outcome, refusal."""
        verdict = state.get("verdict")
        if verdict == "irrelevant":
            reason: Refusal = "irrelevant"
        elif state.get("revisions", 0) or (state.get("answered") and state.get("draft") and not state.get("grounded")):
            reason = "unsupported"
        elif verdict == "ambiguous":
            reason = "ambiguous"
        else:
            reason = "insufficient"
        return {"answer": REFUSALS[reason], "outcome": "refused", "refusal": reason}

    graph = StateGraph(CragState)
    for name, node in [("refine", refine), ("retrieve", retrieve), ("judge", judge_node), ("correct", correct),
                       ("clarify", clarify), ("write", write), ("verify", verify), ("revise", revise),
                       ("finish", finish), ("refuse", refuse)]:
        graph.add_node(name, node)
    graph.add_conditional_edges(START, check_input)
    graph.add_edge("refine", "retrieve")
    graph.add_edge("retrieve", "judge")
    graph.add_conditional_edges("judge", route_after_judge)
    graph.add_conditional_edges("correct", route_after_correct)
    graph.add_edge("clarify", "retrieve")
    graph.add_conditional_edges("write", route_after_write)
    graph.add_conditional_edges("revise", route_after_write)
    graph.add_conditional_edges("verify", route_after_verify)
    graph.add_edge("finish", END)
    graph.add_edge("refuse", END)
    return graph.compile(checkpointer=checkpointer if checkpointer is not None else InMemorySaver())


__all__ = ["CragState", "REFUSALS", "VERDICTS", "build_crag_graph", "check_input", "merge_clarification", "paused_question",
           "resume_crag", "route_after_correct", "route_after_judge", "route_after_verify", "route_after_write",
           "run_crag", "same_query", "supporting_documents", "thread", "tidy", "valid_judgement"]
