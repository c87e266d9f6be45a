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

Errors follow :mod:`ragkit.core.contract`: an empty or oversized question raises before any search
(``max_question_chars=`` raises the limit), and a search that raises ends in a refusal that says the search
failed (``refusal="search_failed"``), never a crash. The nodes live in ``ragkit.graphs.crag_nodes`` and the
small helpers (refusal messages, ``tidy``, ``same_query``, ``run_crag`` / ``resume_crag`` ...) in
``ragkit.graphs.crag_helpers``; both are re-exported here.

Simplifications: one thread id per question (the counters are reset by ``refine``, but ``path`` keeps
adding up on a reused thread).
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from ragkit.core.contract import check_limit
from ragkit.defaults import GRAPHS
from ragkit.graphs.crag_helpers import (
    REFUSALS,
    VERDICTS,
    Refusal,
    merge_clarification,
    paused_question,
    resume_crag,
    run_crag,
    same_query,
    supporting_documents,
    thread,
    tidy,
    valid_judgement,
)
from ragkit.graphs.crag_nodes import (
    CragState,
    clarify,
    correct_node,
    finish,
    judge_node,
    refine_node,
    refuse,
    retrieve_node,
    revise_node,
    verify_node,
    write_node,
)
from ragkit.graphs.search_sources import source
from ragkit.roles.base import HallucinationGrader, Judge, QuestionRewriter, Writer
from ragkit.roles.factory import make_roles


# ---------------------------------------------------------------- routers (pure functions of the state)
def route_after_refine(state: CragState) -> Literal["retrieve", "refuse"]:
    """A question the roles cannot read is answered with the language message (policy 5); others are searched."""
    return "refuse" if state.get("language_note") else "retrieve"


def route_after_retrieve(state: CragState) -> Literal["judge", "refuse"]:
    """A search that failed goes straight to an honest refusal; otherwise the judge looks at the results."""
    return "refuse" if state.get("search_failed") else "judge"


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
    retriever: Any | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    judge: Judge | None = None,
    writer: Writer | None = None,
    verifier: HallucinationGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    reranker: Any | None = None,
    k: int = GRAPHS.k,
    fetch_k: int = GRAPHS.crag_fetch_k,
    max_corrections: int = GRAPHS.crag_max_corrections,
    max_clarifications: int = GRAPHS.crag_max_clarifications,
    max_revisions: int = GRAPHS.crag_max_revisions,
    fallback_keep: int = 3,
    max_question_chars: int = GRAPHS.max_question_chars,
    checkpointer: BaseCheckpointSaver | None = None,
):
    """Compile the CRAG graph over ``retriever`` (default: the bundled handbook).

    ``retriever`` is anything :func:`ragkit.graphs.search_sources.source` takes; ``reranker`` (optional)
    needs ``rerank_with_scores(query, docs, top_n)``. Roles left as ``None`` come from
    :func:`ragkit.roles.factory.make_roles`: local ones, or LLM roles on ``chat_model`` (the judge and the
    verifier on ``judge_model`` when given); any role can be passed on its own. The default checkpointer
    is an ``InMemorySaver`` (the ``ambiguous`` pause needs one), so pass a ``thread_id``:
    ``graph.invoke({"question": q}, {"configurable": {"thread_id": "1"}})``, or use :func:`run_crag` and
    :func:`resume_crag`.
    """
    for name, value in {"k": k, "fetch_k": fetch_k, "fallback_keep": fallback_keep}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    for name, value in {"max_corrections": max_corrections, "max_clarifications": max_clarifications,
                        "max_revisions": max_revisions}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    check_limit(max_question_chars)
    if reranker is not None and not hasattr(reranker, "rerank_with_scores"):
        raise TypeError(f"reranker must have rerank_with_scores(query, docs, top_n); got {type(reranker).__name__}")
    roles = make_roles(chat_model, judge_model=judge_model, judge=judge, writer=writer,
                       hallucination_grader=verifier, rewriter=rewriter)
    caps = {"corrections": max_corrections, "clarifications": max_clarifications, "revisions": max_revisions}
    search = source(retriever if retriever is not None else "handbook", k)

    graph = StateGraph(CragState)
    for name, node in [("refine", refine_node(caps, max_question_chars, roles.llm)),
                       ("retrieve", retrieve_node(search, reranker, k, fetch_k)),
                       ("judge", judge_node(roles.judge, fallback_keep)), ("correct", correct_node(roles.rewriter)),
                       ("clarify", clarify), ("write", write_node(roles.writer)),
                       ("verify", verify_node(roles.hallucination_grader)), ("revise", revise_node(roles.writer)),
                       ("finish", finish), ("refuse", refuse)]:
        graph.add_node(name, node)
    graph.add_edge(START, "refine")
    graph.add_conditional_edges("refine", route_after_refine)
    graph.add_conditional_edges("retrieve", route_after_retrieve)
    graph.add_conditional_edges("judge", route_after_judge)
    graph.add_conditional_edges("correct", route_after_correct)
    graph.add_edge("clarify", "retrieve")
    graph.add_conditional_edges("write", route_after_write)
    graph.add_conditional_edges("revise", route_after_write)
    graph.add_conditional_edges("verify", route_after_verify)
    graph.add_edge("finish", END)
    graph.add_edge("refuse", END)
    return graph.compile(checkpointer=checkpointer if checkpointer is not None else InMemorySaver())


__all__ = ["CragState", "REFUSALS", "VERDICTS", "Refusal", "build_crag_graph", "merge_clarification", "paused_question",
           "resume_crag", "route_after_correct", "route_after_judge", "route_after_refine", "route_after_retrieve", "route_after_verify",
           "route_after_write", "run_crag", "same_query", "supporting_documents", "thread", "tidy", "valid_judgement"]
