"""The parts of the advanced pipeline: its state, its caps, the multi-query search, and its nodes.

Each node is built by a small factory that closes over the role or the search it needs and returns only
the state keys it changed (the builder and the routers are in :mod:`ragkit.graphs.advanced_rag`).

Simplifications: documents are told apart by :func:`ragkit.core.search.doc_key` (their id, else their
text); the bandit learns from the grader's verdicts, which are themselves imperfect (see
``benchmarks/bandit/README.md`` for how far that misleads it on SciFact).
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Literal, TypedDict

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig

from ragkit.bandit import BanditStateError
from ragkit.core import contract as policy
from ragkit.core.contract import add_path, traced
from ragkit.core.search import ScoredSearch, doc_key, with_score
from ragkit.defaults import ADVANCED, GRAPHS
from ragkit.graphs.advanced_search import Bandit, search_queries, weighted_queries
from ragkit.graphs.crag import supporting_documents
from ragkit.roles.protocols import Answer, DocumentGrader, Grade, HallucinationGrader, Writer
from ragkit.roles.intent import Intent, IntentClassifier, small_talk_reply
from ragkit.roles.query_transform import QueryTransform, QueryTransformer

CAPS = ("max_retrieval_retries", "max_generation_retries")


def merge_metadata(left: dict | None, right: dict | None) -> dict:
    """Reducer for ``metadata``: later keys win.

    >>> merge_metadata({"a": 1, "b": 1}, {"b": 2})
    {'a': 1, 'b': 2}
    """
    return {**(left or {}), **(right or {})}


class AdvancedState(TypedDict, total=False):
    """State of the advanced pipeline (``path``/``timings`` are filled by :func:`ragkit.core.contract.traced`)."""

    original_question: str  # the user's question, never changed: what is classified, graded and answered
    question: str  # the lead search query: the question, then a retry's new formulation
    language_note: str | None  # set when the local roles cannot read the question's language
    route: Literal["rag", "chitchat"]
    intent: Intent
    queries: list[str]  # the alternative queries of the last transform
    hypothetical: str  # its hypothetical answer (LLM) or extractive passage (local); "" for none
    transform_note: str
    transform_fallback: bool
    tried: list[str]  # every query searched in this run
    arm: str  # the retrieval arm the bandit chose for the last search
    arms_used: list[str]
    bandit_context: list[float] | None  # the features a contextual bandit chose with (None: context-free)
    retrieval_note: str
    search_failed: bool
    documents: list[Document]  # the fused results of the last search (up to fetch_k)
    reranked: list[Document]  # the reranker's top k of them
    rerank_note: str
    grades: list[Grade]
    relevant: list[Document]  # the reranked documents the grader kept
    rejected: list[str]  # keys of every document the grader rejected in this run
    relevance_score: float  # the relevant share of the reranked documents: the arm's reward
    bandit_update: dict[str, Any]  # {"arm", "reward"} of the last update
    bandit_stats: dict[str, Any]  # the bandit's stats() right after that update
    bandit_note: str
    generation: str
    answer: Answer
    generations_seen: list[str]
    hallucination_score: float | None
    grounded: bool
    unsupported: tuple[str, ...]
    verified: bool
    note: str
    transforms: int
    retrieval_retries: int
    max_retrieval_retries: int
    generations: int
    generation_retries: int
    max_generation_retries: int
    metadata: Annotated[dict[str, Any], merge_metadata]
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


# ---------------------------------------------------------------- the caps
def worst_case_steps(max_retrieval_retries: int, max_generation_retries: int) -> int:
    """The ``recursion_limit`` a run needs at most (one step per node, plus LangGraph's start step).

    Nodes: check_question and classify; 4 per retrieval round (query_transform, retrieve, rerank, grade),
    1 + ``max_retrieval_retries`` rounds; 2 per generation (generate, hallucination_check), 1 +
    ``max_generation_retries`` generations.

    >>> worst_case_steps(1, 1)
    15
    """
    return 2 + 4 * (1 + max_retrieval_retries) + 2 * (1 + max_generation_retries) + 1


def can_retry_retrieval(state: AdvancedState) -> bool:
    """Another query_transform -> ... -> grade round fits within ``max_retrieval_retries``.

    >>> can_retry_retrieval({"retrieval_retries": 0, "max_retrieval_retries": 1})
    True
    """
    return state.get("retrieval_retries", 0) < state.get("max_retrieval_retries", ADVANCED.max_retrieval_retries)


def wants_regeneration(state: AdvancedState) -> bool:
    """Write again: the answer is not grounded, a retry is left, and the writer did not just repeat itself.

    A deterministic writer given the same documents writes the same text again; a second identical
    ungrounded answer cannot pass the check, so it is not asked for a third.

    >>> state = {"route": "rag", "grounded": False, "generation_retries": 0, "max_generation_retries": 1}
    >>> wants_regeneration({**state, "generation": "b", "generations_seen": ["a", "b"]})
    True
    >>> wants_regeneration({**state, "generation": "a", "generations_seen": ["a", "a"]})  # a repeat
    False
    """
    if state.get("route") != "rag" or state.get("grounded", True):
        return False
    if state.get("generation_retries", 0) >= state.get("max_generation_retries", ADVANCED.max_generation_retries):
        return False
    return state.get("generation") not in (state.get("generations_seen") or [])[:-1]


def check_cap(name: str, value: object) -> int:
    """A cap is a non-negative whole number."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer (retries after the first try), got {value!r}")
    return value


# ---------------------------------------------------------------- nodes
Node = Callable[..., AdvancedState]


@traced("unsupported_language")
def unsupported_language(state: AdvancedState) -> AdvancedState:
    """Say plainly which language the offline models read (policy 5).

    Reads: language_note. Writes: generation, answer, note.
    """
    note = state["language_note"]
    return {"generation": note, "answer": Answer(note, (), answered=False), "note": note}


def check_question_node(caps: dict[str, int], max_chars: int = GRAPHS.max_question_chars,
                        chat_model_set: bool = False) -> Node:
    """Build the validating entry node (it reads the run's ``recursion_limit`` from its config)."""

    @traced("check_question")
    def check_question(state: AdvancedState, config: RunnableConfig) -> AdvancedState:
        """Validate the question and the caps (policy 1) and reset the counters.

        Reads: question, max_retrieval_retries, max_generation_retries. Writes: original_question, question,
        language_note, the counters and caps, tried, rejected, generations_seen, metadata.
        """
        question = policy.check_question(state.get("question"), max_chars, "build_advanced_rag_graph")
        run_caps = {name: check_cap(name, state.get(name, caps[name])) for name in CAPS}
        need = worst_case_steps(*run_caps.values())
        limit = (config or {}).get("recursion_limit")
        if isinstance(limit, int) and limit < need:
            raise ValueError(f"these caps can take up to {need} graph steps but recursion_limit is {limit}; lower "
                             f"the caps or pass config={{'recursion_limit': {need}}}")
        return {"original_question": question, "question": question,
                "language_note": policy.language_note(question, chat_model_set), **run_caps,
                "transforms": 0, "retrieval_retries": 0, "generations": 0, "generation_retries": 0, "tried": [],
                "rejected": [], "arms_used": [], "generations_seen": [], "queries": [], "hypothetical": "",
                "verified": False, "metadata": dict(state.get("metadata") or {})}

    return check_question


def classify_node(classifier: IntentClassifier) -> Node:
    """Build the ``classify`` node around an intent classifier."""

    @traced("classify")
    def classify(state: AdvancedState) -> AdvancedState:
        """rag or chitchat; a classifier that raises sends the question to rag (policy 3: search, say why).

        Reads: original_question. Writes: route, intent, metadata.
        """
        try:
            intent = classifier.classify(state["original_question"])
            if intent.route not in ("rag", "chitchat"):
                raise ValueError(f"unknown route {intent.route!r}")
        except Exception as err:  # noqa: BLE001 - the safe default is to search
            intent = Intent("rag", 0.0, None, f"intent classifier failed ({type(err).__name__}: {err}); searching",
                            fallback=True)
        return {"route": intent.route, "intent": intent, "metadata": {"intent_note": intent.note}}

    return classify


def query_transform_node(transformer: QueryTransformer, first_pass: ScoredSearch,
                         first_pass_k: int = ADVANCED.first_pass_k) -> Node:
    """Build the ``query_transform`` node: a new formulation each round, from a first pass when the role wants one."""

    @traced("query_transform")
    def query_transform(state: AdvancedState) -> AdvancedState:
        """Alternative queries and a hypothetical answer; on a retry, a formulation that differs from all tried.

        On a retry the lead query becomes the first new alternative (the question was searched already),
        the first pass skips the documents the grader rejected, and the transformer is told what was tried.

        Reads: original_question, tried, rejected, transforms, retrieval_retries.
        Writes: question, queries, hypothetical, transform_note, transform_fallback, transforms,
        retrieval_retries, metadata.
        """
        question, tried = state["original_question"], list(state.get("tried") or [])
        retry = state.get("transforms", 0) > 0
        documents: list[Document] = []
        note = ""
        if getattr(transformer, "uses_first_pass", False):
            rejected = set(state.get("rejected") or [])
            outcome = policy.run_search(first_pass, question, first_pass_k + len(rejected), what="first-pass search")
            documents = [d for d in outcome.documents if doc_key(d) not in rejected][:first_pass_k]
            note = f"{outcome.note}; " if outcome.failed else ""
        try:
            transform = transformer.transform(question, documents, tried)
        except Exception as err:  # noqa: BLE001 - policy 3: no transform, the question alone
            transform = QueryTransform((), "", f"query transformer failed ({type(err).__name__}: {err})", fallback=True)
        lead = question
        if retry:
            fresh = [q for q in [*transform.queries, transform.hypothetical] if q and q not in tried]
            lead = fresh[0] if fresh else question
        queries = [q for q in transform.queries if q != lead]
        return {"question": lead, "queries": queries, "hypothetical": transform.hypothetical,
                "transform_note": note + transform.note, "transform_fallback": transform.fallback,
                "transforms": state.get("transforms", 0) + 1,
                "retrieval_retries": state.get("retrieval_retries", 0) + int(retry),
                "metadata": {"first_pass_documents": len(documents)}}

    return query_transform


def retrieve_node(arms: dict[str, ScoredSearch], bandit: Bandit, context: Callable[[str], Any] | None,
                  k: int = ADVANCED.fetch_k, method: str = ADVANCED.fusion, original_weight: float = ADVANCED.original_weight,
                  hypothetical_weight: float = ADVANCED.hypothetical_weight) -> Node:
    """Build the ``retrieve`` node: the bandit picks one arm, which searches every query; the lists are fused."""

    @traced("retrieve")
    def retrieve(state: AdvancedState) -> AdvancedState:
        """Pick an arm (one per query), search the lead query, the alternatives and the hypothetical answer.

        Reads: original_question, question, queries, hypothetical, tried, arms_used.
        Writes: arm, arms_used, bandit_context, documents, retrieval_note, search_failed, tried, metadata.
        """
        features = context(state["original_question"]) if context is not None else None
        arm = bandit.select(features)
        transform = QueryTransform(tuple(state.get("queries") or ()), state.get("hypothetical") or "")
        queries = weighted_queries(state["question"], transform, original_weight, hypothetical_weight)
        hits, notes = search_queries(arms[arm], queries, k, method)
        failed = bool(notes) and len(notes) == len(queries)
        note = (f"arm {arm}: {len(hits)} documents from {len(queries)} queries"
                + (f"; {len(notes)} failed: {notes[0]}" if notes else ""))
        return {"arm": arm, "arms_used": [*(state.get("arms_used") or []), arm],
                "bandit_context": None if features is None else [float(x) for x in features],
                "documents": [with_score(d, s) for d, s in hits], "retrieval_note": note, "search_failed": failed,
                "tried": [*(state.get("tried") or []), *[q for q, _ in queries]],
                "metadata": {"queries_searched": len(queries)}}

    return retrieve


def rerank_node(reranker: Callable[[], Any] | None, top_k: int = ADVANCED.top_k) -> Node:
    """Build the ``rerank`` node; ``reranker`` returns the reranker to use (built on first use), None: no reranking."""

    @traced("rerank")
    def rerank(state: AdvancedState) -> AdvancedState:
        """Top ``fetch_k`` -> top ``top_k`` by the reranker (against the user's question); a failure keeps the order.

        Reads: original_question, documents. Writes: reranked, rerank_note, metadata.
        """
        docs = state.get("documents") or []
        if reranker is None or not docs:
            return {"reranked": docs[:top_k], "rerank_note": "no reranking" if reranker is None else "nothing to rerank",
                    "metadata": {"reranker": "off" if reranker is None else "unused"}}
        model = reranker()
        backend = getattr(model, "backend", type(model).__name__)
        try:
            kept = [d for d, _ in model.rerank_with_scores(state["original_question"], docs, top_k)]
            note = f"{len(docs)} -> {len(kept)} by {backend}"
        except Exception as err:  # noqa: BLE001 - policy 2: keep the fused order, say so
            kept, note = docs[:top_k], f"reranking failed ({type(err).__name__}: {err}); fused order kept"
        return {"reranked": kept, "rerank_note": note, "metadata": {"reranker": backend}}

    return rerank


def grade_node(grader: DocumentGrader, bandit: Bandit) -> Node:
    """Build the ``grade`` node: grade the reranked documents; their relevant share is the arm's reward."""

    @traced("grade")
    def grade(state: AdvancedState) -> AdvancedState:
        """Keep the relevant documents and update the bandit once for this search: reward = relevant share.

        Reads: original_question, reranked, arm, bandit_context, rejected.
        Writes: grades, relevant, rejected, relevance_score, bandit_update, bandit_stats, bandit_note.
        """
        docs = state.get("reranked") or []
        grades = list(grader.grade_many(state["original_question"], docs)) if docs else []
        relevant = [d for d, g in zip(docs, grades) if g.relevant]
        reward = len(relevant) / len(docs) if docs else 0.0
        note = f"{state['arm']} rewarded {reward:.2f}"
        try:
            bandit.update(state["arm"], reward, state.get("bandit_context"))
        except (OSError, BanditStateError) as err:  # saving a shared bandit failed: the answer goes on, and says so
            note = f"bandit update not saved ({type(err).__name__}: {err})"
        rejected = [*(state.get("rejected") or []), *[doc_key(d) for d, g in zip(docs, grades) if not g.relevant]]
        return {"grades": grades, "relevant": relevant, "rejected": rejected, "relevance_score": round(reward, 4),
                "bandit_update": {"arm": state["arm"], "reward": round(reward, 4)}, "bandit_stats": bandit.stats(),
                "bandit_note": note}

    return grade


def generate_node(writer: Writer, chat_model: BaseChatModel | None = None) -> Node:
    """Build the ``generate`` node: the writer for rag, a short reply for chitchat."""

    @traced("generate")
    def generate(state: AdvancedState) -> AdvancedState:
        """Answer the user's question from the relevant documents (chitchat: a reply without documents).

        A retry after an ungrounded answer writes from the documents that its supported sentences cite.

        Reads: route, intent, original_question, relevant, answer, unsupported, generations.
        Writes: answer, generation, generations, generation_retries, generations_seen, metadata.
        """
        count = {"generations": state.get("generations", 0) + 1}
        if state.get("route") == "chitchat":
            intent = state.get("intent")
            text, note = small_talk_reply(state["original_question"], intent.kind if intent else None, chat_model)
            return {**count, "answer": Answer(text, (), answered=False), "generation": text,
                    "generations_seen": [text], "metadata": {"reply": note}}
        docs = state.get("relevant") or []
        retry = state.get("generations", 0) > 0
        if retry and state.get("answer") is not None:
            docs = supporting_documents(state["answer"].text, docs, state.get("unsupported") or ()) or docs
        answer = writer.write(state["original_question"], docs)
        return {**count, "answer": answer, "generation": answer.text,
                "generation_retries": state.get("generation_retries", 0) + int(retry),
                "generations_seen": [*(state.get("generations_seen") or []), answer.text],
                "metadata": {"documents_written_from": len(docs)}}

    return generate


def hallucination_check_node(hallucination_grader: HallucinationGrader) -> Node:
    """Build the ``hallucination_check`` node around a hallucination grader."""

    @traced("hallucination_check")
    def hallucination_check(state: AdvancedState) -> AdvancedState:
        """Is every sentence supported by the documents? The final note says when it could not be verified.

        Reads: route, relevant, answer, generation, generation_retries, max_generation_retries, generations_seen.
        Writes: grounded, unsupported, hallucination_score, verified, note.
        """
        if state.get("route") == "chitchat":
            return {"grounded": True, "unsupported": (), "hallucination_score": None, "verified": False,
                    "note": "small talk: a reply without documents, nothing to check"}
        answer = state["answer"]
        if not answer.answered:
            return {"grounded": True, "unsupported": (), "hallucination_score": 1.0, "verified": False,
                    "note": "no answer: the documents found do not answer the question"}
        check = hallucination_grader.check(state.get("relevant") or [], state["generation"])
        update: AdvancedState = {"grounded": check.grounded, "unsupported": tuple(check.unsupported),
                                 "hallucination_score": round(float(check.score), 4), "verified": check.grounded}
        if check.grounded:
            update["note"] = "verified: every sentence is supported by the documents"
        elif wants_regeneration({**state, **update}):
            update["note"] = f"not grounded ({check.note or 'unsupported sentences'}); writing again"
        else:
            update["note"] = ("This answer could not be verified: the hallucination check found sentences the "
                              f"documents do not support ({check.note or len(check.unsupported)}).")
        return update

    return hallucination_check


__all__ = ["AdvancedState", "can_retry_retrieval", "check_cap", "check_question_node", "classify_node", "generate_node",
           "grade_node", "hallucination_check_node", "merge_metadata", "query_transform_node", "rerank_node",
           "retrieve_node", "unsupported_language", "wants_regeneration", "worst_case_steps"]
