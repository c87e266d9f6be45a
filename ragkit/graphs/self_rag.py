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

Where validation happens: the entry node ``check_question`` rejects an empty or oversized question
(:func:`ragkit.text.clean_query`) and a ``max_attempts`` the run's ``recursion_limit`` could not finish
(see :func:`worst_case_steps`), with a ``ValueError``, before anything is retrieved.

Simplifications: the original Self-RAG paper trains one model to emit reflection tokens; here separate
graders (local or LLM) play those parts. An answer that says "not enough information" is treated as
grounded (it claims nothing) but not useful, so it triggers a rewrite while the budget lasts.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Literal, TypedDict

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from ragkit.graphs.trace import add_path, traced
from ragkit.roles.base import (
    Answer,
    AnswerGrader,
    DocumentGrader,
    Grade,
    HallucinationGrader,
    QuestionRewriter,
    Writer,
)
from ragkit.text import clean_query

DEFAULT_MAX_ATTEMPTS = 3


class Candidate(TypedDict):
    """One generation and what the graders said about it."""

    generation: str
    answer: Answer
    grounded: bool
    useful: bool
    score: float


class SelfRAGState(TypedDict, total=False):
    """State of the Self-RAG graph (``path``/``timings`` are filled by :func:`ragkit.graphs.trace.traced`)."""

    question: str  # the user's question, answered and graded against
    query: str  # what is searched for (the question, then its rewrites)
    retrieved: list[Document]  # what the last search returned (feedback for the rewriter)
    documents: list[Document]  # after grade_documents: only the relevant ones
    grades: list[Grade]
    retrieval_note: str
    generation: str
    answer: Answer
    grounded: bool
    useful: bool
    candidates: list[Candidate]
    attempts: int  # generations + rewrites so far
    generations: int
    rewrites: int
    max_attempts: int
    gave_up: bool
    note: str
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


def worst_case_steps(max_attempts: int) -> int:
    """The ``recursion_limit`` a run needs at most (LangGraph counts one step per node, plus its start step).

    Nodes: 3 to start (check_question, retrieve, grade_documents), 3 per rewrite, 2 per generation and 1 to
    give up. The longest run rewrites ``max_attempts - 1`` times and generates once: 3 + 3(n-1) + 2 + 1 nodes.

    >>> worst_case_steps(3)
    13
    """
    return 3 * max_attempts + 4


def can_rewrite(state: SelfRAGState) -> bool:
    """A rewrite is allowed only if a generation still fits in the budget after it.

    >>> can_rewrite({"attempts": 1, "max_attempts": 3}), can_rewrite({"attempts": 2, "max_attempts": 3})
    (True, False)
    """
    return state.get("attempts", 0) + 2 <= state.get("max_attempts", DEFAULT_MAX_ATTEMPTS)


def can_generate(state: SelfRAGState) -> bool:
    """Another generation is allowed while attempts stay within the budget.

    >>> can_generate({"attempts": 2, "max_attempts": 3}), can_generate({"attempts": 3, "max_attempts": 3})
    (True, False)
    """
    return state.get("attempts", 0) + 1 <= state.get("max_attempts", DEFAULT_MAX_ATTEMPTS)


# ---------------------------------------------------------------- nodes and routers
def check_question_node(default_max_attempts: int) -> Callable[..., SelfRAGState]:
    """Build the validating entry node (it needs the run's config to read ``recursion_limit``)."""

    @traced("check_question")
    def check_question(state: SelfRAGState, config: RunnableConfig) -> SelfRAGState:
        """Validate the question and the budget; reset the counters.

        Reads: question, max_attempts. Writes: question, query, attempts, generations, rewrites,
        max_attempts, candidates, gave_up, note.
        """
        question = clean_query(state.get("question"), what="question")
        cap = state.get("max_attempts", default_max_attempts)
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"max_attempts must be a positive integer (generations + rewrites), got {cap!r}")
        limit = (config or {}).get("recursion_limit")
        if isinstance(limit, int) and limit < worst_case_steps(cap):
            raise ValueError(
                f"max_attempts={cap} can take up to {worst_case_steps(cap)} graph steps but recursion_limit "
                f"is {limit}; lower max_attempts or pass config={{'recursion_limit': {worst_case_steps(cap)}}}"
            )
        return {"question": question, "query": question, "attempts": 0, "generations": 0, "rewrites": 0,
                "max_attempts": cap, "candidates": [], "gave_up": False, "note": ""}

    return check_question


def retrieve_node(retriever: Any) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``retrieve`` node around a retriever (``.invoke``) or a ``query -> docs`` function."""
    search = retriever.invoke if hasattr(retriever, "invoke") else retriever

    @traced("retrieve")
    def retrieve(state: SelfRAGState) -> SelfRAGState:
        """Search for the current query; a failing search gives no documents and a note, not a crash.

        Reads: query. Writes: retrieved, documents, retrieval_note.
        """
        try:
            docs = list(search(state["query"]))
        except Exception as err:  # noqa: BLE001 - reported in state, never raised
            return {"retrieved": [], "documents": [], "retrieval_note": f"retrieval failed ({type(err).__name__}: {err})"}
        return {"retrieved": docs, "documents": docs, "retrieval_note": f"{len(docs)} documents for {state['query']!r}"}

    return retrieve


def grade_documents_node(grader: DocumentGrader) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``grade_documents`` node around a document grader."""

    @traced("grade_documents")
    def grade_documents(state: SelfRAGState) -> SelfRAGState:
        """Keep only the documents the grader finds relevant to the question.

        Reads: question, documents. Writes: documents, grades.
        """
        docs = state.get("documents") or []
        grades = grader.grade_many(state["question"], docs) if docs else []
        return {"documents": [d for d, g in zip(docs, grades) if g.relevant], "grades": list(grades)}

    return grade_documents


def route_after_grade_documents(state: SelfRAGState) -> Literal["generate", "transform_query"]:
    """Relevant documents -> ``generate``; none -> ``transform_query`` while the budget allows one."""
    if state.get("documents") or not can_rewrite(state):
        return "generate"
    return "transform_query"


def transform_query_node(rewriter: QuestionRewriter) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``transform_query`` node around a question rewriter."""

    @traced("transform_query")
    def transform_query(state: SelfRAGState) -> SelfRAGState:
        """Rewrite the current query for a better search; counts as one attempt.

        The rewriter sees what the last search returned (even the documents graded irrelevant): a
        pseudo-relevance-feedback rewriter learns which words the corpus uses from them.

        Reads: query, retrieved, attempts, rewrites. Writes: query, attempts, rewrites.
        """
        query = rewriter.rewrite(state["query"], state.get("retrieved") or [])
        query = query.strip() if isinstance(query, str) and query.strip() else state["query"]
        return {"query": query, "attempts": state.get("attempts", 0) + 1, "rewrites": state.get("rewrites", 0) + 1}

    return transform_query


def generate_node(writer: Writer) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``generate`` node around a writer."""

    @traced("generate")
    def generate(state: SelfRAGState) -> SelfRAGState:
        """Answer the original question from the kept documents; counts as one attempt.

        Reads: question, documents, attempts, generations. Writes: answer, generation, attempts, generations.
        """
        answer = writer.write(state["question"], state.get("documents") or [])
        return {"answer": answer, "generation": answer.text, "attempts": state.get("attempts", 0) + 1,
                "generations": state.get("generations", 0) + 1}

    return generate


def grade_generation_node(
    hallucination_grader: HallucinationGrader, answer_grader: AnswerGrader
) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``grade_generation`` node: groundedness first, usefulness only for grounded answers."""

    @traced("grade_generation")
    def grade_generation(state: SelfRAGState) -> SelfRAGState:
        """Check the answer against the documents, then against the question.

        Reads: question, documents, answer, generation, candidates. Writes: grounded, useful, candidates, note.
        """
        answer, text = state["answer"], state["generation"]
        if not answer.answered:  # an honest "not enough information" claims nothing, and answers nothing
            grounded, useful, score, note = True, False, 0.0, "the writer found no answer in the documents"
        else:
            check = hallucination_grader.check(state.get("documents") or [], text)
            grounded, useful, score = check.grounded, False, check.score
            note = check.note or ("grounded" if grounded else f"{len(check.unsupported)} unsupported sentence(s)")
            if grounded:
                usefulness = answer_grader.grade(state["question"], text)
                useful, score = usefulness.useful, check.score + usefulness.score
                note = usefulness.note or ("useful" if useful else "does not answer the question")
        candidate: Candidate = {"generation": text, "answer": answer, "grounded": grounded, "useful": useful,
                                "score": float(score)}
        if grounded and useful:
            note = f"checked: grounded in the documents and answers the question ({note})"
        return {"grounded": grounded, "useful": useful, "note": note,
                "candidates": [*(state.get("candidates") or []), candidate]}

    return grade_generation


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


def best_candidate(candidates: list[Candidate]) -> Candidate:
    """The best answer seen: grounded first, then useful, then the higher score; the latest wins ties.

    >>> a = {"generation": "a", "grounded": False, "useful": False, "score": 0.9}
    >>> b = {"generation": "b", "grounded": True, "useful": False, "score": 0.1}
    >>> best_candidate([a, b])["generation"]
    'b'
    """
    return max(reversed(candidates), key=lambda c: (c["grounded"], c["useful"], c["score"]))


@traced("give_up")
def give_up(state: SelfRAGState) -> SelfRAGState:
    """Out of budget: return the best answer seen and say plainly that it was not verified.

    Reads: candidates, attempts, generations, rewrites. Writes: generation, answer, gave_up, note.
    """
    best = best_candidate(state["candidates"])
    status = "grounded but not judged useful" if best["grounded"] else "NOT grounded in the documents"
    def count(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    note = (f"gave up checking after {count(state.get('attempts', 0), 'attempt')} "
            f"({count(state.get('generations', 0), 'generation')}, {count(state.get('rewrites', 0), 'rewrite')}): "
            f"this is the best answer found, and it is {status}.")
    return {"generation": best["generation"], "answer": best["answer"], "gave_up": True, "note": note}


# ---------------------------------------------------------------- defaults and builder
def default_handbook_retriever(k: int = 4) -> Any:
    """ragkit's hybrid retriever (BM25 + MiniLM dense, RRF) over the bundled handbook, one section per document."""
    from ragkit.graphs.adaptive_rag import default_retriever

    return default_retriever("handbook", k)


class _LazyRetriever:
    """Builds the default retriever on the first search, so building the graph stays cheap."""

    def __init__(self, k: int) -> None:
        self.k, self._retriever = k, None

    def __call__(self, query: str) -> list[Document]:
        if self._retriever is None:
            self._retriever = default_handbook_retriever(self.k)
        return list(self._retriever.invoke(query))


def build_self_rag_graph(
    retriever: Any | None = None,
    grader: DocumentGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    answer_grader: AnswerGrader | None = None,
    chat_model: BaseChatModel | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    k: int = 4,
    checkpointer: Any | None = None,
) -> Any:
    """Compile the Self-RAG graph; every role left as None gets its local default (or LLM one with ``chat_model``).

    ``max_attempts`` is the default budget; a run can override it with ``{"max_attempts": n}`` in its input.
    """
    from ragkit import roles

    llm = chat_model is not None
    grader = grader or (roles.LLMGrader(chat_model) if llm else roles.LocalGrader())
    rewriter = rewriter or (roles.LLMRewriter(chat_model) if llm else roles.LocalRewriter())
    writer = writer or (roles.LLMWriter(chat_model) if llm else roles.LocalWriter())
    hallucination_grader = hallucination_grader or (
        roles.LLMHallucinationGrader(chat_model) if llm else roles.LocalHallucinationGrader())
    answer_grader = answer_grader or (roles.LLMAnswerGrader(chat_model) if llm else roles.LocalAnswerGrader())

    graph = StateGraph(SelfRAGState)
    graph.add_node("check_question", check_question_node(max_attempts))
    graph.add_node("retrieve", retrieve_node(retriever if retriever is not None else _LazyRetriever(k)))
    graph.add_node("grade_documents", grade_documents_node(grader))
    graph.add_node("transform_query", transform_query_node(rewriter))
    graph.add_node("generate", generate_node(writer))
    graph.add_node("grade_generation", grade_generation_node(hallucination_grader, answer_grader))
    graph.add_node("give_up", give_up)

    graph.add_edge(START, "check_question")
    graph.add_edge("check_question", "retrieve")
    graph.add_edge("retrieve", "grade_documents")
    graph.add_conditional_edges("grade_documents", route_after_grade_documents)
    graph.add_edge("transform_query", "retrieve")
    graph.add_edge("generate", "grade_generation")
    graph.add_conditional_edges("grade_generation", route_after_grade_generation)
    graph.add_edge("give_up", END)
    return graph.compile(checkpointer=checkpointer)


__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "SelfRAGState",
    "best_candidate",
    "build_self_rag_graph",
    "can_generate",
    "can_rewrite",
    "give_up",
    "route_after_grade_documents",
    "route_after_grade_generation",
    "worst_case_steps",
]
