"""Corrective RAG: refine -> search + rerank -> judge -> write -> verify, with a route for every verdict.

The judge *proposes* one of four verdicts (Corrective RAG, Yan et al., 2024); the routers below *dispose*,
with caps kept in the state:

- ``sufficient`` -> write from the documents the judge kept;
- ``insufficient`` -> search again with a corrected query (the judge's, else the rewriter's), at most
  ``max_corrections`` times and only with a query not tried yet; then go on with what was kept, or refuse;
- ``ambiguous`` -> ``ask_back`` (the result says ``outcome="asked_back"`` with the question to the user),
  then ``clarify`` pauses with LangGraph's ``interrupt``; :func:`resume_crag` (or
  ``Command(resume="...")``) merges the reply into the question and searches again (``max_clarifications``);
- ``irrelevant`` -> an honest refusal: the knowledge base does not cover the question.

Every way to ``write`` passes the refusal dial (:func:`write_or_refuse`; ``benchmarks/refusal``). A judge
that fails is *fail-soft* (:func:`judge_node`); an answer the verifier rejects is written once more
(:func:`revise_node`), then refused. Pausing needs a checkpointer and a thread (:func:`build_crag_graph`).

What it cannot do: a clarification is appended to the question in brackets, not rewritten into it; the
retry cannot tell the writer *why* a sentence failed; the local judge's bars are global numbers tuned once
(``benchmarks/crag``), not calibrated per corpus; ``path`` keeps adding up on a reused thread.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, interrupt

from ragkit.core.contract import (
    RAGResult,
    answers_at,
    check_cap,
    check_limit,
    check_positive,
    check_question_node,
    check_steps,
    check_threshold,
    low_confidence_note,
    result,
    traced,
)
from ragkit.core.nlp import (
    cited_numbers,
    clean_query,
    same_query,
    supporting_documents,
    tidy,
)
from ragkit.core.search import ScoredSearch, as_scored_search, run_search, with_score
from ragkit.core.threads import thread, with_threads
from ragkit.defaults import GRAPHS, REFUSAL
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.judge import LocalJudge
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.judge_protocols import Judge, Verdict, fail_soft, valid_judgement
from ragkit.roles.llm import LLMGrader, LLMHallucinationGrader, LLMRewriter, LLMWriter, check_chat_model
from ragkit.roles.llm_judge import LLMJudge
from ragkit.roles.protocols import (
    NOT_ENOUGH_INFORMATION,
    DocumentGrader,
    HallucinationGrader,
    QuestionRewriter,
    Writer,
    choose,
)

BUILDER = "build_crag_graph"
Refusal = Literal["irrelevant", "insufficient", "ambiguous", "unsupported", "low_confidence", "search_failed", "language"]
REFUSALS: dict[str, str] = {
    "language": "The offline models read English only, so I cannot answer this question as written.",
    "search_failed": "The search failed, so I could not look anything up and will not guess an answer.",
    "irrelevant": "The knowledge base does not cover this question, so I cannot answer it from my sources.",
    "insufficient": NOT_ENOUGH_INFORMATION,
    "ambiguous": "I still cannot tell what the question refers to, so I will not guess an answer.",
    "unsupported": "I could not write an answer that my sources fully support, so I will not give one.",
    "low_confidence": "The best evidence I found is too weak to answer from, so I will not guess an answer.",
}


class CragState(RAGResult, total=False):
    """State of the CRAG graph; the result fields (answer, sources, outcome, ...) come from ``RAGResult``."""

    query: str  # the query the next search uses
    queries: list[str]  # every query searched so far, in order
    candidates: list[Document]  # the reranked results of the last search
    search_note: str
    search_failed: bool  # the last search raised (policy 2): the run refuses and says so
    verdict: Verdict
    kept: list[Document]  # the documents the judge passed
    judge_note: str
    judge_fallback: bool  # True once the judge failed and the fail-soft default was used
    evidence_score: float | None  # the last judgement's score (Judgement.score): what refuse_below is compared with
    refuse_below: float  # the refusal dial (the builder's refuse_below)
    corrected_query: str | None
    clarifying_question: str | None
    clarifications: list[str]
    corrections: int  # re-searches done
    stalled: bool  # the last corrected query repeated an earlier one (or there was none)
    draft: str  # the current answer, written from ``sources``
    answered: bool
    grounded: bool
    unsupported: list[str]
    revisions: int
    caps: dict[str, int]
    refusal: Refusal | None


Node = Callable[[CragState], CragState]


# ---------------------------------------------------------------- small helpers
def check_clarification(reply: object) -> str:
    """A clarification must be a non-empty string; anything else is a clear error."""
    if not isinstance(reply, str):
        raise TypeError(f"the clarification must be a non-empty string, got {type(reply).__name__}: {reply!r:.60}")
    return " ".join(clean_query(reply, what="clarification").split())


def worst_case_steps(max_corrections: int, max_revisions: int) -> int:
    """The ``recursion_limit`` one call needs at most (one step per node, plus LangGraph's start step).

    The longest call corrects ``max_corrections`` times and revises ``max_revisions`` times: refine,
    retrieve and judge; 3 per correction (correct, retrieve, judge); write and verify; 2 per revision
    (revise, verify); finish or refuse. A clarification ends the call at the pause, and the resumed call,
    starting at clarify, is no longer (its corrections are what the first call left).

    >>> worst_case_steps(2, 1)
    15
    """
    return 3 * max_corrections + 2 * max_revisions + 7


# ---------------------------------------------------------------- nodes
def start_run(caps: dict[str, int], refuse_below: float = REFUSAL.crag) -> Callable[[dict, RunnableConfig, str], CragState]:
    """What the entry node adds: the tidied question, fresh counters and notes (a reused thread keeps the last
    run's), the caps and the refusal dial; a ``recursion_limit`` too low for the caps is an error here, before
    any search (:func:`worst_case_steps`)."""

    def start(state: dict, config: RunnableConfig, question: str) -> CragState:
        check_steps(config, worst_case_steps(caps["corrections"], caps["revisions"]),
                    max_corrections=caps["corrections"], max_revisions=caps["revisions"])
        question = tidy(question)
        return {"question": question, "query": question, "queries": [], "clarifications": [], "corrections": 0,
                "revisions": 0, "judge_fallback": False, "stalled": False, "grounded": False, "unsupported": [],
                "draft": "", "answered": False, "refusal": None, "search_failed": False, "judge_note": "",
                "caps": dict(caps), "evidence_score": None, "confidence": None, "refuse_below": refuse_below}

    return start


def retrieve_node(search: ScoredSearch, reranker: Any | None = None, k: int = GRAPHS.k,
                  fetch_k: int = GRAPHS.crag_fetch_k) -> Node:
    """Build the ``retrieve`` node: search (``fetch_k`` deep when reranking), rerank, keep the best ``k``."""

    @traced("retrieve")
    def retrieve(state: CragState) -> CragState:
        """Search the current query; a failing search (or reranker) is recorded, not raised.

        Reads: query, queries. Writes: candidates, queries, search_note, search_failed.
        """
        query = state["query"]
        outcome = run_search(search, query, fetch_k if reranker is not None else k, what="search")
        candidates, note = outcome.documents[:k], outcome.note
        if reranker is not None and outcome.documents:
            try:
                candidates = [with_score(d, s) for d, s in reranker.rerank_with_scores(query, outcome.documents, k)]
            except Exception as err:  # noqa: BLE001 - policy 2: keep the search order, say so
                note = f"{note}; reranking failed ({type(err).__name__}: {err}), search order kept"
        return {"candidates": candidates, "queries": [*state.get("queries", []), query], "search_note": note,
                "search_failed": outcome.failed}

    return retrieve


def judge_node(judge: Judge, fallback_keep: int = 3) -> Node:
    """Build the ``judge`` node. A judge that raises or returns something malformed is *fail-soft*: the top
    ``fallback_keep`` candidates are kept as ``sufficient`` and ``judge_fallback`` is set."""

    @traced("judge")
    def judge_(state: CragState) -> CragState:
        """Ask the judge for a verdict on the candidates.

        Reads: question, candidates. Writes: verdict, kept, judge_note, judge_fallback, corrected_query,
        clarifying_question, evidence_score.
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
                "corrected_query": j.corrected_query, "clarifying_question": j.clarifying_question,
                "evidence_score": None if j.score is None else float(j.score)}

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


@traced("ask_back")
def ask_back(state: CragState) -> CragState:
    """The question to ask the user, as the run's result while it waits.

    Reads: clarifying_question, judge_note, kept. Writes: the result fields (asked_back).
    """
    ask = state.get("clarifying_question") or "Could you say more precisely what you mean?"
    return result(ask, "asked_back", f"ambiguous: {state.get('judge_note', '')}".rstrip(": "), state.get("kept", []))


@traced("clarify")
def clarify(state: CragState) -> CragState:
    """Pause and ask the user; on resume, append the clarification to the question in brackets.

    Reads: question, answer, clarifications. Writes: question, query, clarifications.
    """
    reply = check_clarification(interrupt({"clarifying_question": state["answer"], "question": state["question"]}))
    question = f"{state['question']} ({reply})"
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


def verify_node(hallucination_grader: HallucinationGrader) -> Node:
    """Build the ``verify`` node around a hallucination grader (the verifier)."""

    @traced("verify")
    def verify(state: CragState) -> CragState:
        """Check the draft against its sources; the verifier never sees the question.

        Reads: sources, draft. Writes: grounded, unsupported.
        """
        g = hallucination_grader.check(state.get("sources", []), state["draft"])
        return {"grounded": bool(g.grounded), "unsupported": list(g.unsupported)}

    return verify


def revise_node(writer: Writer) -> Node:
    """Build the ``revise`` node: the writer's one retry, from the documents the supported sentences cite."""

    @traced("revise")
    def revise(state: CragState) -> CragState:
        """Write again after the verifier found unsupported claims.

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
    """Deliver the verified draft. Reads: draft, sources, evidence_score. Writes: the result fields (answered), refusal."""
    reason = "verified: every claim of the answer is supported by its sources"
    return {**result(state["draft"], "answered", reason, state.get("sources", []), cited_numbers(state["draft"])),
            "refusal": None, "confidence": state.get("evidence_score")}


def confident(state: CragState) -> bool:
    """The refusal dial: the judge's evidence score reaches ``refuse_below`` (or the judge gave no score)."""
    return answers_at(state.get("evidence_score"), state.get("refuse_below", REFUSAL.crag))


def refusal_reason(state: CragState) -> Refusal:
    """Why the run refuses, from the state: the language, a failed search, no coverage, evidence below the
    dial, an unsupported draft, ambiguity, or too little evidence."""
    if state.get("language_note"):
        return "language"
    if state.get("search_failed"):
        return "search_failed"
    verdict = state.get("verdict")
    if verdict == "irrelevant":
        return "irrelevant"
    if state.get("kept") and not state.get("draft") and not confident(state):
        return "low_confidence"
    if state.get("revisions", 0) or (state.get("answered") and state.get("draft") and not state.get("grounded")):
        return "unsupported"
    if verdict == "ambiguous":
        return "ambiguous"
    return "insufficient"


@traced("refuse")
def refuse(state: CragState) -> CragState:
    """An honest refusal saying why.

    Reads: language_note, search_failed, verdict, kept, evidence_score, refuse_below, draft, grounded, answered,
    search_note, judge_note. Writes: the result fields (refused), refusal, confidence.
    """
    reason = refusal_reason(state)
    text = REFUSALS[reason]
    if reason == "language":
        text = state["language_note"]
    elif reason == "search_failed":
        text = f"{text} ({state.get('search_note', 'the search raised an error')})"
    detail = {"search_failed": state.get("search_note"), "unsupported": "; ".join(state.get("unsupported", []))}.get(
        reason, state.get("judge_note"))
    if reason == "low_confidence":
        detail = low_confidence_note(state.get("evidence_score"), state.get("refuse_below", REFUSAL.crag))
    return {**result(text, "refused", f"{reason}: {detail}" if detail else reason), "refusal": reason,
            "confidence": state.get("evidence_score")}


# ---------------------------------------------------------------- routers (pure functions of the state)
def route_after_check_question(state: CragState) -> Literal["retrieve", "refuse"]:
    """A question the roles cannot read is answered with the language message (policy 5); others are searched."""
    return "refuse" if state.get("language_note") else "retrieve"


def route_after_retrieve(state: CragState) -> Literal["judge", "refuse"]:
    """A search that failed goes straight to an honest refusal; otherwise the judge looks at the results."""
    return "refuse" if state.get("search_failed") else "judge"


def write_or_refuse(state: CragState) -> Literal["write", "refuse"]:
    """Write from the kept documents when the dial lets the run answer; refuse when nothing was kept or the
    judge's evidence score is below ``refuse_below``."""
    return "write" if state.get("kept") and confident(state) else "refuse"


def route_after_judge(state: CragState) -> Literal["write", "correct", "ask_back", "refuse"]:
    """One route per verdict, within the caps; out of corrections or clarifications, go on with what was kept.
    Every way to ``write`` passes the refusal dial (:func:`write_or_refuse`)."""
    verdict, caps = state["verdict"], state["caps"]
    if verdict == "sufficient":
        return write_or_refuse(state)
    if verdict == "insufficient" and state.get("corrections", 0) < caps["corrections"]:
        return "correct"
    if verdict == "ambiguous" and len(state.get("clarifications", [])) < caps["clarifications"]:
        return "ask_back"
    if verdict == "irrelevant":
        return "refuse"
    return write_or_refuse(state)


def route_after_correct(state: CragState) -> Literal["retrieve", "write", "refuse"]:
    """A new query is searched; a stalled correction goes on with what was kept (past the dial), or refuses."""
    if not state.get("stalled"):
        return "retrieve"
    return write_or_refuse(state)


def route_after_write(state: CragState) -> Literal["verify", "refuse"]:
    """An answer goes to the verifier; a writer's refusal (or nothing written) ends in a refusal."""
    return "verify" if state.get("answered") and state.get("draft", "").strip() else "refuse"


def route_after_verify(state: CragState) -> Literal["finish", "revise", "refuse"]:
    """Grounded -> ``finish``; not grounded -> ``revise`` once (``max_revisions``), then ``refuse``."""
    if state.get("grounded"):
        return "finish"
    return "revise" if state.get("revisions", 0) < state["caps"]["revisions"] else "refuse"


# ---------------------------------------------------------------- the graph
def crag_graph(
    retriever: Any,
    *,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    judge: Judge | None = None,
    grader: DocumentGrader | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    reranker: Any | None = None,
    k: int = GRAPHS.k,
    fetch_k: int = GRAPHS.crag_fetch_k,
    max_corrections: int = GRAPHS.crag_max_corrections,
    max_clarifications: int = GRAPHS.crag_max_clarifications,
    max_revisions: int = GRAPHS.crag_max_revisions,
    fallback_keep: int = 3,
    max_question_chars: int = GRAPHS.max_question_chars,
    refuse_below: float = REFUSAL.crag,
    strict: bool = False,
    verifier: HallucinationGrader | None = None,
) -> StateGraph:
    """The CRAG graph, uncompiled, over ``retriever`` (what :func:`ragkit.core.search.as_scored_search` takes;
    the handbook's is ``ragkit.domains.handbook.corpus.handbook_search()``).

    ``grader`` is the document grader the default local judge uses (``judge`` replaces the judge itself);
    ``reranker`` (optional) needs ``rerank_with_scores(query, docs, top_n)``. ``verifier=`` is the old name
    of ``hallucination_grader=`` (deprecated). ``refuse_below`` is the refusal dial: the judge's evidence
    score a run needs to write an answer. ``strict=True`` raises, instead of warning, when ``chat_model``
    cannot return structured output.
    """
    check_positive(k=k, fetch_k=fetch_k, fallback_keep=fallback_keep)
    check_cap(max_corrections=max_corrections, max_clarifications=max_clarifications, max_revisions=max_revisions)
    check_limit(max_question_chars)
    refuse_below = check_threshold(refuse_below)
    if verifier is not None:
        if hallucination_grader is not None:
            raise TypeError("pass hallucination_grader= only (verifier= is its old name)")
        warnings.warn("verifier= is deprecated: pass hallucination_grader=", DeprecationWarning, stacklevel=2)
        hallucination_grader = verifier
    if reranker is not None and not callable(getattr(reranker, "rerank_with_scores", None)):
        raise TypeError(f"reranker must have rerank_with_scores(query, docs, top_n); got {type(reranker).__name__}")
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    grader = choose(grader, DocumentGrader, "grader", model=judging, llm=LLMGrader, local=LocalGrader)
    judge = choose(judge, Judge, "judge", model=judging, llm=LLMJudge, local=lambda: LocalJudge(grader=grader))
    writer = choose(writer, Writer, "writer", model=chat_model, llm=LLMWriter, local=LocalWriter)
    hallucination_grader = choose(hallucination_grader, HallucinationGrader, "hallucination_grader", model=judging,
                                  llm=LLMHallucinationGrader, local=LocalHallucinationGrader)
    rewriter = choose(rewriter, QuestionRewriter, "rewriter", model=chat_model, llm=LLMRewriter, local=LocalRewriter)
    caps = {"corrections": max_corrections, "clarifications": max_clarifications, "revisions": max_revisions}
    search = as_scored_search(retriever, k)

    graph = StateGraph(CragState)
    graph.add_node("refine", check_question_node(BUILDER, max_question_chars, chat_model is not None, start_run(caps, refuse_below),
                                                 name="refine"))
    graph.add_node("retrieve", retrieve_node(search, reranker, k, fetch_k))
    graph.add_node("judge", judge_node(judge, fallback_keep))
    graph.add_node("correct", correct_node(rewriter))
    graph.add_node("ask_back", ask_back)
    graph.add_node("clarify", clarify)
    graph.add_node("write", write_node(writer))
    graph.add_node("verify", verify_node(hallucination_grader))
    graph.add_node("revise", revise_node(writer))
    graph.add_node("finish", finish)
    graph.add_node("refuse", refuse)

    graph.add_edge(START, "refine")
    graph.add_conditional_edges("refine", route_after_check_question)
    graph.add_conditional_edges("retrieve", route_after_retrieve)
    graph.add_conditional_edges("judge", route_after_judge)
    graph.add_conditional_edges("correct", route_after_correct)
    graph.add_edge("ask_back", "clarify")
    graph.add_edge("clarify", "retrieve")
    graph.add_conditional_edges("write", route_after_write)
    graph.add_conditional_edges("revise", route_after_write)
    graph.add_conditional_edges("verify", route_after_verify)
    graph.add_edge("finish", END)
    graph.add_edge("refuse", END)
    return graph


def build_crag_graph(retriever: Any, *, checkpointer: BaseCheckpointSaver | None = None,
                     **options: Any) -> CompiledStateGraph:
    """:func:`crag_graph` compiled (same arguments). The default checkpointer is an ``InMemorySaver`` (the
    ``ambiguous`` pause needs one), so run it on a thread: ``graph.invoke({"question": q}, thread("1"))``,
    or use :func:`run_crag` and :func:`resume_crag`."""
    compiled = crag_graph(retriever, **options).compile(
        checkpointer=checkpointer if checkpointer is not None else InMemorySaver(), name="crag")
    return with_threads(compiled)


# ---------------------------------------------------------------- running and resuming on a thread
def run_crag(graph: Any, question: str, thread_id: str = "crag") -> dict:
    """Ask a question on a thread; the result has ``__interrupt__`` when the graph paused to ask back."""
    return graph.invoke({"question": tidy(question)}, thread(thread_id))


def paused_question(graph: Any, thread_id: str) -> str | None:
    """The clarifying question a paused thread is waiting on, or None if it is not paused."""
    for pending in graph.get_state(thread(thread_id)).interrupts:
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


__all__ = ["REFUSALS", "CragState", "Refusal", "ask_back", "build_crag_graph", "check_clarification",
           "clarify", "confident", "correct_node", "crag_graph", "finish", "judge_node", "paused_question",
           "refusal_reason", "refuse", "resume_crag", "retrieve_node", "revise_node", "route_after_check_question",
           "route_after_correct", "route_after_judge", "route_after_retrieve", "route_after_verify", "route_after_write",
           "run_crag", "start_run", "verify_node", "worst_case_steps", "write_node", "write_or_refuse"]
