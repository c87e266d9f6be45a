"""Self-RAG: retrieve, keep the relevant documents, write, then check the answer before returning it.

The graph::

    check_question -> retrieve -> grade_documents -> generate | transform_query
    transform_query -> retrieve                      (ask again with a rewritten query)
    generate -> grade_generation -> END              (grounded and useful)
                                 -> generate         (not grounded: write again, unless it repeated itself)
                                 -> transform_query  (grounded but not useful: search again)
                                 -> give_up -> END   (budget spent)

Every loop is paid for from one budget: ``attempts`` counts generations plus rewrites and may not pass
``max_attempts`` (a state field, default 3). A rewrite is only taken when a generation still fits after
it, so the graph always ends with an answer. When the budget runs out, ``give_up`` keeps the best answer
seen (grounded beats ungrounded, then the higher scores) and sets ``gave_up=True`` with a ``note`` saying
the answer was NOT verified.

An optional last chance (``fallback_documents=n``, off by default): when no document passes the
relevance grader and no rewrite is left, ``grade_documents`` hands the writer the n best-scored
documents the grader rejected during the run, and sets ``relevance_fallback``. The writer may still
refuse, its answer still has to pass both checks, and the ``note`` says so. Why it is off: on SQuAD 2.0
(articles 0-7, 60 questions per category, ``benchmarks/self_rag/squad2_eval.py``) n=2 raised verified
answers to answerable questions from 88% to 97%, but also verified (false) answers to questions whose
article was removed from the index from 2% to 18%: quoted, grounded sentences from a same-domain
document that answer a different question pass both local checks. Turn it on with graders that can
tell those apart (an LLM answer grader), or on a corpus where off-topic questions are truly off topic.

Errors follow :mod:`ragkit.core.contract`: the entry node ``check_question`` rejects an empty or
oversized question (``max_question_chars=`` raises the limit) and a ``max_attempts`` the run's
``recursion_limit`` could not finish (see :func:`worst_case_steps`), with a ``ValueError``, before
anything is retrieved; a search that raises gives no documents and a ``retrieval_note`` saying so.

Simplifications: the original Self-RAG paper trains one model to emit reflection tokens; here separate
graders (local or LLM) play those parts. An answer that says "not enough information" is treated as
grounded (it claims nothing) but not useful, so it triggers a rewrite while the budget lasts. The
state, the budget helpers and the nodes live in :mod:`ragkit.graphs.self_rag_nodes`; this module holds
the routers and the builder.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.graph import END, START, StateGraph

from ragkit.core.contract import check_limit
from ragkit.defaults import GRAPHS
from ragkit.graphs.search_sources import source
from ragkit.graphs.self_rag_nodes import (
    DEFAULT_FALLBACK_DOCUMENTS,
    DEFAULT_MAX_ATTEMPTS,
    Candidate,
    SelfRAGState,
    best_candidate,
    can_generate,
    can_rewrite,
    check_question_node,
    generate_node,
    give_up,
    grade_documents_node,
    grade_generation_node,
    retrieve_node,
    transform_query_node,
    unsupported_language,
    worst_case_steps,
)
from ragkit.roles.base import AnswerGrader, DocumentGrader, HallucinationGrader, QuestionRewriter, Writer
from ragkit.roles.factory import make_roles


# ---------------------------------------------------------------- routers
def route_after_check_question(state: SelfRAGState) -> Literal["retrieve", "unsupported_language"]:
    """A question the roles cannot read gets the language message; every other one is searched."""
    return "unsupported_language" if state.get("language_note") else "retrieve"


def route_after_grade_documents(state: SelfRAGState) -> Literal["generate", "transform_query"]:
    """Relevant documents -> ``generate``; none -> ``transform_query`` while the budget allows one."""
    if state.get("documents") or not can_rewrite(state):
        return "generate"
    return "transform_query"


def route_after_transform_query(state: SelfRAGState) -> Literal["retrieve", "generate"]:
    """A new query -> ``retrieve``; a query this run already searched -> ``generate`` (same search, same documents)."""
    return "generate" if state.get("repeated_query") else "retrieve"


def route_after_grade_generation(
    state: SelfRAGState,
) -> Literal["generate", "transform_query", "give_up", "__end__"]:
    """Useful -> END; not grounded -> ``generate``; not useful -> ``transform_query``; no budget -> ``give_up``.

    One refinement: if the writer just repeated an answer it already gave (a deterministic writer does,
    given the same documents), writing again cannot help, so an ungrounded repeat is treated like a
    useless answer: search again with a rewritten query, or give up.
    """
    if state.get("grounded") and state.get("useful"):
        return END
    if not state.get("grounded"):
        earlier = [c["generation"] for c in (state.get("candidates") or [])[:-1]]
        if state.get("generation") not in earlier:
            return "generate" if can_generate(state) else "give_up"
    return "transform_query" if can_rewrite(state) else "give_up"


# ---------------------------------------------------------------- builder
def build_self_rag_graph(
    retriever: Any | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    grader: DocumentGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    answer_grader: AnswerGrader | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    k: int = GRAPHS.k,
    max_question_chars: int = GRAPHS.max_question_chars,
    checkpointer: Any | None = None,
    fallback_documents: int = DEFAULT_FALLBACK_DOCUMENTS,
) -> Any:
    """Compile the Self-RAG graph over ``retriever`` (default: the bundled handbook).

    ``retriever`` is anything :func:`ragkit.graphs.search_sources.source` takes (a ragkit retriever, a
    LangChain vector store or retriever, a function, a corpus name). Roles left as ``None`` come from
    :func:`ragkit.roles.factory.make_roles` (local, or LLM roles on ``chat_model``, judging ones on
    ``judge_model`` when given). ``max_attempts`` is the default budget; a run can override it with
    ``{"max_attempts": n}`` in its input. ``fallback_documents`` is how many rejected documents the last
    chance passes to the writer (0: none).
    """
    if isinstance(fallback_documents, bool) or not isinstance(fallback_documents, int) or fallback_documents < 0:
        raise ValueError(f"fallback_documents must be a non-negative integer, got {fallback_documents!r}")
    check_limit(max_question_chars)
    roles = make_roles(chat_model, judge_model=judge_model, grader=grader, rewriter=rewriter, writer=writer,
                       hallucination_grader=hallucination_grader, answer_grader=answer_grader)

    graph = StateGraph(SelfRAGState)
    graph.add_node("check_question", check_question_node(max_attempts, max_question_chars, roles.llm))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("retrieve", retrieve_node(source(retriever if retriever is not None else "handbook", k), k))
    graph.add_node("grade_documents", grade_documents_node(roles.grader, fallback_documents))
    graph.add_node("transform_query", transform_query_node(roles.rewriter, fallback_documents))
    graph.add_node("generate", generate_node(roles.writer))
    graph.add_node("grade_generation", grade_generation_node(roles.hallucination_grader, roles.answer_grader))
    graph.add_node("give_up", give_up)

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_edge("retrieve", "grade_documents")
    graph.add_conditional_edges("grade_documents", route_after_grade_documents)
    graph.add_conditional_edges("transform_query", route_after_transform_query)
    graph.add_edge("generate", "grade_generation")
    graph.add_conditional_edges("grade_generation", route_after_grade_generation)
    graph.add_edge("give_up", END)
    return graph.compile(checkpointer=checkpointer)


__all__ = [
    "DEFAULT_FALLBACK_DOCUMENTS",
    "DEFAULT_MAX_ATTEMPTS",
    "Candidate",
    "SelfRAGState",
    "best_candidate",
    "build_self_rag_graph",
    "can_generate",
    "can_rewrite",
    "give_up",
    "route_after_check_question",
    "route_after_grade_documents",
    "route_after_grade_generation",
    "route_after_transform_query",
    "worst_case_steps",
]
