"""Adaptive RAG: send each question to the source that can answer it, or to an honest fallback.

The graph, in one line: ``check_question -> route_question -> search_menu | search_wine | search_web |
llm_fallback``; a search that found documents feeds ``generate``, a search that found nothing (or failed)
goes to ``llm_fallback`` instead, so the final state always holds ``route``, ``documents`` and
``generation``.

The router *proposes* a route; code *disposes*: a route name outside :data:`ROUTE_NAMES` (a malformed
model answer) is replaced by ``llm_fallback`` and the reason is kept in ``route_note``.

Where validation happens: the entry node ``check_question`` runs :func:`ragkit.text.clean_query`, so an
empty or oversized question raises a ``ValueError`` out of ``graph.invoke`` before any search, model or
embedder is touched.

Simplifications: one route per question (a question about "the lamb and a wine for it" goes to one
source, not two); no relevance grading of the retrieved documents (that is Self-RAG and CRAG's job, in
notebooks 04 and 05); the offline fallback cannot answer anything, it only says what it can do. The
route specs (:data:`ROUTES`) and the documents behind them live in :mod:`ragkit.graphs.adaptive_routes`
and are re-exported here; this module holds the state, the nodes, the routers and the builder.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Literal, Mapping, Sequence, TypedDict

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from ragkit.graphs.adaptive_routes import ROUTE_NAMES, ROUTES, SEARCH_ROUTES, Route, load_route_documents
from ragkit.graphs.search_sources import LazySearch, SearchFn, as_search, default_retriever, default_web_search
from ragkit.graphs.trace import add_path, traced
from ragkit.roles.base import Answer, Router, RouteSpec, Writer
from ragkit.text import clean_query

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
    """State of the adaptive RAG graph (``path``/``timings`` are filled by :func:`ragkit.graphs.trace.traced`)."""

    question: str
    route: str
    route_note: str
    documents: list[Document]
    search_note: str
    generation: str
    answer: Answer
    used_documents: bool
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


# ---------------------------------------------------------------- nodes and routers
@traced("check_question")
def check_question(state: AdaptiveRAGState) -> AdaptiveRAGState:
    """Validate the question (empty or oversized input raises ValueError) and start a clean run.

    Reads: question. Writes: question, documents, used_documents.
    """
    return {"question": clean_query(state.get("question"), what="question"), "documents": [], "used_documents": False}


def route_question_node(router: Router) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the ``route_question`` node around a router."""

    @traced("route_question")
    def route_question(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Ask the router for a route; anything outside ROUTE_NAMES becomes ``llm_fallback``.

        Reads: question. Writes: route, route_note.
        """
        try:
            decision = router.route(state["question"])
        except Exception as err:  # noqa: BLE001 - a crashing router must not crash the graph
            return {"route": "llm_fallback", "route_note": f"router failed ({type(err).__name__}: {err}); using llm_fallback"}
        note = decision.note or f"confidence {decision.confidence:.2f}"
        if decision.route not in ROUTE_NAMES:
            return {"route": "llm_fallback", "route_note": f"router proposed unknown route {decision.route!r}; using llm_fallback"}
        if decision.fallback:
            note = f"router output unusable, safe default taken: {note}"
        return {"route": decision.route, "route_note": note}

    return route_question


def route_after_route_question(state: AdaptiveRAGState) -> Route:
    """The chosen route is the name of the next node."""
    route = state.get("route")
    return route if route in ROUTE_NAMES else "llm_fallback"  # type: ignore[return-value]


def search_node(name: str, search: SearchFn) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build a search node (``search_menu`` / ``search_wine`` / ``search_web``) that never raises."""
    corpus = SEARCH_ROUTES[name]

    @traced(name)
    def run(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Search one corpus; an error or an empty result leaves ``documents`` empty and says why.

        Reads: question. Writes: documents, search_note.
        """
        try:
            docs = search(state["question"])
        except Exception as err:  # noqa: BLE001 - any search failure is reported, never raised
            return {"documents": [], "search_note": f"{corpus} search failed ({type(err).__name__}: {err})"}
        if not docs:
            return {"documents": [], "search_note": f"{corpus} search found nothing for this question"}
        return {"documents": docs, "search_note": f"{corpus} search returned {len(docs)} documents"}

    run.__name__ = run.__qualname__ = name
    return run


def route_after_search(state: AdaptiveRAGState) -> Literal["generate", "llm_fallback"]:
    """Documents found -> ``generate``; nothing found (or the search failed) -> ``llm_fallback``."""
    return "generate" if state.get("documents") else "llm_fallback"


def generate_node(writer: Writer) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the ``generate`` node around a writer."""

    @traced("generate")
    def generate(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Write a cited answer from the retrieved documents.

        Reads: question, documents. Writes: answer, generation, used_documents.
        """
        answer = writer.write(state["question"], state["documents"])
        return {"answer": answer, "generation": answer.text, "used_documents": True}

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


def llm_fallback_node(chat_model: BaseChatModel | None) -> Callable[[AdaptiveRAGState], AdaptiveRAGState]:
    """Build the ``llm_fallback`` node (offline when ``chat_model`` is None)."""

    @traced("llm_fallback")
    def llm_fallback(state: AdaptiveRAGState) -> AdaptiveRAGState:
        """Answer without documents and say so plainly.

        Reads: question, route, search_note. Writes: generation, documents, used_documents.
        """
        text = fallback_answer(state["question"], state, chat_model)
        return {"generation": text, "documents": [], "used_documents": False}

    return llm_fallback


# ---------------------------------------------------------------- defaults and builder
def build_adaptive_rag_graph(
    router: Router | None = None,
    writer: Writer | None = None,
    retrievers: Mapping[str, Any] | None = None,
    web_search: Any | None = None,
    chat_model: BaseChatModel | None = None,
    routes: Sequence[RouteSpec] = ROUTES,
    k: int = 4,
    checkpointer: Any | None = None,
) -> Any:
    """Compile the adaptive RAG graph; every argument left as None gets its offline default.

    ``retrievers`` maps "menu"/"wine" to a retriever or a ``query -> docs`` function; ``web_search`` has
    ``search_documents(query, k)``. ``chat_model`` (optional) turns the defaults into LLM roles and lets
    ``llm_fallback`` answer from general knowledge.
    """
    from ragkit import roles

    if router is None:
        router = (roles.LLMRouter(chat_model, routes) if chat_model is not None
                  else roles.LocalRouter(routes, documents=load_route_documents(routes)))
    if writer is None:
        writer = roles.LLMWriter(chat_model) if chat_model is not None else roles.LocalWriter()
    retrievers = dict(retrievers or {})
    searches: dict[str, SearchFn] = {}
    for corpus in ("menu", "wine"):
        source = retrievers.get(corpus)
        searches[corpus] = as_search(source, k) if source is not None else LazySearch(
            lambda c=corpus: default_retriever(c, k), k)
    searches["web"] = as_search(web_search, k) if web_search is not None else LazySearch(default_web_search, k)

    graph = StateGraph(AdaptiveRAGState)
    graph.add_node("check_question", check_question)
    graph.add_node("route_question", route_question_node(router))
    for name, corpus in SEARCH_ROUTES.items():
        graph.add_node(name, search_node(name, searches[corpus]))
    graph.add_node("generate", generate_node(writer))
    graph.add_node("llm_fallback", llm_fallback_node(chat_model))

    graph.add_edge(START, "check_question")
    graph.add_edge("check_question", "route_question")
    graph.add_conditional_edges("route_question", route_after_route_question)
    for name in SEARCH_ROUTES:
        graph.add_conditional_edges(name, route_after_search)
    graph.add_edge("generate", END)
    graph.add_edge("llm_fallback", END)
    return graph.compile(checkpointer=checkpointer)


__all__ = [
    "OFFLINE_FALLBACK",
    "ROUTES",
    "ROUTE_NAMES",
    "AdaptiveRAGState",
    "Route",
    "as_search",
    "build_adaptive_rag_graph",
    "check_question",
    "fallback_answer",
    "load_route_documents",
    "route_after_route_question",
    "route_after_search",
]
