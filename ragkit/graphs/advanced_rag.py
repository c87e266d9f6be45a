"""The advanced pipeline: classify, transform the query, let a bandit pick the retriever, rerank, grade, write, check.

The graph (after the entry node, and ``unsupported_language`` for a question the offline roles cannot read)::

    classify -> generate                                   (small talk: a reply, no retrieval)
             -> query_transform -> retrieve -> rerank -> grade
    grade -> query_transform                               (no relevant document, a retry left: a new formulation)
          -> generate -> hallucination_check -> finish     (grounded, or nothing to check)
                                             -> generate   (not grounded, a retry left)

- ``query_transform``: alternative queries and a hypothetical answer (multi-query retrieval as in
  RAG-Fusion, and HyDE);
- ``retrieve``: a bandit (:mod:`ragkit.bandit`, default seeded Thompson sampling) picks one arm
  (:func:`default_arms`) per search; the arm searches every query and the lists are fused;
- ``grade``: the grader's relevant share of the reranked documents is the arm's reward;
- ``finish``: the result fields, and the refusal dial (``refuse_below``; ``benchmarks/refusal``).

The bandit lives as long as the compiled graph, so it learns across runs. The caps are state fields
(defaults in :data:`ragkit.defaults.ADVANCED`).

What it cannot do: the reward is the grader's verdict on the top documents, not whether the answer was
right (an answer the hallucination grader rejects does not lower the arm's reward); with local roles the
writer quotes its sources, so its answers almost always pass the check (the regenerate branch is there
for LLM writers); ``benchmarks/advanced/README.md`` measures what each part adds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Annotated, Any, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from ragkit.bandit.policies import BanditStateError, Policy, ThompsonSampling
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
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import bm25_retriever, fuse, fused
from ragkit.core.nlp import supporting_documents
from ragkit.core.rerank import CrossEncoderReranker, LocalReranker
from ragkit.core.search import LazySearch, ScoredSearch, as_scored_search, doc_key, run_search, with_score
from ragkit.defaults import ADVANCED, GRAPHS, REFUSAL
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.small_talk import LocalIntentClassifier, LocalQueryTransformer, LocalSmallTalk
from ragkit.offline.writing import LocalWriter
from ragkit.roles.llm import LLMGrader, LLMHallucinationGrader, LLMWriter, check_chat_model
from ragkit.roles.llm_queries import (
    SMALL_TALK_PROMPT,
    Intent,
    IntentClassifier,
    LLMIntentClassifier,
    LLMQueryTransformer,
    LLMSmallTalk,
    QueryTransform,
    QueryTransformer,
    SmallTalk,
)
from ragkit.roles.protocols import (
    NOT_ENOUGH_INFORMATION,
    Answer,
    DocumentGrader,
    Grade,
    HallucinationGrader,
    Writer,
    choose,
)

BUILDER = "build_advanced_rag_graph"
ARMS = ("dense", "bm25", "hybrid")
CAPS = ("max_retrieval_retries", "max_generation_retries")
Node = Callable[..., dict]


def merge_metadata(left: dict | None, right: dict | None) -> dict:
    """Reducer for ``metadata``: later keys win.

    >>> merge_metadata({"a": 1, "b": 1}, {"b": 2})
    {'a': 1, 'b': 2}
    """
    return {**(left or {}), **(right or {})}


class AdvancedState(RAGResult, total=False):
    """State of the advanced pipeline; the result fields (answer, sources, outcome, ...) come from ``RAGResult``.

    ``question`` is the user's question, never changed (what is classified, graded and answered); ``query``
    is the lead search query (the question, then a retry's new formulation).
    """

    query: str
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
    evidence_score: float  # the grader's best score among the relevant documents (0.0 for none)
    refuse_below: float  # the refusal dial (the builder's refuse_below)
    bandit_update: dict[str, Any]  # {"arm", "reward"} of the last update
    bandit_stats: dict[str, Any]  # the bandit's stats() right after that update
    bandit_note: str
    draft: Answer  # the last generation
    generation: str  # its text
    documents_written_from: list[Document]  # what it was written from (its citations number these)
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


# ---------------------------------------------------------------- the caps
def worst_case_steps(max_retrieval_retries: int, max_generation_retries: int) -> int:
    """The ``recursion_limit`` a run needs at most (one step per node, plus LangGraph's start step).

    Nodes: check_question and classify; 4 per retrieval round (query_transform, retrieve, rerank, grade),
    1 + ``max_retrieval_retries`` rounds; 2 per generation (generate, hallucination_check), 1 +
    ``max_generation_retries`` generations; and finish.

    >>> worst_case_steps(1, 1)
    16
    """
    return 2 + 4 * (1 + max_retrieval_retries) + 2 * (1 + max_generation_retries) + 2


def can_retry_retrieval(state: AdvancedState) -> bool:
    """Another query_transform -> ... -> grade round fits within ``max_retrieval_retries``.

    >>> can_retry_retrieval({"retrieval_retries": 0, "max_retrieval_retries": 1})
    True
    """
    return state.get("retrieval_retries", 0) < state.get("max_retrieval_retries", ADVANCED.max_retrieval_retries)


def wants_regeneration(state: AdvancedState) -> bool:
    """Write again: the answer is not grounded, a retry is left, and the writer did not just repeat itself
    (a deterministic writer given the same documents writes the same text again).

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


# ---------------------------------------------------------------- the queries and their fused search
def weighted_queries(question: str, transform: QueryTransform | None, original_weight: float = ADVANCED.original_weight,
                     hypothetical_weight: float = ADVANCED.hypothetical_weight) -> list[tuple[str, float]]:
    """The queries to search and the weight of each one's list: the question, the alternatives, the hypothetical.

    >>> weighted_queries("q", QueryTransform(("a", "q"), "h"), original_weight=2.0)
    [('q', 2.0), ('a', 1.0), ('h', 0.5)]
    """
    out: dict[str, float] = {question: original_weight}
    for query in (transform.queries if transform else ()):
        out.setdefault(query, 1.0)
    if transform and transform.hypothetical and hypothetical_weight > 0:
        out.setdefault(transform.hypothetical, hypothetical_weight)
    return list(out.items())


def search_queries(search: ScoredSearch, queries: Sequence[tuple[str, float]], k: int, method: str = ADVANCED.fusion,
                   depth: int | None = None) -> tuple[list[tuple[Document, float]], list[str]]:
    """Search every query, fuse the lists (:func:`ragkit.core.hybrid.fuse`), keep the best ``k`` once each.

    ``depth`` is how many results each query asks for (None: the source's own k). A query whose search
    raises is left out and its note returned; with one list, its own order is kept. The benchmark
    ``benchmarks/advanced/scifact_transforms.py`` calls this too, so it measures what the graph does.

    >>> docs = {"a": Document("a", metadata={"id": "a"}), "b": Document("b", metadata={"id": "b"})}
    >>> search = as_scored_search(lambda q: [docs[c] for c in q])
    >>> [(d.page_content, round(s, 3)) for d, s in search_queries(search, [("ab", 1.0), ("b", 1.0)], k=2, method="rrf")[0]]
    [('b', 0.033), ('a', 0.016)]
    """
    lists, notes, by_key = [], [], {}
    for query, weight in queries:
        outcome = run_search(search, query, depth, what="search")  # type: ignore[arg-type]
        if outcome.failed:
            notes.append(outcome.note)
            continue
        for doc in outcome.documents:
            by_key.setdefault(doc_key(doc), doc)
        lists.append((weight, [(doc_key(d), float(d.metadata.get("score", 0.0))) for d in outcome.documents]))
    if not lists:
        return [], notes
    ranking = lists[0][1] if len(lists) == 1 else fuse([scored for _, scored in lists], method, [w for w, _ in lists])  # type: ignore[arg-type]
    return [(by_key[key], score) for key, score in ranking[:k]], notes


# ---------------------------------------------------------------- the default arms and reranker
def default_arms(docs: Sequence[Document], embeddings: Embeddings | None = None) -> dict[str, ScoredSearch]:
    """The three arms over ``docs``: dense (MMR, k=8 of 20), bm25, and hybrid (the graphs' default retriever),
    the hybrid arm fusing the same BM25 with plain-similarity search over the same FAISS index."""
    dense = DenseRetriever.from_documents(docs, embeddings or load_embedder(), search_type="mmr", k=ADVANCED.dense_k,
                                          fetch_k=ADVANCED.dense_fetch_k)
    bm25 = bm25_retriever(docs, k=ADVANCED.arm_k)
    similarity = dense.model_copy(update={"search_type": "similarity", "k": ADVANCED.arm_k})  # shares the index
    return {"dense": dense, "bm25": bm25, "hybrid": fused(bm25, similarity, k=ADVANCED.arm_k)}


def lazy_arms(docs: Callable[[], Sequence[Document]], label: str, embeddings: Embeddings | None = None) -> dict[str, LazySearch]:
    """:func:`default_arms` over ``docs()``, built on the first search of any arm."""
    built = cache(lambda: default_arms(list(docs()), embeddings))

    def arm(name: str) -> Callable[[], ScoredSearch]:
        return lambda: built()[name]

    k = {"dense": ADVANCED.dense_k}
    return {name: LazySearch(arm(name), k.get(name, ADVANCED.arm_k), name=f"{name} over {label}") for name in ARMS}


def default_reranker(embeddings: Embeddings | None = None) -> Callable[[], Any]:
    """A ``CrossEncoderReranker`` (top ``k``) built on first use; without its weights it warns and reranks locally."""

    @cache
    def build() -> Any:
        fallback = LocalReranker(top_n=ADVANCED.top_k, embeddings=embeddings) if embeddings is not None else None
        return CrossEncoderReranker(top_n=ADVANCED.top_k, fallback=fallback)

    return build


# ---------------------------------------------------------------- nodes
def start_run(caps: dict[str, int],
              refuse_below: float = REFUSAL.advanced_rag) -> Callable[[dict, RunnableConfig, str], AdvancedState]:
    """What the entry node adds: the caps (checked against the run's ``recursion_limit``), fresh counters and
    the refusal dial."""

    def start(state: dict, config: RunnableConfig, question: str) -> AdvancedState:
        run_caps = {name: state.get(name, caps[name]) for name in CAPS}
        check_cap(**run_caps)
        check_steps(config, worst_case_steps(*run_caps.values()), **run_caps)
        return {"query": question, **run_caps, "transforms": 0, "retrieval_retries": 0, "generations": 0,
                "generation_retries": 0, "tried": [], "rejected": [], "arms_used": [], "generations_seen": [],
                "queries": [], "hypothetical": "", "verified": False, "metadata": dict(state.get("metadata") or {}),
                "evidence_score": 0.0, "confidence": None, "refuse_below": refuse_below}

    return start


def classify_node(classifier: IntentClassifier) -> Node:
    """Build the ``classify`` node around an intent classifier."""

    @traced("classify")
    def classify(state: AdvancedState) -> AdvancedState:
        """rag or chitchat; a classifier that raises sends the question to rag (search, and say why).

        Reads: question. Writes: route, intent, metadata.
        """
        try:
            intent = classifier.classify(state["question"])
            if intent.route not in ("rag", "chitchat"):
                raise ValueError(f"unknown route {intent.route!r}")
        except Exception as err:  # noqa: BLE001 - the safe default is to search
            intent = Intent("rag", 0.0, f"intent classifier failed ({type(err).__name__}: {err}); searching",
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

        Reads: question, tried, rejected, transforms, retrieval_retries.
        Writes: query, queries, hypothetical, transform_note, transform_fallback, transforms,
        retrieval_retries, metadata.
        """
        question, tried = state["question"], list(state.get("tried") or [])
        retry = state.get("transforms", 0) > 0
        documents: list[Document] = []
        note = ""
        if getattr(transformer, "uses_first_pass", False):
            rejected = set(state.get("rejected") or [])
            outcome = run_search(first_pass, question, first_pass_k + len(rejected), what="first-pass search")
            documents = [d for d in outcome.documents if doc_key(d) not in rejected][:first_pass_k]
            note = f"{outcome.note}; " if outcome.failed else ""
        try:
            transform = transformer.transform(question, documents, tried)
        except Exception as err:  # noqa: BLE001 - no transform, the question alone
            transform = QueryTransform((), "", f"query transformer failed ({type(err).__name__}: {err})", fallback=True)
        lead = question
        if retry:
            fresh = [q for q in [*transform.queries, transform.hypothetical] if q and q not in tried]
            lead = fresh[0] if fresh else question
        return {"query": lead, "queries": [q for q in transform.queries if q != lead],
                "hypothetical": transform.hypothetical, "transform_note": note + transform.note,
                "transform_fallback": transform.fallback, "transforms": state.get("transforms", 0) + 1,
                "retrieval_retries": state.get("retrieval_retries", 0) + int(retry),
                "metadata": {"first_pass_documents": len(documents)}}

    return query_transform


def retrieve_node(arms: dict[str, ScoredSearch], bandit: Policy, context: Callable[[str], Any] | None,
                  k: int = ADVANCED.fetch_k, method: str = ADVANCED.fusion, original_weight: float = ADVANCED.original_weight,
                  hypothetical_weight: float = ADVANCED.hypothetical_weight) -> Node:
    """Build the ``retrieve`` node: the bandit picks one arm, which searches every query; the lists are fused."""

    @traced("retrieve")
    def retrieve(state: AdvancedState) -> AdvancedState:
        """Pick an arm (one per search), search the lead query, the alternatives and the hypothetical answer.

        Reads: question, query, queries, hypothetical, tried, arms_used.
        Writes: arm, arms_used, bandit_context, documents, retrieval_note, search_failed, tried, metadata.
        """
        features = context(state["question"]) if context is not None else None
        arm = bandit.select(features)
        transform = QueryTransform(tuple(state.get("queries") or ()), state.get("hypothetical") or "")
        queries = weighted_queries(state["query"], transform, original_weight, hypothetical_weight)
        hits, notes = search_queries(arms[arm], queries, k, method)
        note = (f"arm {arm}: {len(hits)} documents from {len(queries)} queries"
                + (f"; {len(notes)} failed: {notes[0]}" if notes else ""))
        return {"arm": arm, "arms_used": [*(state.get("arms_used") or []), arm],
                "bandit_context": None if features is None else [float(x) for x in features],
                "documents": [with_score(d, s) for d, s in hits], "retrieval_note": note,
                "search_failed": bool(notes) and len(notes) == len(queries),
                "tried": [*(state.get("tried") or []), *[q for q, _ in queries]],
                "metadata": {"queries_searched": len(queries)}}

    return retrieve


def rerank_node(reranker: Callable[[], Any] | None, top_k: int = ADVANCED.top_k) -> Node:
    """Build the ``rerank`` node; ``reranker`` returns the reranker to use (built on first use), None: no reranking."""

    @traced("rerank")
    def rerank(state: AdvancedState) -> AdvancedState:
        """Top ``fetch_k`` -> top ``top_k`` by the reranker (against the user's question); a failure keeps the order.

        Reads: question, documents. Writes: reranked, rerank_note, metadata.
        """
        docs = state.get("documents") or []
        if reranker is None or not docs:
            return {"reranked": docs[:top_k], "rerank_note": "no reranking" if reranker is None else "nothing to rerank",
                    "metadata": {"reranker": "off" if reranker is None else "unused"}}
        model = reranker()
        backend = getattr(model, "backend", type(model).__name__)
        try:
            kept = [d for d, _ in model.rerank_with_scores(state["question"], docs, top_k)]
            note = f"{len(docs)} -> {len(kept)} by {backend}"
        except Exception as err:  # noqa: BLE001 - keep the fused order, say so
            kept, note = docs[:top_k], f"reranking failed ({type(err).__name__}: {err}); fused order kept"
        return {"reranked": kept, "rerank_note": note, "metadata": {"reranker": backend}}

    return rerank


def grade_node(grader: DocumentGrader, bandit: Policy) -> Node:
    """Build the ``grade`` node: grade the reranked documents; their relevant share is the arm's reward."""

    @traced("grade")
    def grade(state: AdvancedState) -> AdvancedState:
        """Keep the relevant documents and update the bandit once for this search: reward = relevant share.

        Reads: question, reranked, arm, bandit_context, rejected.
        Writes: grades, relevant, rejected, relevance_score, evidence_score, bandit_update, bandit_stats, bandit_note.
        """
        docs = state.get("reranked") or []
        grades = list(grader.grade_many(state["question"], docs)) if docs else []
        relevant = [d for d, g in zip(docs, grades) if g.relevant]
        reward = len(relevant) / len(docs) if docs else 0.0
        note = f"{state['arm']} rewarded {reward:.2f}"
        try:
            bandit.update(state["arm"], reward, state.get("bandit_context"))
        except (OSError, BanditStateError) as err:  # saving a shared bandit failed: the answer goes on, and says so
            note = f"bandit update not saved ({type(err).__name__}: {err})"
        rejected = [*(state.get("rejected") or []), *[doc_key(d) for d, g in zip(docs, grades) if not g.relevant]]
        return {"grades": grades, "relevant": relevant, "rejected": rejected, "relevance_score": round(reward, 4),
                "evidence_score": best_score([g.score for g in grades if g.relevant]),
                "bandit_update": {"arm": state["arm"], "reward": round(reward, 4)}, "bandit_stats": bandit.stats(),
                "bandit_note": note}

    return grade


def generate_node(writer: Writer, small_talk: SmallTalk) -> Node:
    """Build the ``generate`` node: the writer for rag, the small-talk role's reply for small talk."""

    @traced("generate")
    def generate(state: AdvancedState) -> AdvancedState:
        """Answer the question from the relevant documents (small talk: a reply without documents).

        A retry after an ungrounded answer writes from the documents that its supported sentences cite.

        Reads: route, question, relevant, draft, unsupported, generations.
        Writes: draft, generation, documents_written_from, generations, generation_retries, generations_seen,
        metadata.
        """
        count = {"generations": state.get("generations", 0) + 1}
        if state.get("route") == "chitchat":
            text = small_talk.reply(state["question"])
            return {**count, "draft": Answer(text, (), answered=False), "generation": text, "generations_seen": [text]}
        docs = state.get("relevant") or []
        retry = state.get("generations", 0) > 0
        if retry and state.get("draft") is not None:
            docs = supporting_documents(state["draft"].text, docs, state.get("unsupported") or ()) or docs
        draft = writer.write(state["question"], docs)
        return {**count, "draft": draft, "generation": draft.text, "documents_written_from": docs,
                "generation_retries": state.get("generation_retries", 0) + int(retry),
                "generations_seen": [*(state.get("generations_seen") or []), draft.text],
                "metadata": {"documents_written_from": len(docs)}}

    return generate


def hallucination_check_node(hallucination_grader: HallucinationGrader) -> Node:
    """Build the ``hallucination_check`` node around a hallucination grader."""

    @traced("hallucination_check")
    def hallucination_check(state: AdvancedState) -> AdvancedState:
        """Is every claim supported by the documents? The note says when it could not be verified.

        Reads: route, relevant, draft, generation, generation_retries, max_generation_retries, generations_seen.
        Writes: grounded, unsupported, hallucination_score, verified, note.
        """
        if state.get("route") == "chitchat":
            return {"grounded": True, "unsupported": (), "hallucination_score": None, "verified": False,
                    "note": "small talk: a reply without documents, nothing to check"}
        if not state["draft"].answered:
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


@traced("finish")
def finish(state: AdvancedState) -> AdvancedState:
    """The result fields: answered (an answer or a reply to small talk) or refused (the writer found nothing,
    or the answer's confidence is below the refusal dial; small talk has no confidence).

    Reads: route, draft, documents_written_from, note, evidence_score, refuse_below.
    Writes: the result fields, confidence.
    """
    draft = state["draft"]
    if state.get("route") == "chitchat":
        return {**result(draft.text, "answered", state.get("note", "")), "confidence": None}
    confidence, bar = state.get("evidence_score", 0.0), state.get("refuse_below", REFUSAL.advanced_rag)
    if draft.answered and not answers_at(confidence, bar):
        return {**result(NOT_ENOUGH_INFORMATION, "refused", f"low confidence: {low_confidence_note(confidence, bar)}"),
                "confidence": confidence}
    sources = state.get("documents_written_from") or []
    return {**result(draft.text, "answered" if draft.answered else "refused", state.get("note", ""), sources, draft.citations),
            "confidence": confidence}


# ---------------------------------------------------------------- routers
def route_after_check_question(state: AdvancedState) -> Literal["classify", "unsupported_language"]:
    """A question the roles cannot read gets the language message; every other one is classified."""
    return "unsupported_language" if state.get("language_note") else "classify"


def route_after_classify(state: AdvancedState) -> Literal["query_transform", "generate"]:
    """Small talk goes straight to ``generate``; everything else is searched."""
    return "generate" if state.get("route") == "chitchat" else "query_transform"


def route_after_grade(state: AdvancedState) -> Literal["generate", "query_transform"]:
    """A relevant document -> ``generate``; none -> a new formulation while a retry is left, else ``generate``."""
    if state.get("relevant") or not can_retry_retrieval(state):
        return "generate"
    return "query_transform"


def route_after_hallucination_check(state: AdvancedState) -> Literal["generate", "finish"]:
    """Not grounded with a retry left (and not a repeat) -> ``generate``; otherwise ``finish`` (the note says why)."""
    return "generate" if wants_regeneration(state) else "finish"


# ---------------------------------------------------------------- the graph
def advanced_rag_graph(
    corpus: Sequence[Document] | None = None,
    *,
    arms: Mapping[str, Any] | None = None,
    bandit: Policy | None = None,
    bandit_context: Callable[[str], Any] | None = None,
    first_pass: Any | None = None,
    reranker: Any | None = None,
    rerank: bool = True,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    intent_classifier: IntentClassifier | None = None,
    query_transformer: QueryTransformer | None = None,
    grader: DocumentGrader | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    small_talk: SmallTalk | None = None,
    embeddings: Embeddings | None = None,
    max_retrieval_retries: int = ADVANCED.max_retrieval_retries,
    max_generation_retries: int = ADVANCED.max_generation_retries,
    fetch_k: int = ADVANCED.fetch_k,
    k: int = ADVANCED.top_k,
    fusion: str = ADVANCED.fusion,
    original_weight: float = ADVANCED.original_weight,
    hypothetical_weight: float = ADVANCED.hypothetical_weight,
    seed: int = 0,
    max_question_chars: int = GRAPHS.max_question_chars,
    refuse_below: float = REFUSAL.advanced_rag,
    strict: bool = False,
) -> StateGraph:
    """The advanced pipeline, uncompiled, over ``corpus`` (Documents, e.g. ``ragkit.domains.handbook.corpus.load_handbook()``).

    ``arms`` maps arm names to anything :func:`ragkit.core.search.as_scored_search` takes, instead of ``corpus``
    (default: the three arms of :func:`default_arms` over ``corpus``, built on first search). ``bandit`` is a policy or a
    ``SharedBandit`` over exactly those arm names (default ``ThompsonSampling(arms, seed=seed)``); a contextual
    one chooses from ``bandit_context(question)`` (default: query features with the bm25 arm's idf).
    ``first_pass`` is what the local query transformer reads (default the ``hybrid`` arm, else the first).
    ``reranker`` needs ``rerank_with_scores(query, docs, top_n)`` (default :func:`default_reranker`;
    ``rerank=False``: none); ``embeddings`` is the embedder of the default arms and reranker.
    ``refuse_below`` is the refusal dial: the relevance score an answer's best document needs.
    """
    check_limit(max_question_chars)
    refuse_below = check_threshold(refuse_below)
    check_cap(max_retrieval_retries=max_retrieval_retries, max_generation_retries=max_generation_retries)
    check_positive(fetch_k=fetch_k, k=k)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer (it seeds the default bandit), got {seed!r}")
    if fusion not in ("rrf", "weighted"):
        raise ValueError(f"fusion must be 'rrf' or 'weighted', got {fusion!r}")
    if reranker is not None and not callable(getattr(reranker, "rerank_with_scores", None)):
        raise TypeError(f"reranker must have rerank_with_scores(query, docs, top_n); got {type(reranker).__name__}")
    if arms is not None:
        searches = {name: as_scored_search(value, fetch_k) for name, value in arms.items()}
    elif corpus is not None:
        docs = list(corpus)
        searches = lazy_arms(lambda: docs, f"{len(docs)} documents", embeddings)
    else:
        raise TypeError("advanced_rag_graph() needs corpus= (Documents, e.g. ragkit.domains.handbook.corpus."
                        "load_handbook()) or arms= (arm name -> retriever)")
    if not searches:
        raise ValueError("arms is empty: give at least one retrieval arm, e.g. {'hybrid': retriever}")
    bandit = bandit if bandit is not None else ThompsonSampling(list(searches), seed=seed)
    if not all(callable(getattr(bandit, m, None)) for m in ("select", "update", "stats")):
        raise TypeError(f"bandit must be a ragkit.bandit Policy or SharedBandit, got {type(bandit).__name__}")
    if set(bandit.arms) != set(searches):
        raise ValueError(f"the bandit's arms {list(bandit.arms)} are not the graph's arms {list(searches)}")
    if bandit.contextual and bandit_context is None:
        bandit_context = bandit.default_context(searches)
    first = as_scored_search(first_pass, fetch_k) if first_pass is not None else searches.get("hybrid", next(iter(searches.values())))
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    intent_classifier = choose(intent_classifier, IntentClassifier, "intent_classifier", model=judging,
                               llm=LLMIntentClassifier, local=lambda: LocalIntentClassifier(embedder=embeddings))
    query_transformer = choose(query_transformer, QueryTransformer, "query_transformer", model=chat_model,
                               llm=LLMQueryTransformer, local=lambda: LocalQueryTransformer(embedder=embeddings))
    grader = choose(grader, DocumentGrader, "grader", model=judging, llm=LLMGrader, local=lambda: LocalGrader(embeddings))
    writer = choose(writer, Writer, "writer", model=chat_model, llm=LLMWriter, local=lambda: LocalWriter(embeddings))
    hallucination_grader = choose(hallucination_grader, HallucinationGrader, "hallucination_grader", model=judging,
                                  llm=LLMHallucinationGrader, local=lambda: LocalHallucinationGrader(embeddings))
    canned = LocalSmallTalk(embedder=embeddings)
    small_talk = choose(small_talk, SmallTalk, "small_talk", model=chat_model, local=lambda: canned,
                        llm=lambda m: LLMSmallTalk(m, SMALL_TALK_PROMPT, fallback=canned.reply))
    rerank_with = None if not rerank else ((lambda: reranker) if reranker is not None else default_reranker(embeddings))

    graph = StateGraph(AdvancedState)
    graph.add_node("check_question", check_question_node(BUILDER, max_question_chars, chat_model is not None,
                                                         start_run(dict(zip(CAPS, (max_retrieval_retries, max_generation_retries))),
                                                                   refuse_below)))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("classify", classify_node(intent_classifier))
    graph.add_node("query_transform", query_transform_node(query_transformer, first))
    graph.add_node("retrieve", retrieve_node(searches, bandit, bandit_context if bandit.contextual else None,
                                             fetch_k, fusion, original_weight, hypothetical_weight))
    graph.add_node("rerank", rerank_node(rerank_with, k))
    graph.add_node("grade", grade_node(grader, bandit))
    graph.add_node("generate", generate_node(writer, small_talk))
    graph.add_node("hallucination_check", hallucination_check_node(hallucination_grader))
    graph.add_node("finish", finish)

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_conditional_edges("classify", route_after_classify)
    graph.add_edge("query_transform", "retrieve")
    graph.add_edge("retrieve", "rerank")
    graph.add_edge("rerank", "grade")
    graph.add_conditional_edges("grade", route_after_grade)
    graph.add_edge("generate", "hallucination_check")
    graph.add_conditional_edges("hallucination_check", route_after_hallucination_check)
    graph.add_edge("finish", END)
    return graph


def build_advanced_rag_graph(corpus: Sequence[Document] | None = None, *, checkpointer: Any | None = None,
                             **options: Any) -> CompiledStateGraph:
    """:func:`advanced_rag_graph` compiled (same arguments), with an optional LangGraph checkpointer."""
    return advanced_rag_graph(corpus, **options).compile(checkpointer=checkpointer, name="advanced_rag")


__all__ = ["ARMS", "AdvancedState", "advanced_rag_graph", "build_advanced_rag_graph", "can_retry_retrieval",
           "classify_node", "default_arms", "default_reranker", "finish", "generate_node", "grade_node",
           "hallucination_check_node", "lazy_arms", "merge_metadata", "query_transform_node", "rerank_node",
           "retrieve_node", "route_after_check_question", "route_after_classify", "route_after_grade",
           "route_after_hallucination_check", "search_queries", "start_run", "wants_regeneration", "weighted_queries",
           "worst_case_steps"]
