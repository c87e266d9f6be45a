"""Adaptive RAG: send each question to the source that can answer it, or to an honest fallback.

``check_question -> route_question -> <one node per search route> -> generate``, or the fallback route's
node (a search that found nothing or failed goes there too); every path ends with the
:class:`ragkit.core.contract.RAGResult` fields (answer, sources, outcome, citations, reason).

The graph is built from data, and knows no corpus: ``sources``, a mapping from each search route's name
to what it searches (a ragkit retriever, a LangChain ``VectorStore`` or retriever, a function), and
``routes``, the route specs; both are required. The route without a source is the fallback: it answers
without documents, from a chat model's general knowledge when there is one (and says so), else with the
offline message ``fallback_text`` (a generic one by default). The restaurant of the notebooks brings all
three in its domain folder (``ragkit.domains.menu.routes``): ``build_adaptive_rag_graph(menu_sources(),
routes=ROUTES, fallback_text=OFFLINE_FALLBACK)`` routes to the menu, the wine list, the local web snapshot
or ``llm_fallback``.

A source that reads the question's structure (a :class:`ragkit.roles.structured_query.StructuredSearch`,
such as the menu's ``StructuredRetriever``, which brings its own query analyser) applies its filter and sort
exactly; its analysis goes into the state (``analysis``) and to the writer (a
:class:`ragkit.offline.structured_answers.StructuredWriter`), so an excluded item is never listed, a
superlative is answered with its winner and a comparison is stated. When its filter over the whole corpus
leaves nothing, that IS the answer ("No: nothing on the list matches ..."), not a fallback.

The router *proposes* a route; code *disposes*: a name that is not one of the graph's routes (a malformed
model answer) or a router that raises becomes the fallback, the reason kept in ``route_note``; and when
exactly one structured source's fields explain the whole question, the question goes there. The local
router's score for every route and the margin between the best two are kept in the state
(``route_scores``, ``route_margin``), so a run shows how close the call was.

Errors follow :mod:`ragkit.core.contract`: an empty or oversized question raises a ``ValueError`` before
any search, model or embedder is touched (``max_question_chars=`` raises the limit); a search that fails
at run time is reported in ``search_note`` and the run goes to the fallback; a setup error is raised.

What it cannot do: one route per question (a question about "the lamb and a wine for it" goes to one
source, not two); no relevance grading of the retrieved documents (that is Self-RAG and CRAG's job); the
offline fallback answers nothing, it only says what it can do. The routers after ``route_question`` and
after each search return a route name, so their targets are only known when the graph is built: the
builder gives LangGraph the path map instead of a ``Literal``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from ragkit.core.contract import (
    SETUP_ERRORS,
    RAGResult,
    check_limit,
    check_positive,
    check_question_node,
    message_text,
    result,
    traced,
    unsupported_language,
)
from ragkit.core.search import ScoredSearch, as_scored_search, run_search, with_score
from ragkit.defaults import GRAPHS
from ragkit.offline.router import LocalRouter
from ragkit.offline.structured_answers import StructuredWriter, structured_answer
from ragkit.offline.writing import LocalWriter
from ragkit.roles.llm import LLMWriter, check_chat_model
from ragkit.roles.llm_routing import LLMRouter
from ragkit.roles.protocols import Answer, Writer, choose
from ragkit.roles.router_protocols import Router, RouteSpec, check_routes
from ragkit.roles.structured_query import QueryAnalysis, StructuredSearch

BUILDER = "build_adaptive_rag_graph"
NO_DOCUMENTS_PREFIX = "(No documents were used: this answer comes from the model's general knowledge.)"
FALLBACK_SYSTEM_PROMPT = (
    "You are a helpful assistant. No documents were retrieved for this question, so answer briefly from "
    "general knowledge, and say plainly when you are not sure."
)
GENERIC_FALLBACK = ("This question is outside the documents I search, so I have no documents to answer it from "
                    "offline. Connect a chat model for general questions.")
RESERVED_NODES = frozenset({"check_question", "route_question", "generate", "unsupported_language", START, END})


class AdaptiveRAGState(RAGResult, total=False):
    """State of the adaptive RAG graph; the result fields (answer, sources, outcome, ...) come from ``RAGResult``."""

    route: str  # the route taken (a search route's name, or the fallback's)
    route_note: str  # why: the router's note, or what code disposed
    route_scores: dict[str, float]  # the router's score for each route ({} for a router without scores)
    route_margin: float | None  # the best score minus the runner-up's (None without scores)
    documents: list[Document]  # what the chosen search returned
    analysis: QueryAnalysis | None  # the question's structure, on a structured route
    search_note: str
    search_failed: bool


Node = Callable[[AdaptiveRAGState], AdaptiveRAGState]


# ---------------------------------------------------------------- small helpers
def check_route_sources(routes: Sequence[RouteSpec], sources: Mapping[str, object], fallback: str | None = None) -> str:
    """Check that route specs and their sources fit together; return the fallback route's name.

    Every route but the fallback needs a source, the fallback has none, and no source names a route that
    does not exist: each mistake is an error when the graph is built, never a silent fallback at run time.

    >>> specs = (RouteSpec("search_docs", "our documents"), RouteSpec("general", "anything else"))
    >>> check_route_sources(specs, {"search_docs": object()})
    'general'
    >>> check_route_sources(specs, {"serch_docs": object()})
    Traceback (most recent call last):
    ...
    ValueError: sources name route(s) ['serch_docs'] that are not among the routes ['search_docs', 'general']
    """
    routes, fallback = check_routes(routes, fallback)
    names = [spec.name for spec in routes]
    if len(names) < 2:
        raise ValueError(f"give at least two routes (a search route and a fallback), got {names}")
    clash = sorted(set(names) & RESERVED_NODES)
    if clash:
        raise ValueError(f"route name(s) {clash} are used by the graph's own nodes; rename the route(s)")
    unknown = sorted(set(sources) - set(names))
    if unknown:
        raise ValueError(f"sources name route(s) {unknown} that are not among the routes {names}")
    if fallback in sources:
        raise ValueError(f"the fallback route {fallback!r} must not have a search source: it answers without documents")
    missing = [name for name in names if name != fallback and name not in sources]
    if missing:
        raise ValueError(f"route(s) {missing} have no search source: pass sources={{{missing[0]!r}: retriever}} "
                         f"(a retriever, a vector store or a function), or drop the route")
    return fallback


def source_documents(sources: Mapping[str, object]) -> dict[str, list[Document]]:
    """The documents behind each source that keeps them (``.docs``, as ragkit's retrievers do); others are left out.

    ``LocalRouter(routes, documents=source_documents(sources))`` uses them as corpus evidence: a question
    close to a passage of the menu is likely a menu question; a question close to none is likely general.
    """
    return {name: list(value.docs) for name, value in sources.items()  # type: ignore[attr-defined]
            if isinstance(getattr(value, "docs", None), list) and value.docs}  # type: ignore[attr-defined]


def structured_evidence(question: str, structured: Mapping[str, StructuredSearch]) -> list[str]:
    """The structured routes whose corpus's own fields explain the whole question (:attr:`QueryAnalysis.covered`).

    "What is the cheapest side dish?" is a sort on the menu's price within its course "side"; on the wine
    list "side" means nothing, so only the menu route explains it.
    """
    return [name for name, search in structured.items() if search.analyze(question).covered]


def fallback_result(question: str, state: Mapping[str, Any], chat_model: BaseChatModel | None,
                    offline_text: str = GENERIC_FALLBACK) -> RAGResult:
    """The fallback's result: a chat model's answer marked as using no documents, or the offline message.

    >>> fallback_result("Who wrote Hamlet?", {"route": "general"}, None, "Offline I answer from my notes only.")["answer"]
    'Offline I answer from my notes only.'
    """
    searched = state.get("search_note")
    # Coming from a search that found nothing or failed: say that, not "outside my topics".
    offline = f"I have no documents to answer this from: the {searched}." if searched else offline_text
    reason = searched or f"routed to {state.get('route')}: none of the sources covers this question"
    if chat_model is None:
        return result(offline, "refused", reason)
    try:
        reply = chat_model.invoke([SystemMessage(FALLBACK_SYSTEM_PROMPT), HumanMessage(question)])
    except Exception as err:  # noqa: BLE001 - a failing model falls back to the honest offline message
        return result(f"{offline} (The chat model failed: {type(err).__name__}.)", "refused",
                      f"{reason}; the chat model failed ({type(err).__name__})")
    text = message_text(reply)
    return result(f"{NO_DOCUMENTS_PREFIX} {text.strip()}", "answered",
                  f"{reason}; answered from the chat model's general knowledge, without documents")


# ---------------------------------------------------------------- nodes
def start_run(state: dict, config: RunnableConfig, question: str) -> AdaptiveRAGState:
    """What the entry node adds: a clean run (no documents, no analysis, no search note yet: on a reused thread
    the fallback would otherwise report the last run's search)."""
    return {"documents": [], "analysis": None, "search_note": "", "search_failed": False}


def route_question_node(router: Router, route_names: Sequence[str], fallback: str,
                        structured: Mapping[str, StructuredSearch] | None = None) -> Node:
    """Build the ``route_question`` node around a router; ``route_names`` are the graph's routes.

    ``structured`` (route name -> structured search) lets code dispose of the router's proposal: when exactly
    one structured route's corpus explains the whole question and the router chose another route, the
    question goes to that one (the note says so).
    """
    allowed = frozenset(route_names)
    structured = dict(structured or {})

    @traced("route_question")
    def route_question(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Ask the router for a route; anything that is not one of the graph's routes becomes the fallback.

        Reads: question. Writes: route, route_note, route_scores, route_margin.
        """
        try:
            decision = router.route(state["question"])
        except Exception as err:  # noqa: BLE001 - policy 3: a crashing router takes the safe branch
            decision = None
            route, note = fallback, f"router failed ({type(err).__name__}: {err}); using {fallback}"
        shown = ({"route_scores": dict(decision.scores), "route_margin": decision.margin} if decision is not None
                 else {"route_scores": {}, "route_margin": None})
        if decision is not None:
            note = decision.note or f"confidence {decision.confidence:.2f}"
            route = decision.route
            if route not in allowed:
                route, note = fallback, f"router proposed unknown route {decision.route!r}; using {fallback}"
            elif decision.fallback:
                note = f"router output unusable, safe default taken: {note}"
        if structured:
            explained = structured_evidence(state["question"], structured)
            if len(explained) == 1 and route != explained[0]:
                note = (f"router proposed {route!r} ({note}); the fields of {explained[0]!r} explain the whole "
                        f"question, so it goes there")
                route = explained[0]
        return {"route": route, "route_note": note, **shown}

    return route_question


def search_node(name: str, search: ScoredSearch, k: int = GRAPHS.k) -> Node:
    """Build a search node (one per search route, named as the route); a run-time failure is reported, not raised.

    A structured search reads the question first, applies its filter and sort, and writes the analysis into
    the state, marked ``searched_all`` when structure was applied to the whole corpus.
    """
    label = getattr(search, "name", None) or name.removeprefix("search_")

    @traced(name)
    def run(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Search one source; an error or an empty result leaves ``documents`` empty and says why.

        Reads: question. Writes: documents, analysis, search_note, search_failed.
        """
        if not isinstance(search, StructuredSearch):
            outcome = run_search(search, state["question"], k, what=f"{label} search")
            return {"documents": outcome.documents, "search_note": outcome.note, "search_failed": outcome.failed}
        try:
            analysis = search.analyze(state["question"])
            found = search.search_analysed(analysis, k)
        except SETUP_ERRORS:
            raise
        except Exception as err:  # noqa: BLE001 - policy 2: a failing search is reported, never raised
            return {"documents": [], "analysis": None, "search_failed": True,
                    "search_note": f"{label} search failed ({type(err).__name__}: {err})"}
        if analysis.structured:
            analysis = dataclasses.replace(analysis, searched_all=True)
        return {"documents": [with_score(d, s) for d, s in found.hits], "analysis": analysis, "search_failed": False,
                "search_note": f"{label} search: {found.note}"}

    run.__name__ = run.__qualname__ = name
    return run


def generate_node(writer: StructuredWriter) -> Node:
    """Build the ``generate`` node around a structured writer (given the question's analysis)."""

    @traced("generate")
    def generate(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Write a cited answer from the retrieved documents; with no documents after a structured search
        over the whole corpus, say that nothing matches.

        Reads: question, documents, analysis, route, search_note. Writes: the result fields.
        """
        analysis, docs = state.get("analysis"), state["documents"]
        if not docs and analysis is not None:
            answer = structured_answer([], analysis) or Answer(
                f"Nothing on the list matches ({analysis.describe()}).", (), answered=False)
        else:
            answer = writer.write(state["question"], docs, query=analysis)
        found = f"{state.get('route')}: {state.get('search_note', '')}"
        if not answer.answered:
            return result(answer.text, "refused", f"the writer found no answer in what {found}", docs)
        return result(answer.text, "answered", f"written from {found}", docs, answer.citations)

    return generate


def fallback_node(chat_model: BaseChatModel | None, name: str, offline_text: str = GENERIC_FALLBACK) -> Node:
    """Build the fallback node (offline when ``chat_model`` is None), named as the fallback route."""

    @traced(name)
    def fallback(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Answer without documents and say so plainly.

        Reads: question, route, search_note. Writes: the result fields, documents.
        """
        return {**fallback_result(state["question"], state, chat_model, offline_text), "documents": []}

    fallback.__name__ = fallback.__qualname__ = name
    return fallback


# ---------------------------------------------------------------- routers (pure functions of the state)
def route_after_check_question(state: AdaptiveRAGState) -> Literal["route_question", "unsupported_language"]:
    """A question the roles cannot read gets the language message (policy 5); every other one is routed."""
    return "unsupported_language" if state.get("language_note") else "route_question"


def route_after_route_question(state: AdaptiveRAGState) -> str:
    """The chosen route is the name of the next node (``route_question`` only writes the graph's routes)."""
    return state["route"]


def route_after_search_to(fallback: str) -> Callable[[AdaptiveRAGState], str]:
    """The router after a search: documents found -> ``generate``; nothing found (or it failed) -> ``fallback``,
    unless a structured search over the whole corpus found nothing: then "nothing matches" is the answer.

    >>> route = route_after_search_to("llm_fallback")
    >>> route({"documents": [Document("x")]}), route({"documents": []})
    ('generate', 'llm_fallback')
    """

    def route_after_search(state: AdaptiveRAGState) -> str:
        if state.get("documents"):
            return "generate"
        analysis = state.get("analysis")
        exhaustive = analysis is not None and analysis.searched_all and not state.get("search_failed")
        return "generate" if exhaustive else fallback

    return route_after_search


# ---------------------------------------------------------------- the graph
@dataclasses.dataclass(frozen=True)
class AdaptiveRAGNodes:
    """The graph's nodes, built from its roles and sources, before any edge: what a notebook wires by hand."""

    nodes: dict[str, Node]  # every node by name: check_question, unsupported_language, route_question, one per
    #                         search route, generate, the fallback
    routes: list[str]  # every route's name (the targets of route_question), the fallback's included
    searches: list[str]  # the search routes (each a node followed by route_after_search_to(fallback))
    fallback: str


def adaptive_rag_nodes(
    sources: Mapping[str, Any],
    *,
    routes: Sequence[RouteSpec],
    fallback: str | None = None,
    fallback_text: str = GENERIC_FALLBACK,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    router: Router | None = None,
    writer: Writer | None = None,
    k: int = GRAPHS.k,
    max_question_chars: int = GRAPHS.max_question_chars,
    strict: bool = False,
) -> AdaptiveRAGNodes:
    """Every node of the adaptive RAG graph, each made by its factory above from the roles (see
    :func:`adaptive_rag_graph` for the arguments); :func:`adaptive_rag_graph` adds the edges."""
    check_positive(k=k)
    check_limit(max_question_chars)
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    fallback = check_route_sources(routes, sources, fallback)
    router = choose(router, Router, "router", model=judging, llm=lambda m: LLMRouter(m, routes, fallback=fallback),
                    local=lambda: LocalRouter(routes, fallback=fallback, documents=source_documents(sources)))
    writer = choose(writer, Writer, "writer", model=chat_model, llm=LLMWriter, local=LocalWriter)
    names = [spec.name for spec in routes]
    searches = {name: as_scored_search(sources[name], k) for name in names if name != fallback}
    # Structured evidence for routing costs one analysis per structured route: cheap with a local analyser,
    # a model call each with an LLM one, so it is only used offline (no judging model): a model routes alone.
    evidence = {n: s for n, s in searches.items() if isinstance(s, StructuredSearch)} if judging is None else {}

    nodes: dict[str, Node] = {
        "check_question": check_question_node(BUILDER, max_question_chars, chat_model is not None, start_run),
        "unsupported_language": unsupported_language,
        "route_question": route_question_node(router, names, fallback, evidence),
    }
    for name, search in searches.items():
        nodes[name] = search_node(name, search, k)
    nodes["generate"] = generate_node(StructuredWriter(writer, analyzer=None))  # the searches analysed it
    nodes[fallback] = fallback_node(chat_model, fallback, fallback_text)
    return AdaptiveRAGNodes(nodes, names, list(searches), fallback)


def adaptive_rag_graph(
    sources: Mapping[str, Any],
    *,
    routes: Sequence[RouteSpec],
    fallback: str | None = None,
    fallback_text: str = GENERIC_FALLBACK,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    router: Router | None = None,
    writer: Writer | None = None,
    k: int = GRAPHS.k,
    max_question_chars: int = GRAPHS.max_question_chars,
    strict: bool = False,
) -> StateGraph:
    """The adaptive RAG graph, uncompiled, from route specs and their search sources.

    ``sources`` (required) maps each search route to what it searches and ``routes`` (required) are the route
    specs; the restaurant's are ``menu_sources()`` and ``ROUTES`` from ``ragkit.domains.menu.routes``. The
    route without a source is the fallback (``fallback``, default the last route), whose offline message is
    ``fallback_text`` (default: a generic one; the restaurant's is ``OFFLINE_FALLBACK``). The router runs on
    ``judge_model`` when given, else on ``chat_model``, else it is a ``LocalRouter`` with the sources'
    documents as evidence (and, offline, the structured sources' fields); the writer on ``chat_model``; with a
    chat model the fallback answers from general knowledge and says so. A structured source reads questions
    with its own analyser (``menu_sources(chat_model=...)`` gives the menu's an LLM one).
    ``strict=True`` raises, instead of warning, when a chat model cannot return structured output.
    """
    parts = adaptive_rag_nodes(sources, routes=routes, fallback=fallback, fallback_text=fallback_text,
                               chat_model=chat_model, judge_model=judge_model, router=router, writer=writer,
                               k=k, max_question_chars=max_question_chars, strict=strict)
    graph = StateGraph(AdaptiveRAGState)
    for name, node in parts.nodes.items():
        graph.add_node(name, node)
    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_conditional_edges("route_question", route_after_route_question, parts.routes)
    for name in parts.searches:
        graph.add_conditional_edges(name, route_after_search_to(parts.fallback), ["generate", parts.fallback])
    graph.add_edge("generate", END)
    graph.add_edge(parts.fallback, END)
    graph.add_edge("unsupported_language", END)
    return graph


def build_adaptive_rag_graph(sources: Mapping[str, Any], *, routes: Sequence[RouteSpec],
                             checkpointer: BaseCheckpointSaver | None = None, **options: Any) -> CompiledStateGraph:
    """:func:`adaptive_rag_graph` compiled (same arguments), with an optional LangGraph checkpointer.

    The restaurant: ``build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)``.
    """
    return adaptive_rag_graph(sources, routes=routes, **options).compile(checkpointer=checkpointer, name="adaptive_rag")


__all__ = ["FALLBACK_SYSTEM_PROMPT", "GENERIC_FALLBACK", "NO_DOCUMENTS_PREFIX", "AdaptiveRAGNodes", "AdaptiveRAGState",
           "adaptive_rag_graph", "adaptive_rag_nodes", "build_adaptive_rag_graph", "check_route_sources", "fallback_node", "fallback_result",
           "generate_node", "route_after_check_question", "route_after_route_question", "route_after_search_to",
           "route_question_node", "search_node", "source_documents", "start_run", "structured_evidence"]
