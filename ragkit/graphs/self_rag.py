"""Self-RAG: retrieve, keep the relevant documents, write, then check the answer before returning it.

The graph::

    check_question -> retrieve -> grade_documents -> generate | transform_query
    transform_query -> retrieve | generate            (a rewrite already searched is not searched again)
    generate -> grade_generation -> finish -> END     (grounded and useful)
                                 -> generate          (not grounded: write again, unless it repeated itself)
                                 -> transform_query   (grounded but not useful: search again)
                                 -> give_up -> END    (budget spent)

Every loop is paid for from one budget: ``attempts`` counts generations plus rewrites and may not pass
``max_attempts`` (a state field); a rewrite is taken only when a generation still fits after it, so a run
always ends with an answer. Out of budget, ``give_up`` returns the best answer seen, saying it was NOT
verified. The refusal dial acts last (:data:`ragkit.defaults.REFUSAL`).

The roles are passed in or picked by :func:`ragkit.roles.protocols.choose`: yours, else the LLM role on
``chat_model`` (the judging ones on ``judge_model`` when given), else the local one.

What it cannot do: the Self-RAG paper trains one model to emit reflection tokens; here separate graders
play those parts, and the local ones cannot tell an on-topic passage that lacks the answer from one that
has it (SQuAD 2.0 "impossible" questions are mostly answered). Documents are told apart by their text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypedDict

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from ragkit.core.contract import (
    RAGResult,
    answers_at,
    best_score,
    check_cap,
    check_limit,
    check_positive,
    check_question_node,
    check_steps,
    check_threshold,
    low_confidence_note,
    result,
    traced,
    unsupported_language,
)
from ragkit.core.nlp import same_query
from ragkit.core.search import ScoredSearch, as_scored_search, run_search
from ragkit.defaults import GRAPHS, REFUSAL
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.answer_grader_protocols import AnswerGrader
from ragkit.roles.llm import (
    LLMGrader,
    LLMHallucinationGrader,
    LLMRewriter,
    LLMWriter,
    check_chat_model,
)
from ragkit.roles.llm_answer_grader import LLMAnswerGrader
from ragkit.roles.protocols import (
    NOT_ENOUGH_INFORMATION,
    Answer,
    DocumentGrader,
    Grade,
    HallucinationGrader,
    QuestionRewriter,
    Writer,
    choose,
)

BUILDER = "build_self_rag_graph"


class Candidate(TypedDict):
    """One generation, the documents it was written from, and what the graders said about it."""

    generation: str
    answer: Answer
    documents: list[Document]
    grounded: bool
    useful: bool
    score: float
    note: str
    evidence: float  # the grader's best score among ``documents``: the run's confidence if this is delivered


class SelfRAGState(RAGResult, total=False):
    """State of the Self-RAG graph; the result fields (answer, sources, outcome, ...) come from ``RAGResult``."""

    query: str  # what is searched for (the question, then its rewrites)
    searched: list[str]  # every query searched so far in this run
    repeated_query: bool  # the last rewrite was a query already searched, so it was not searched again
    retrieved: list[Document]  # what the last search returned
    documents: list[Document]  # after grade_documents: the relevant ones (or the fallback)
    grades: list[Grade]
    rejected: list[tuple[float, Document]]  # every document the grader rejected in this run, best score first
    relevance_fallback: bool  # True when ``documents`` are the best rejected ones (no document passed)
    evidence_score: float  # the grader's best score among ``documents`` (0.0 for none)
    refuse_below: float  # the refusal dial (the builder's refuse_below)
    retrieval_note: str
    draft: Answer  # the last generation
    generation: str  # its text
    grounded: bool
    useful: bool
    note: str  # what the graders said about the last generation
    candidates: list[Candidate]
    attempts: int  # generations + rewrites so far
    generations: int
    rewrites: int
    max_attempts: int
    gave_up: bool


# ---------------------------------------------------------------- the budget
def worst_case_steps(max_attempts: int) -> int:
    """The ``recursion_limit`` a run needs at most (LangGraph counts one step per node, plus its start step).

    The longest run rewrites ``max_attempts - 1`` times and generates once: 3 nodes to start, 3 per
    rewrite, 2 to generate and grade, 1 to finish or give up.

    >>> worst_case_steps(3)
    13
    """
    return 3 * max_attempts + 4


def can_rewrite(state: SelfRAGState) -> bool:
    """A rewrite is allowed only if a generation still fits in the budget after it.

    >>> can_rewrite({"attempts": 1, "max_attempts": 3}), can_rewrite({"attempts": 2, "max_attempts": 3})
    (True, False)
    """
    return state.get("attempts", 0) + 2 <= state.get("max_attempts", GRAPHS.self_rag_max_attempts)


def can_generate(state: SelfRAGState) -> bool:
    """Another generation is allowed while attempts stay within the budget.

    >>> can_generate({"attempts": 2, "max_attempts": 3}), can_generate({"attempts": 3, "max_attempts": 3})
    (True, False)
    """
    return state.get("attempts", 0) + 1 <= state.get("max_attempts", GRAPHS.self_rag_max_attempts)


def merge_rejected(earlier: list[tuple[float, Document]], new: list[tuple[float, Document]]) -> list[tuple[float, Document]]:
    """All rejected documents of the run, once each (by text, keeping the best score), best score first.

    >>> a, b = Document(page_content="a"), Document(page_content="b")
    >>> [(s, d.page_content) for s, d in merge_rejected([(0.2, a)], [(0.3, b), (0.1, a)])]
    [(0.3, 'b'), (0.2, 'a')]
    """
    best: dict[str, tuple[float, Document]] = {}
    for score, doc in [*earlier, *new]:
        if doc.page_content not in best or score > best[doc.page_content][0]:
            best[doc.page_content] = (float(score), doc)
    return sorted(best.values(), key=lambda pair: -pair[0])  # stable: ties keep the order they were met


def best_candidate(candidates: list[Candidate]) -> Candidate:
    """The best answer seen: grounded first, then useful, then the higher score; the latest wins ties.

    >>> a = {"generation": "a", "grounded": False, "useful": False, "score": 0.9}
    >>> b = {"generation": "b", "grounded": True, "useful": False, "score": 0.1}
    >>> best_candidate([a, b])["generation"]
    'b'
    """
    return max(reversed(candidates), key=lambda c: (c["grounded"], c["useful"], c["score"]))


# ---------------------------------------------------------------- nodes
def start_run(default_max_attempts: int,
              refuse_below: float = REFUSAL.self_rag) -> Callable[[dict, RunnableConfig, str], SelfRAGState]:
    """What the entry node adds: the budget (checked against ``recursion_limit``), fresh counters, the dial."""

    def start(state: dict, config: RunnableConfig, question: str) -> SelfRAGState:
        cap = state.get("max_attempts", default_max_attempts)
        check_positive(max_attempts=cap)
        check_steps(config, worst_case_steps(cap), max_attempts=cap)
        return {"query": question, "attempts": 0, "generations": 0, "rewrites": 0, "max_attempts": cap,
                "candidates": [], "rejected": [], "relevance_fallback": False, "gave_up": False, "note": "",
                "searched": [], "repeated_query": False, "evidence_score": 0.0, "confidence": None,
                "refuse_below": refuse_below}

    return start


def retrieve_node(search: ScoredSearch, k: int = GRAPHS.k) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``retrieve`` node around scored search (:class:`ragkit.core.search.ScoredSearch`)."""

    @traced("retrieve")
    def retrieve(state: SelfRAGState) -> SelfRAGState:
        """Search for the current query; a failing search gives no documents and a note, not a crash.

        Reads: query, searched. Writes: retrieved, documents, retrieval_note, searched.
        """
        outcome = run_search(search, state["query"], k, what="retrieval")
        note = outcome.note if outcome.failed else f"{len(outcome.documents)} documents for {state['query']!r}"
        return {"retrieved": outcome.documents, "documents": outcome.documents, "retrieval_note": note,
                "searched": [*(state.get("searched") or []), state["query"]]}

    return retrieve


def grade_documents_node(grader: DocumentGrader, fallback_documents: int) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``grade_documents`` node around a document grader."""

    @traced("grade_documents")
    def grade_documents(state: SelfRAGState) -> SelfRAGState:
        """Keep the documents the grader finds relevant; when none passes and no rewrite is left, the
        ``fallback_documents`` best the grader rejected in this run (``relevance_fallback`` says so).

        Reads: question, documents, rejected, attempts, max_attempts.
        Writes: documents, grades, rejected, relevance_fallback, evidence_score.
        """
        docs = state.get("documents") or []
        grades = list(grader.grade_many(state["question"], docs)) if docs else []
        kept = [d for d, g in zip(docs, grades) if g.relevant]
        evidence = best_score([g.score for g in grades if g.relevant])
        rejected = merge_rejected(state.get("rejected") or [],
                                  [(g.score, d) for d, g in zip(docs, grades) if not g.relevant])
        fallback = not kept and not can_rewrite(state) and fallback_documents > 0 and bool(rejected)
        if fallback:
            kept = [d for _, d in rejected[:fallback_documents]]
            evidence = best_score([score for score, _ in rejected[:fallback_documents]])
        return {"documents": kept, "grades": grades, "rejected": rejected, "relevance_fallback": fallback,
                "evidence_score": evidence}

    return grade_documents


def transform_query_node(rewriter: QuestionRewriter, fallback_documents: int = 0) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``transform_query`` node around a question rewriter."""

    @traced("transform_query")
    def transform_query(state: SelfRAGState) -> SelfRAGState:
        """Rewrite the current query for a better search; counts as one attempt.

        The rewriter sees only the kept documents (rejected ones would pull the search back to them). A rewrite
        this run already searched (a deterministic rewriter reaches a fixed point) is not searched again:
        ``repeated_query`` is set and the writer gets the ``fallback_documents`` best rejected documents.

        Reads: question, query, searched, documents, rejected, relevance_fallback, attempts, rewrites.
        Writes: query, attempts, rewrites, repeated_query (and documents, relevance_fallback, evidence_score on
        a repeat).
        """
        feedback = [] if state.get("relevance_fallback") else (state.get("documents") or [])
        query = rewriter.rewrite(state["query"], feedback)
        query = query.strip() if isinstance(query, str) and query.strip() else state["query"]
        update: SelfRAGState = {"query": query, "attempts": state.get("attempts", 0) + 1,
                                "rewrites": state.get("rewrites", 0) + 1, "repeated_query": False}
        if any(same_query(query, earlier) for earlier in state.get("searched") or [state["query"]]):
            rejected = state.get("rejected") or []
            update.update(repeated_query=True, documents=[d for _, d in rejected[:fallback_documents]],
                          relevance_fallback=bool(rejected) and fallback_documents > 0,
                          evidence_score=best_score([score for score, _ in rejected[:fallback_documents]]))
        return update

    return transform_query


def generate_node(writer: Writer) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``generate`` node around a writer."""

    @traced("generate")
    def generate(state: SelfRAGState) -> SelfRAGState:
        """Answer the original question from the kept documents; counts as one attempt.

        Reads: question, documents, attempts, generations. Writes: draft, generation, attempts, generations.
        """
        draft = writer.write(state["question"], state.get("documents") or [])
        return {"draft": draft, "generation": draft.text, "attempts": state.get("attempts", 0) + 1,
                "generations": state.get("generations", 0) + 1}

    return generate


def grade_generation_node(hallucination_grader: HallucinationGrader,
                          answer_grader: AnswerGrader) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``grade_generation`` node: groundedness first, usefulness only for grounded answers."""

    @traced("grade_generation")
    def grade_generation(state: SelfRAGState) -> SelfRAGState:
        """Check the draft against the documents, then against the question.

        Reads: question, documents, draft, generation, candidates, relevance_fallback, evidence_score.
        Writes: grounded, useful, note, candidates.
        """
        draft, text, documents = state["draft"], state["generation"], state.get("documents") or []
        if not draft.answered:  # an honest "not enough information" claims nothing, and answers nothing
            grounded, useful, score, note = True, False, 0.0, "the writer found no answer in the documents"
        else:
            check = hallucination_grader.check(documents, text)
            grounded, useful, score = check.grounded, False, check.score
            note = check.note or ("grounded" if grounded else f"{len(check.unsupported)} unsupported sentence(s)")
            if grounded:
                usefulness = answer_grader.grade(state["question"], text)
                useful, score = usefulness.useful, check.score + usefulness.score
                note = usefulness.note or ("useful" if useful else "does not answer the question")
        if grounded and useful:
            note = f"checked: grounded in the documents and answers the question ({note})"
        if state.get("relevance_fallback"):
            note += "; written from the best-scored documents, as none passed the relevance grader"
        candidate: Candidate = {"generation": text, "answer": draft, "documents": list(documents), "grounded": grounded,
                                "useful": useful, "score": float(score), "note": note,
                                "evidence": float(state.get("evidence_score", 0.0))}
        return {"grounded": grounded, "useful": useful, "note": note,
                "candidates": [*(state.get("candidates") or []), candidate]}

    return grade_generation


def refused_below_bar(confidence: float, refuse_below: float) -> SelfRAGState:
    """The refusal dial's result: no answer, and why."""
    return {**result(NOT_ENOUGH_INFORMATION, "refused", f"low confidence: {low_confidence_note(confidence, refuse_below)}"),
            "confidence": confidence}


@traced("finish")
def finish(state: SelfRAGState) -> SelfRAGState:
    """Deliver the checked answer, when its confidence reaches the refusal dial (else refuse).

    Reads: draft, documents, note, evidence_score, refuse_below. Writes: the result fields (answered), confidence.
    """
    draft, confidence = state["draft"], state.get("evidence_score", 0.0)
    bar = state.get("refuse_below", REFUSAL.self_rag)
    if not answers_at(confidence, bar):
        return refused_below_bar(confidence, bar)
    return {**result(draft.text, "answered", state["note"], state.get("documents") or [], draft.citations),
            "confidence": confidence}


@traced("give_up")
def give_up(state: SelfRAGState) -> SelfRAGState:
    """Out of budget: the best answer seen, saying plainly that it was not verified (or the dial's refusal).

    Reads: candidates, attempts, generations, rewrites, refuse_below. Writes: the result fields, confidence,
    generation, gave_up.
    """
    best = best_candidate(state["candidates"])
    confidence, bar = best.get("evidence", 0.0), state.get("refuse_below", REFUSAL.self_rag)
    if best["answer"].answered and not answers_at(confidence, bar):
        return {**refused_below_bar(confidence, bar), "generation": best["generation"], "gave_up": True}
    status = "grounded but not judged useful" if best["grounded"] else "NOT grounded in the documents"

    def count(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    reason = (f"gave up checking after {count(state.get('attempts', 0), 'attempt')} "
              f"({count(state.get('generations', 0), 'generation')}, {count(state.get('rewrites', 0), 'rewrite')}): "
              f"this is the best answer found, and it is {status}.")
    draft = best["answer"]
    outcome = "answered" if draft.answered else "refused"
    return {**result(draft.text, outcome, reason, best["documents"], draft.citations),
            "generation": best["generation"], "gave_up": True, "confidence": confidence}


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


def route_after_grade_generation(state: SelfRAGState) -> Literal["finish", "generate", "transform_query", "give_up"]:
    """Useful -> ``finish``; not grounded -> ``generate``; not useful -> ``transform_query``; no budget -> ``give_up``.

    If the writer just repeated an answer it already gave (a deterministic writer does, given the same
    documents), writing again cannot help, so an ungrounded repeat is treated like a useless answer.
    """
    if state.get("grounded") and state.get("useful"):
        return "finish"
    if not state.get("grounded"):
        earlier = [c["generation"] for c in (state.get("candidates") or [])[:-1]]
        if state.get("generation") not in earlier:
            return "generate" if can_generate(state) else "give_up"
    return "transform_query" if can_rewrite(state) else "give_up"


# ---------------------------------------------------------------- the graph
def self_rag_graph(
    retriever: Any,
    *,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    grader: DocumentGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    answer_grader: AnswerGrader | None = None,
    max_attempts: int = GRAPHS.self_rag_max_attempts,
    k: int = GRAPHS.k,
    max_question_chars: int = GRAPHS.max_question_chars,
    fallback_documents: int = 0,
    refuse_below: float = REFUSAL.self_rag,
    strict: bool = False,
) -> StateGraph:
    """The Self-RAG graph, uncompiled (add a node, then ``.compile()``), over ``retriever``.

    ``retriever`` is anything :func:`ragkit.core.search.as_scored_search` takes (the handbook's is
    ``ragkit.domains.handbook.corpus.handbook_search()``). A run can override ``max_attempts`` in its input.
    ``refuse_below``: the relevance score an answer's best document needs. ``fallback_documents=n`` hands the
    writer the n best rejected documents when nothing passed and no rewrite is left (off: why in
    ``benchmarks/self_rag/README.md``). ``strict=True``: raise, not warn, when ``chat_model`` cannot do
    structured output.
    """
    check_cap(fallback_documents=fallback_documents)
    check_limit(max_question_chars)
    refuse_below = check_threshold(refuse_below)
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    grader = choose(grader, DocumentGrader, "grader", model=judging, llm=LLMGrader, local=LocalGrader)
    rewriter = choose(rewriter, QuestionRewriter, "rewriter", model=chat_model, llm=LLMRewriter, local=LocalRewriter)
    writer = choose(writer, Writer, "writer", model=chat_model, llm=LLMWriter, local=LocalWriter)
    hallucination_grader = choose(hallucination_grader, HallucinationGrader, "hallucination_grader", model=judging,
                                  llm=LLMHallucinationGrader, local=LocalHallucinationGrader)
    answer_grader = choose(answer_grader, AnswerGrader, "answer_grader", model=judging, llm=LLMAnswerGrader,
                           local=LocalAnswerGrader)
    search = as_scored_search(retriever, k)

    graph = StateGraph(SelfRAGState)
    graph.add_node("check_question", check_question_node(BUILDER, max_question_chars, chat_model is not None,
                                                         start_run(max_attempts, refuse_below)))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("retrieve", retrieve_node(search, k))
    graph.add_node("grade_documents", grade_documents_node(grader, fallback_documents))
    graph.add_node("transform_query", transform_query_node(rewriter, fallback_documents))
    graph.add_node("generate", generate_node(writer))
    graph.add_node("grade_generation", grade_generation_node(hallucination_grader, answer_grader))
    graph.add_node("finish", finish)
    graph.add_node("give_up", give_up)

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_edge("retrieve", "grade_documents")
    graph.add_conditional_edges("grade_documents", route_after_grade_documents)
    graph.add_conditional_edges("transform_query", route_after_transform_query)
    graph.add_edge("generate", "grade_generation")
    graph.add_conditional_edges("grade_generation", route_after_grade_generation)
    graph.add_edge("finish", END)
    graph.add_edge("give_up", END)
    return graph


def build_self_rag_graph(retriever: Any, *, checkpointer: Any | None = None,
                         **options: Any) -> CompiledStateGraph:
    """:func:`self_rag_graph` compiled (same arguments), with an optional LangGraph checkpointer."""
    return self_rag_graph(retriever, **options).compile(checkpointer=checkpointer, name="self_rag")


__all__ = ["Candidate", "SelfRAGState", "best_candidate", "build_self_rag_graph", "can_generate", "can_rewrite",
           "finish", "generate_node", "give_up", "grade_documents_node", "grade_generation_node", "merge_rejected",
           "refused_below_bar", "retrieve_node", "route_after_check_question", "route_after_grade_documents", "route_after_grade_generation",
           "route_after_transform_query", "self_rag_graph", "start_run", "transform_query_node", "worst_case_steps"]
