"""The parts of the Self-RAG graph: its state, its budget, and its nodes (the builder is in ``self_rag``).

Each node is built by a small factory that closes over the role it needs, and returns only the state keys
it changed. The budget helpers say whether another rewrite or generation still fits in ``max_attempts``.

Simplifications: documents are told apart by their text (two Documents with the same ``page_content``
are one document when the graph remembers what the grader rejected).
"""

from __future__ import annotations

from typing import Annotated, Callable, TypedDict

from langchain_core.documents import Document
from langchain_core.runnables import RunnableConfig

from ragkit.core import contract as policy
from ragkit.core.contract import add_path, traced
from ragkit.core.search import ScoredSearch
from ragkit.defaults import GRAPHS
from ragkit.graphs.crag_helpers import same_query
from ragkit.roles.base import Answer, AnswerGrader, DocumentGrader, Grade, HallucinationGrader, QuestionRewriter, Writer

DEFAULT_MAX_ATTEMPTS = GRAPHS.self_rag_max_attempts
DEFAULT_FALLBACK_DOCUMENTS = 0  # off: see the measured trade-off in ragkit.graphs.self_rag


class Candidate(TypedDict):
    """One generation and what the graders said about it."""

    generation: str
    answer: Answer
    grounded: bool
    useful: bool
    score: float


class SelfRAGState(TypedDict, total=False):
    """State of the Self-RAG graph (``path``/``timings`` are filled by :func:`ragkit.core.contract.traced`)."""

    question: str  # the user's question, answered and graded against
    language_note: str | None  # set when the local roles cannot read the question's language
    query: str  # what is searched for (the question, then its rewrites)
    searched: list[str]  # every query searched so far in this run
    repeated_query: bool  # the last rewrite was a query already searched, so it was not searched again
    retrieved: list[Document]  # what the last search returned
    documents: list[Document]  # after grade_documents: the relevant ones (or the fallback, see below)
    grades: list[Grade]
    rejected: list[tuple[float, Document]]  # every document the grader rejected in this run, best score first
    relevance_fallback: bool  # True when `documents` are the best rejected ones (no document passed)
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


@traced("unsupported_language")
def unsupported_language(state: SelfRAGState) -> SelfRAGState:
    """Say plainly which language the offline models read (policy 5).

    Reads: language_note. Writes: generation, answer, note.
    """
    note = state["language_note"]
    return {"generation": note, "answer": Answer(note, (), answered=False), "note": note}


# ---------------------------------------------------------------- the budget
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


def merge_rejected(
    earlier: list[tuple[float, Document]], new: list[tuple[float, Document]]
) -> list[tuple[float, Document]]:
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


# ---------------------------------------------------------------- nodes
def check_question_node(default_max_attempts: int, max_chars: int = GRAPHS.max_question_chars,
                        chat_model_set: bool = False) -> Callable[..., SelfRAGState]:
    """Build the validating entry node (it needs the run's config to read ``recursion_limit``)."""

    @traced("check_question")
    def check_question(state: SelfRAGState, config: RunnableConfig) -> SelfRAGState:
        """Validate the question and the budget; reset the counters.

        Reads: question, max_attempts. Writes: question, language_note, query, attempts, generations,
        rewrites, max_attempts, candidates, rejected, relevance_fallback, gave_up, note.
        """
        question = policy.check_question(state.get("question"), max_chars, "build_self_rag_graph")
        cap = state.get("max_attempts", default_max_attempts)
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"max_attempts must be a positive integer (generations + rewrites), got {cap!r}")
        limit = (config or {}).get("recursion_limit")
        if isinstance(limit, int) and limit < worst_case_steps(cap):
            raise ValueError(
                f"max_attempts={cap} can take up to {worst_case_steps(cap)} graph steps but recursion_limit "
                f"is {limit}; lower max_attempts or pass config={{'recursion_limit': {worst_case_steps(cap)}}}"
            )
        return {"question": question, "language_note": policy.language_note(question, chat_model_set),
                "query": question, "attempts": 0, "generations": 0, "rewrites": 0,
                "max_attempts": cap, "candidates": [], "rejected": [], "relevance_fallback": False,
                "gave_up": False, "note": "", "searched": [], "repeated_query": False}

    return check_question


def retrieve_node(search: ScoredSearch, k: int = GRAPHS.k) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``retrieve`` node around scored search (see :mod:`ragkit.graphs.search_sources`)."""

    @traced("retrieve")
    def retrieve(state: SelfRAGState) -> SelfRAGState:
        """Search for the current query; a failing search gives no documents and a note, not a crash.

        Reads: query, searched. Writes: retrieved, documents, retrieval_note, searched.
        """
        outcome = policy.run_search(search, state["query"], k, what="retrieval")
        note = outcome.note if outcome.failed else f"{len(outcome.documents)} documents for {state['query']!r}"
        return {"retrieved": outcome.documents, "documents": outcome.documents, "retrieval_note": note,
                "searched": [*(state.get("searched") or []), state["query"]]}

    return retrieve


def grade_documents_node(grader: DocumentGrader, fallback_documents: int) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``grade_documents`` node around a document grader."""

    @traced("grade_documents")
    def grade_documents(state: SelfRAGState) -> SelfRAGState:
        """Keep only the documents the grader finds relevant to the question.

        The last chance: when none passes and no rewrite is left, keep instead the ``fallback_documents``
        best-scored documents the grader rejected during the whole run (a relevance grader tuned for
        recall still drops some good documents). The writer's own support bar and the two checks after it
        still decide whether anything in them answers the question; ``relevance_fallback`` says it happened.

        Reads: question, documents, rejected, attempts, max_attempts.
        Writes: documents, grades, rejected, relevance_fallback.
        """
        docs = state.get("documents") or []
        grades = list(grader.grade_many(state["question"], docs)) if docs else []
        kept = [d for d, g in zip(docs, grades) if g.relevant]
        rejected = merge_rejected(state.get("rejected") or [],
                                  [(g.score, d) for d, g in zip(docs, grades) if not g.relevant])
        fallback = not kept and not can_rewrite(state) and fallback_documents > 0 and bool(rejected)
        if fallback:
            kept = [d for _, d in rejected[:fallback_documents]]
        return {"documents": kept, "grades": grades, "rejected": rejected, "relevance_fallback": fallback}

    return grade_documents


def transform_query_node(rewriter: QuestionRewriter, fallback_documents: int = 0) -> Callable[[SelfRAGState], SelfRAGState]:
    """Build the ``transform_query`` node around a question rewriter."""

    @traced("transform_query")
    def transform_query(state: SelfRAGState) -> SelfRAGState:
        """Rewrite the current query for a better search; counts as one attempt.

        The rewriter sees only the documents the grader kept (none, when none passed): feedback from
        documents already judged irrelevant would pull the next search back towards them. A rewrite that
        is a query this run already searched (same words, ignoring case and punctuation: a deterministic
        rewriter reaches a fixed point) would return the same documents again, so it is not searched:
        ``repeated_query`` is set and the writer gets the ``fallback_documents`` best rejected documents.

        Reads: question, query, searched, documents, rejected, relevance_fallback, attempts, rewrites.
        Writes: query, attempts, rewrites, repeated_query (and documents, relevance_fallback on a repeat).
        """
        feedback = [] if state.get("relevance_fallback") else (state.get("documents") or [])
        query = rewriter.rewrite(state["query"], feedback)
        query = query.strip() if isinstance(query, str) and query.strip() else state["query"]
        update: SelfRAGState = {"query": query, "attempts": state.get("attempts", 0) + 1,
                                "rewrites": state.get("rewrites", 0) + 1, "repeated_query": False}
        searched = state.get("searched") or [state["query"]]
        if any(same_query(query, earlier) for earlier in searched):
            rejected = state.get("rejected") or []
            update.update(repeated_query=True, documents=[d for _, d in rejected[:fallback_documents]],
                          relevance_fallback=bool(rejected) and fallback_documents > 0)
        return update

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

        Reads: question, documents, answer, generation, candidates, relevance_fallback.
        Writes: grounded, useful, candidates, note.
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
        if state.get("relevance_fallback"):
            note += "; written from the best-scored documents, as none passed the relevance grader"
        return {"grounded": grounded, "useful": useful, "note": note,
                "candidates": [*(state.get("candidates") or []), candidate]}

    return grade_generation


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
