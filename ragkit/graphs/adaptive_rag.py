"""Adaptive RAG: send each question to the source that can answer it, or to an honest fallback.

The graph, in one line: ``check_question -> route_question -> <one node per search route> |
llm_fallback``; a search that found documents feeds ``generate``, a search that found nothing (or failed)
goes to the fallback instead, so the final state always holds ``route``, ``documents`` and ``generation``.

The graph is built from data: route specs (:data:`ROUTES` by default) plus ``sources``, a mapping from
each search route's name to what it searches (a ragkit retriever, a LangChain ``VectorStore`` or
retriever, a function, or a bundled corpus name; default :data:`SEARCH_ROUTES`). The route without a
source is the fallback. :func:`check_route_sources` checks the two fit together when the graph is built.

The menu and wine routes read the question's structure first (:mod:`ragkit.roles.query_analysis`, the
``query_analyzer`` role) and search with a structured retriever that applies its filter and sort exactly
(:mod:`ragkit.offline.structured`); the analysis goes into the state (``analysis``) and to the writer,
so an excluded item is never listed, a superlative is answered with its winner and a comparison is
stated. When the filter leaves nothing, that IS the answer ("No: nothing on the list matches ..."), so
the run goes to ``generate``, not to the fallback.

The router *proposes* a route; code *disposes*: a route name that is not one of the graph's routes (a
malformed model answer) is replaced by the fallback and the reason is kept in ``route_note``.

Errors follow :mod:`ragkit.core.contract`: an empty or oversized question raises a ``ValueError`` out of
``graph.invoke`` before any search, model or embedder is touched (``max_question_chars=`` raises the
limit); a search that raises is reported in ``search_note`` and the run goes to the fallback.

Simplifications: one route per question (a question about "the lamb and a wine for it" goes to one
source, not two); no relevance grading of the retrieved documents (that is Self-RAG and CRAG's job, in
notebooks 04 and 05); the offline fallback cannot answer anything, it only says what it can do. The
route specs (:data:`ROUTES`) and the documents behind them live in :mod:`ragkit.graphs.adaptive_routes`
and are re-exported here; this module holds the state, the nodes, the routers and the builder.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Callable, Literal, Mapping, Sequence, TypedDict

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from ragkit.core import contract as policy
from ragkit.core.contract import add_path, check_limit, traced
from ragkit.core.search import ScoredSearch, with_score
from ragkit.defaults import GRAPHS
from ragkit.graphs.adaptive_routes import (
    ROUTE_NAMES,
    ROUTES,
    SEARCH_ROUTES,
    Route,
    StructuredSearch,
    check_route_sources,
    load_route_documents,
    route_search,
    source_documents,
)
from ragkit.offline.structured_answers import StructuredWriter, structured_answer
from ragkit.roles.factory import make_roles
from ragkit.roles.protocols import Answer, Router, RouteSpec, Writer
from ragkit.roles.query_analysis import LocalQueryAnalyzer

OFFLINE_FALLBACK = (
    "I can only answer questions about the menu, the wine list and local news offline; this question is "
    "outside those, so I have no documents to answer from. Ask about a dish, a wine or a local story, or "
    "connect a chat model for general questions."
)
NO_DOCUMENTS_PREFIX = "(No documents were used: this answer comes from the model's general knowledge.)"
FALLBACK_SYSTEM_PROMPT = (
    "You are a helpful assistant. No documents were retrieved for this question, so answer briefly from "
    "general knowledge, and say plainly when you are not sure."
)


class AdaptiveRAGState(TypedDict, total=False):
    """State of the adaptive RAG graph (``path``/``timings`` are filled by :func:`ragkit.core.contract.traced`)."""

    question: str
    language_note: str | None
    route: str
    route_note: str
    documents: list[Document]
    analysis: Any  # the question's structured query (a QueryAnalysis) on a structured route, else None
    search_note: str
    search_failed: bool
    generation: str
    answer: Answer
    used_documents: bool
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


# ---------------------------------------------------------------- nodes and routers
def check_question_node(max_chars: int = GRAPHS.max_question_chars,
                        chat_model_set: bool = False) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the validating entry node (input policy: :mod:`ragkit.core.contract`)."""

    @traced("check_question")
    def check_question(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Validate the question (empty or oversized input raises ValueError), note whether the roles can
        read its language, and start a clean run.

        Reads: question. Writes: question, language_note, documents, used_documents, search_failed.
        """
        question = policy.check_question(state.get("question"), max_chars, "build_adaptive_rag_graph")
        return {"question": question, "language_note": policy.language_note(question, chat_model_set),
                "documents": [], "used_documents": False, "search_failed": False, "analysis": None}

    return check_question


def route_after_check_question(state: AdaptiveRAGState) -> Literal["route_question", "unsupported_language"]:
    """A question the roles cannot read gets the language message; every other one is routed."""
    return "unsupported_language" if state.get("language_note") else "route_question"


@traced("unsupported_language")
def unsupported_language(state: AdaptiveRAGState) -> AdaptiveRAGState:
    """Say plainly which language the offline models read. Reads: language_note. Writes: generation, route."""
    return {"generation": state["language_note"], "route": "unsupported_language", "documents": [],
            "used_documents": False}


def structured_evidence(question: str, structured: Mapping[str, Any]) -> list[str]:
    """The structured routes whose corpus's own fields explain the whole question (:attr:`QueryAnalysis.covered`).

    "What is the cheapest side dish?" is a sort on the menu's price within its course "side"; on the wine
    list "side" means nothing, so only the menu route explains it.
    """
    return [name for name, search in structured.items() if search.analyze(question).covered]


def route_question_node(router: Router, route_names: Sequence[str], fallback: str,
                        structured: Mapping[str, Any] | None = None) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
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

        Reads: question. Writes: route, route_note.
        """
        try:
            decision = router.route(state["question"])
        except Exception as err:  # noqa: BLE001 - policy 3: a crashing router takes the safe branch
            decision = None
            route, note = fallback, f"router failed ({type(err).__name__}: {err}); using {fallback}"
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
        return {"route": route, "route_note": note}

    return route_question


def route_after_route_question(state: AdaptiveRAGState) -> str:
    """The chosen route is the name of the next node (``route_question`` only writes known routes)."""
    return state["route"]


def search_node(name: str, search: ScoredSearch, k: int = GRAPHS.k) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build a search node (one per search route, named as the route) that never raises.

    A structured search (one with ``analyze`` and ``search_analysed``) reads the question first, applies
    its filter and sort, and writes the analysis into the state, marked ``searched_all`` when structure was
    applied to the whole corpus.
    """
    label = getattr(search, "name", None) or name.removeprefix("search_")

    @traced(name)
    def run(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Search one source; an error or an empty result leaves ``documents`` empty and says why.

        Reads: question. Writes: documents, analysis, search_note, search_failed.
        """
        if not hasattr(search, "search_analysed"):
            outcome = policy.run_search(search, state["question"], k, what=f"{label} search")
            return {"documents": outcome.documents, "search_note": outcome.note, "search_failed": outcome.failed}
        try:
            analysis = search.analyze(state["question"])
            result = search.search_analysed(analysis, k)
        except Exception as err:  # noqa: BLE001 - policy 2: a failing search is reported, never raised
            return {"documents": [], "analysis": None, "search_failed": True,
                    "search_note": f"{label} search failed ({type(err).__name__}: {err})"}
        if analysis.structured:
            analysis = dataclasses.replace(analysis, searched_all=True)
        docs = [with_score(d, s) for d, s in result.hits]
        return {"documents": docs, "analysis": analysis, "search_failed": False,
                "search_note": f"{label} search: {result.note}"}

    run.__name__ = run.__qualname__ = name
    return run


def route_after_search_to(fallback: str) -> Callable[[AdaptiveRAGState], str]:
    """The router after a search: documents found -> ``generate``; nothing found (or it failed) -> the fallback,
    unless a structured search over the whole corpus found nothing: then "nothing matches" is the answer."""

    def route_after_search(state: AdaptiveRAGState) -> str:
        if state.get("documents"):
            return "generate"
        analysis = state.get("analysis")
        exhaustive = analysis is not None and getattr(analysis, "searched_all", False) and not state.get("search_failed")
        return "generate" if exhaustive else fallback

    return route_after_search


route_after_search = route_after_search_to("llm_fallback")


def generate_node(writer: StructuredWriter) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the ``generate`` node around a structured writer (given the question's analysis)."""

    @traced("generate")
    def generate(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Write a cited answer from the retrieved documents; with no documents after a structured search
        over the whole corpus, say that nothing matches.

        Reads: question, documents, analysis. Writes: answer, generation, used_documents.
        """
        analysis, docs = state.get("analysis"), state["documents"]
        if not docs and analysis is not None:
            answer = structured_answer([], analysis) or Answer(
                f"Nothing on the list matches ({analysis.describe()}).", (), answered=False)
        else:
            answer = writer.write(state["question"], docs, query=analysis)
        return {"answer": answer, "generation": answer.text, "used_documents": bool(docs)}

    return generate


def fallback_answer(question: str, state: Mapping[str, Any], chat_model: BaseChatModel | None) -> str:
    """The fallback's text: a chat model's answer marked as using no documents, or the offline message.

    >>> fallback_answer("Who wrote Hamlet?", {}, None) == OFFLINE_FALLBACK
    True
    """
    searched = state.get("search_note")
    # Coming from a search that found nothing or failed: say that, not "outside my topics".
    offline = f"I have no documents to answer this from: the {searched}." if searched else OFFLINE_FALLBACK
    if chat_model is None:
        return offline
    try:
        reply = chat_model.invoke([SystemMessage(FALLBACK_SYSTEM_PROMPT), HumanMessage(question)])
    except Exception as err:  # noqa: BLE001 - a failing model falls back to the honest offline message
        return f"{offline} (The chat model failed: {type(err).__name__}.)"
    text = reply.content if isinstance(reply.content, str) else str(reply.content)
    return f"{NO_DOCUMENTS_PREFIX} {text.strip()}"


def llm_fallback_node(chat_model: BaseChatModel | None, name: str = "llm_fallback") -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the fallback node (offline when ``chat_model`` is None), named as the fallback route."""

    @traced(name)
    def llm_fallback(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Answer without documents and say so plainly.

        Reads: question, route, search_note. Writes: generation, documents, used_documents.
        """
        text = fallback_answer(state["question"], state, chat_model)
        return {"generation": text, "documents": [], "used_documents": False}

    llm_fallback.__name__ = llm_fallback.__qualname__ = name
    return llm_fallback


# ---------------------------------------------------------------- builder
def build_adaptive_rag_graph(
    router: Router | None = None,
    writer: Writer | None = None,
    sources: Mapping[str, Any] | None = None,
    *,
    routes: Sequence[RouteSpec] = ROUTES,
    fallback: str | None = None,
    query_analyzer: Any | None = None,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    k: int = GRAPHS.k,
    max_question_chars: int = GRAPHS.max_question_chars,
    checkpointer: Any | None = None,
) -> Any:
    """Compile the adaptive RAG graph from route specs and their search sources.

    ``sources`` maps each search route to what it searches (default :data:`SEARCH_ROUTES`: the bundled
    menu, wine list and web snapshot); the route without a source is the fallback (``fallback``, default
    the last route). Roles left as ``None`` come from :func:`ragkit.roles.factory.make_roles`: local
    roles, or LLM roles on ``chat_model`` (the router and the query analyser on ``judge_model`` when given);
    with a chat model the fallback answers from general knowledge and says so. The structured routes
    (menu, wine) use ``query_analyzer`` (default: the factory's), re-targeted to each corpus.
    """
    check_limit(max_question_chars)
    sources = dict(SEARCH_ROUTES if sources is None else sources)
    fallback = check_route_sources(routes, sources, fallback)
    names = [spec.name for spec in routes]
    roles = make_roles(chat_model, judge_model=judge_model, router=router, writer=writer, query_analyzer=query_analyzer)
    router = roles.router(routes, fallback=fallback, documents=None if roles.llm or router else source_documents(sources))

    graph = StateGraph(AdaptiveRAGState)
    graph.add_node("check_question", check_question_node(max_question_chars, roles.llm))
    graph.add_node("unsupported_language", unsupported_language)
    searches = [name for name in names if name != fallback]
    analyzer = roles.get("query_analyzer")  # cheap: a local analyser reads its vocabulary on first use
    search_of = {name: route_search(sources[name], k, analyzer) for name in searches}
    # Structured evidence for routing costs one local analysis per structured route; with an LLM analyser it
    # would cost a model call each, so it is only used with the local one.
    evidence = ({n: s for n, s in search_of.items() if isinstance(s, StructuredSearch)}
                if isinstance(analyzer, LocalQueryAnalyzer) else {})
    graph.add_node("route_question", route_question_node(router, names, fallback, evidence))
    for name in searches:
        graph.add_node(name, search_node(name, search_of[name], k))
    graph.add_node("generate", generate_node(StructuredWriter(roles.writer, analyzer=None)))  # the searches analysed it
    graph.add_node(fallback, llm_fallback_node(chat_model, fallback))

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_conditional_edges("route_question", route_after_route_question, names)
    for name in searches:
        graph.add_conditional_edges(name, route_after_search_to(fallback), ["generate", fallback])
    graph.add_edge("generate", END)
    graph.add_edge(fallback, END)
    graph.add_edge("unsupported_language", END)
    return graph.compile(checkpointer=checkpointer)


__all__ = [
    "NO_DOCUMENTS_PREFIX",
    "OFFLINE_FALLBACK",
    "ROUTES",
    "ROUTE_NAMES",
    "SEARCH_ROUTES",
    "AdaptiveRAGState",
    "Route",
    "build_adaptive_rag_graph",
    "check_question_node",
    "fallback_answer",
    "generate_node",
    "llm_fallback_node",
    "load_route_documents",
    "route_after_check_question",
    "route_after_route_question",
    "route_after_search",
    "route_after_search_to",
    "route_question_node",
    "search_node",
    "structured_evidence",
]
