"""The advanced pipeline: classify, transform the query, let a bandit pick the retriever, rerank, grade, write, check.

The graph (after the input policy's ``check_question``, and ``unsupported_language`` for a question the
offline roles cannot read)::

    classify -> generate                                   (chitchat: a reply, no retrieval)
             -> query_transform -> retrieve -> rerank -> grade
    grade -> query_transform                               (no relevant document, a retry left: a new formulation)
          -> generate -> hallucination_check -> END        (grounded, or nothing to check)
                                             -> generate   (not grounded, a retry left)
                                             -> END        (not grounded, no retry: the note says it is unverified)

- ``classify``: an intent classifier (:mod:`ragkit.roles.intent`) sends greetings, thanks and other small
  talk straight to ``generate``, which replies without documents.
- ``query_transform``: alternative queries and a hypothetical answer (:mod:`ragkit.roles.query_transform`);
  the local transformer reads a first-pass search (the ``first_pass`` source, default the hybrid arm).
- ``retrieve``: a bandit (:mod:`ragkit.bandit`, default Thompson sampling, seeded) picks one arm per query
  (default arms: ``dense`` = MiniLM + FAISS with MMR, k=8 of 20; ``bm25``; ``hybrid`` = the graphs'
  default retriever); the arm searches the lead query, each alternative and the hypothetical answer, and
  the lists are fused (:func:`ragkit.core.hybrid.fuse`) into the top ``fetch_k`` (20), once each.
- ``rerank``: the top 20 -> the top 4, by ``CrossEncoderReranker`` when its weights are on this machine
  (else it warns and works as ``LocalReranker``), or the reranker you pass; ``rerank=False``: no reranking.
- ``grade``: the document grader's relevant share of the top 4 is the arm's reward: the bandit is updated
  once per search, in this node, and ``bandit_update`` / ``bandit_stats`` show it in the state.
- ``generate`` and ``hallucination_check``: the writer, then the hallucination grader (its score in
  ``hallucination_score``); ``verified`` is True only for an answer that passed.

The bandit is a builder argument (a :class:`ragkit.bandit.Policy`, or a :class:`ragkit.bandit.SharedBandit`
that a server shares between threads and saves); it lives as long as the compiled graph, so it learns
across runs. A contextual policy (``LinUCB``) gets :func:`ragkit.bandit.query_features` of the question,
with the bm25 arm's idf, unless you pass ``bandit_context=``.

Caps are state fields: ``max_retrieval_retries`` and ``max_generation_retries`` (defaults in
:data:`ragkit.defaults.ADVANCED`, overridable per run); ``check_question`` rejects caps the run's
``recursion_limit`` could not finish (:func:`worst_case_steps`).

Simplifications: one bandit update per search, whatever happens after it (an answer the hallucination
grader rejects does not lower the arm's reward); the arms are searched one at a time; with local roles the
writer quotes its sources, so its answers almost always pass the hallucination check (the regenerate
branch is there for LLM writers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.graph import END, START, StateGraph

from ragkit.bandit import ThompsonSampling, query_features
from ragkit.core.contract import check_limit
from ragkit.core.search import ScoredSearch
from ragkit.defaults import ADVANCED, GRAPHS
from ragkit.graphs.advanced_nodes import (
    AdvancedState,
    can_retry_retrieval,
    check_cap,
    check_question_node,
    classify_node,
    generate_node,
    grade_node,
    hallucination_check_node,
    query_transform_node,
    rerank_node,
    retrieve_node,
    unsupported_language,
    wants_regeneration,
    worst_case_steps,
)
from ragkit.graphs.advanced_search import Bandit, is_contextual, policy_of, search_queries, weighted_queries
from ragkit.core.search import LazySearch, as_scored_search
from ragkit.roles.protocols import DocumentGrader, HallucinationGrader, Writer
from ragkit.roles.factory import make_roles

ARMS = ("dense", "bm25", "hybrid")


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


def route_after_hallucination_check(state: AdvancedState) -> Literal["generate", "__end__"]:
    """Not grounded with a retry left (and not a repeat) -> ``generate``; otherwise END (the note says why)."""
    return "generate" if wants_regeneration(state) else END


# ---------------------------------------------------------------- the default arms
def default_arms(docs: Sequence[Document], embeddings: Embeddings | None = None) -> dict[str, ScoredSearch]:
    """The three arms over ``docs``: dense (MMR, k=8 of 20), bm25, and hybrid (the graphs' default retriever).

    The hybrid arm fuses the same BM25 with plain-similarity dense search over the same FAISS index.
    """
    from ragkit.core.dense import DenseRetriever
    from ragkit.core.embeddings import load_embedder
    from ragkit.core.hybrid import bm25_retriever, fused

    embeddings = embeddings or load_embedder()
    dense = DenseRetriever.from_documents(docs, embeddings, search_type="mmr", k=ADVANCED.dense_k,
                                          fetch_k=ADVANCED.dense_fetch_k)
    bm25 = bm25_retriever(docs, k=ADVANCED.arm_k)
    similarity = dense.model_copy(update={"search_type": "similarity", "k": ADVANCED.arm_k})  # shares the index
    return {"dense": dense, "bm25": bm25, "hybrid": fused(bm25, similarity, k=ADVANCED.arm_k)}


def lazy_arms(corpus: str | Sequence[Document], embeddings: Embeddings | None = None) -> dict[str, LazySearch]:
    """:func:`default_arms` over a corpus name or documents, built on the first search of any arm."""
    built: dict[str, ScoredSearch] = {}

    def arm(name: str) -> Callable[[], ScoredSearch]:
        def build() -> ScoredSearch:
            if not built:
                from ragkit.domains.corpora import load_corpus

                built.update(default_arms(load_corpus(corpus) if isinstance(corpus, str) else list(corpus), embeddings))
            return built[name]

        return build

    label = corpus if isinstance(corpus, str) else f"{len(corpus)} documents"
    k = {"dense": ADVANCED.dense_k}
    return {name: LazySearch(arm(name), k.get(name, ADVANCED.arm_k), name=f"{name} over {label}") for name in ARMS}


def bm25_context(arms: Mapping[str, ScoredSearch]) -> Callable[[str], Any]:
    """Query features for a contextual bandit, with the idf of the bm25 arm (read on first use)."""

    def features(question: str) -> Any:
        bm25 = arms["bm25"]
        bm25 = bm25.resolve() if isinstance(bm25, LazySearch) else bm25
        return query_features(question, bm25.idf)

    return features


def default_reranker(embeddings: Embeddings | None = None) -> Callable[[], Any]:
    """A ``CrossEncoderReranker`` (top 4) built on first use; without its weights it warns and reranks locally."""
    made: list[Any] = []

    def build() -> Any:
        if not made:
            from ragkit.core.rerank import CrossEncoderReranker, LocalReranker

            made.append(CrossEncoderReranker(top_n=ADVANCED.top_k,
                                             fallback=LocalReranker(top_n=ADVANCED.top_k, embeddings=embeddings)
                                             if embeddings is not None else None))
        return made[0]

    return build


# ---------------------------------------------------------------- builder
def build_advanced_rag_graph(
    corpus: str | Sequence[Document] = "handbook",
    *,
    arms: Mapping[str, Any] | None = None,
    bandit: Bandit | None = None,
    bandit_context: Callable[[str], Any] | None = None,
    first_pass: Any | None = None,
    reranker: Any | None = None,
    rerank: bool = True,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    intent_classifier: Any | None = None,
    query_transformer: Any | None = None,
    grader: DocumentGrader | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
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
    checkpointer: Any | None = None,
) -> Any:
    """Compile the advanced pipeline over ``corpus`` (a bundled corpus name or Documents; default the handbook).

    ``arms`` maps arm names to anything :func:`ragkit.core.search.as_scored_search` takes (default: the
    three arms of :func:`default_arms` over ``corpus``, built on first search). ``bandit`` is a policy or a
    ``SharedBandit`` over exactly those arm names (default ``ThompsonSampling(arms, seed=seed)``).
    ``first_pass`` is what the local query transformer reads (default the ``hybrid`` arm, else the first).
    ``reranker`` needs ``rerank_with_scores(query, docs, top_n)``. Roles left as ``None`` come from
    :func:`ragkit.roles.factory.make_roles` (local ones, or LLM roles on ``chat_model``, judging ones on
    ``judge_model``); ``embeddings`` is the embedder of the default arms, reranker and local roles.
    """
    check_limit(max_question_chars)
    caps = {"max_retrieval_retries": check_cap("max_retrieval_retries", max_retrieval_retries),
            "max_generation_retries": check_cap("max_generation_retries", max_generation_retries)}
    for name, value in {"fetch_k": fetch_k, "k": k}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer (it seeds the default bandit), got {seed!r}")
    if fusion not in ("rrf", "weighted"):
        raise ValueError(f"fusion must be 'rrf' or 'weighted', got {fusion!r}")
    if reranker is not None and not hasattr(reranker, "rerank_with_scores"):
        raise TypeError(f"reranker must have rerank_with_scores(query, docs, top_n); got {type(reranker).__name__}")
    searches = ({name: as_scored_search(value, fetch_k) for name, value in arms.items()} if arms is not None
                else lazy_arms(corpus, embeddings))
    if not searches:
        raise ValueError("arms is empty: give at least one retrieval arm, e.g. {'hybrid': retriever}")
    bandit = bandit if bandit is not None else ThompsonSampling(list(searches), seed=seed)
    if not all(hasattr(bandit, m) for m in ("select", "update", "stats")):
        raise TypeError(f"bandit must be a ragkit.bandit Policy or SharedBandit, got {type(bandit).__name__}")
    if set(policy_of(bandit).arms) != set(searches):
        raise ValueError(f"the bandit's arms {list(policy_of(bandit).arms)} are not the graph's arms {list(searches)}")
    if bandit_context is None and is_contextual(bandit):
        if "bm25" not in searches:
            raise ValueError("a contextual bandit needs bandit_context=(question -> features), or a 'bm25' arm for idf")
        bandit_context = bm25_context(searches)
    first = as_scored_search(first_pass, fetch_k) if first_pass is not None else searches.get("hybrid", next(iter(searches.values())))
    roles = make_roles(chat_model, judge_model=judge_model, embedder=embeddings, intent_classifier=intent_classifier,
                       query_transformer=query_transformer, grader=grader, writer=writer,
                       hallucination_grader=hallucination_grader)
    rerank_with = None if not rerank else ((lambda: reranker) if reranker is not None else default_reranker(embeddings))

    graph = StateGraph(AdvancedState)
    graph.add_node("check_question", check_question_node(caps, max_question_chars, roles.llm))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("classify", classify_node(roles.get("intent_classifier")))
    graph.add_node("query_transform", query_transform_node(roles.get("query_transformer"), first))
    graph.add_node("retrieve", retrieve_node(searches, bandit, bandit_context if is_contextual(bandit) else None,
                                             fetch_k, fusion, original_weight, hypothetical_weight))
    graph.add_node("rerank", rerank_node(rerank_with, k))
    graph.add_node("grade", grade_node(roles.grader, bandit))
    graph.add_node("generate", generate_node(roles.writer, roles.chat_model))
    graph.add_node("hallucination_check", hallucination_check_node(roles.hallucination_grader))

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
    return graph.compile(checkpointer=checkpointer)


__all__ = ["ARMS", "AdvancedState", "bm25_context", "build_advanced_rag_graph", "default_arms", "default_reranker",
           "lazy_arms", "route_after_check_question", "route_after_classify", "route_after_grade",
           "route_after_hallucination_check", "search_queries", "weighted_queries", "worst_case_steps"]
