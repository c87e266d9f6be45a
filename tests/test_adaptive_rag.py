"""Adaptive RAG graph: shape snapshot, every route, empty/failing searches, validation, fallback, trace, result fields."""

from __future__ import annotations

import inspect
import os
from typing import Any, get_args

import pytest
from langchain_core.documents import Document

from ragkit.core.chat_models import ScriptedChatModel
from ragkit.domains.menu.routes import (
    OFFLINE_FALLBACK,
    ROUTE_NAMES,
    ROUTES,
    Route,
    load_routing_questions,
    menu_sources,
)
from ragkit.graphs.adaptive_rag import (
    GENERIC_FALLBACK,
    NO_DOCUMENTS_PREFIX,
    adaptive_rag_graph,
    adaptive_rag_nodes,
    build_adaptive_rag_graph,
    route_after_search_to,
)
from ragkit.roles.protocols import Answer
from ragkit.roles.router_protocols import RouteDecision, RouteSpec
from tests.conftest import assert_snapshot


# ---------------------------------------------------------------- test doubles
class FixedRouter:
    """Always proposes the same route (any string, to test malformed routes too)."""

    routes = ROUTES

    def __init__(self, route: str, fallback: bool = False) -> None:
        self.proposal, self.fallback, self.calls = route, fallback, []

    def route(self, question: str) -> RouteDecision:
        self.calls.append(question)
        return RouteDecision(self.proposal, 0.9, note="scripted", fallback=self.fallback)


class CrashingRouter(FixedRouter):
    def route(self, question: str) -> RouteDecision:
        raise RuntimeError("router is down")


class EchoWriter:
    """Answers with the first document's text and cites it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Document]]] = []

    def write(self, question: str, documents: Any) -> Answer:
        self.calls.append((question, list(documents)))
        return Answer(f"{documents[0].page_content} [1]", citations=(1,))


class RecordingSearch:
    def __init__(self, docs: list[Document] | Exception) -> None:
        self.docs, self.calls = docs, []

    def __call__(self, query: str) -> list[Document]:
        self.calls.append(query)
        if isinstance(self.docs, Exception):
            raise self.docs
        return list(self.docs)


class FakeWebSearch:
    """Speaks ragkit's retrieval protocol directly, as OfflineWebSearch does: ``search_with_scores(query, k)``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def search_with_scores(self, query: str, k: int | None = None) -> list[tuple[Document, float]]:
        self.calls.append((query, k))
        return [(Document("The harvest festival is on 12 October.", metadata={"id": "web-1"}), 3.5)]


def make_graph(route: str, menu: Any = None, wine: Any = None, web: Any = None, **kwargs: Any) -> tuple[Any, dict]:
    parts = {
        "router": FixedRouter(route),
        "writer": EchoWriter(),
        "menu": menu or RecordingSearch([Document("Risotto (main course, 16.00 EUR).", metadata={"id": "menu-1"})]),
        "wine": wine or RecordingSearch([Document("Barolo 2018, Nebbiolo.", metadata={"id": "wine-1"})]),
        "web": web or FakeWebSearch(),
    }
    parts.update(kwargs)
    graph = build_adaptive_rag_graph(
        {"search_menu": parts["menu"], "search_wine": parts["wine"], "search_web": parts["web"]},
        routes=ROUTES, fallback_text=OFFLINE_FALLBACK, router=parts["router"], writer=parts["writer"],
        chat_model=parts.get("chat_model"),
    )
    return graph, parts


# ---------------------------------------------------------------- shape
def test_mermaid_snapshot() -> None:
    graph, _ = make_graph("search_menu")
    text = graph.get_graph().draw_mermaid()
    assert_snapshot("adaptive_rag.mmd", text)


def test_default_routes_are_a_literal_and_specs_match() -> None:
    assert ROUTE_NAMES == get_args(Route) == ("search_menu", "search_wine", "search_web", "llm_fallback")
    assert tuple(spec.name for spec in ROUTES) == ROUTE_NAMES
    assert all(spec.description and len(spec.examples) >= 2 for spec in ROUTES)
    assert set(menu_sources()) == set(ROUTE_NAMES) - {"llm_fallback"}


def test_the_uncompiled_graph_can_be_extended_before_compiling() -> None:
    graph, parts = make_graph("search_menu")
    wider = adaptive_rag_graph({"search_menu": parts["menu"], "search_wine": parts["wine"], "search_web": parts["web"]},
                               routes=ROUTES, router=parts["router"], writer=parts["writer"])
    assert set(wider.nodes) == set(graph.get_graph().nodes) - {"__start__", "__end__"}
    assert wider.compile().invoke({"question": "Risotto?"})["outcome"] == "answered"


def test_route_examples_are_not_copied_from_the_labelled_set() -> None:
    try:
        labelled = {item["question"].strip().lower() for item in load_routing_questions()}
    except FileNotFoundError:
        pytest.skip("data/routing_questions.json not present yet")
    ours = {example.strip().lower() for spec in ROUTES for example in spec.examples}
    assert not ours & labelled


# ---------------------------------------------------------------- every route and branch
@pytest.mark.parametrize("route", ["search_menu", "search_wine", "search_web"])
def test_each_search_route_feeds_generate(route: str) -> None:
    graph, parts = make_graph(route)
    out = graph.invoke({"question": "  what is on tonight?  "})
    assert out["route"] == route
    assert out["path"] == ["check_question", "route_question", route, "generate"]
    assert len(out["documents"]) == 1 and out["sources"] == out["documents"]
    assert out["outcome"] == "answered" and out["answer"].endswith("[1]") and out["citations"] == [1]
    assert out["reason"].startswith(f"written from {route}")
    assert parts["writer"].calls[0][0] == "what is on tonight?"  # the stripped question
    if route == "search_web":
        assert parts["web"].calls == [("what is on tonight?", 4)]
        assert out["documents"][0].metadata["score"] == 3.5  # the source's score travels with the document
    # only the chosen source was searched
    assert len(parts["menu"].calls) == (route == "search_menu")
    assert len(parts["wine"].calls) == (route == "search_wine")


def test_llm_fallback_route_offline_answers_honestly_without_documents() -> None:
    graph, parts = make_graph("llm_fallback")
    out = graph.invoke({"question": "Who wrote Don Quixote?"})
    assert out["path"] == ["check_question", "route_question", "llm_fallback"]
    assert out["route"] == "llm_fallback" and out["documents"] == [] and out["sources"] == []
    assert out["answer"] == OFFLINE_FALLBACK and out["outcome"] == "refused" and out["citations"] == []
    assert "none of the sources covers" in out["reason"]
    assert parts["menu"].calls == parts["wine"].calls == parts["web"].calls == []
    assert parts["writer"].calls == []


def test_llm_fallback_with_a_chat_model_says_it_used_no_documents() -> None:
    model = ScriptedChatModel(responses=["Miguel de Cervantes."])
    graph, _ = make_graph("llm_fallback", chat_model=model)
    out = graph.invoke({"question": "Who wrote Don Quixote?"})
    assert out["answer"] == f"{NO_DOCUMENTS_PREFIX} Miguel de Cervantes."
    assert out["outcome"] == "answered" and out["sources"] == [] and "general knowledge" in out["reason"]
    assert "Who wrote Don Quixote?" in str(model.calls[0]["messages"][-1].content)


def test_llm_fallback_reads_a_reply_of_content_parts_as_its_text() -> None:
    from langchain_core.messages import AIMessage

    reply = AIMessage(content=[{"type": "text", "text": "Miguel de"}, {"type": "text", "text": "Cervantes."}])
    graph, _ = make_graph("llm_fallback", chat_model=ScriptedChatModel(responses=[reply]))
    assert graph.invoke({"question": "Who wrote Don Quixote?"})["answer"] == f"{NO_DOCUMENTS_PREFIX} Miguel de Cervantes."


def test_llm_fallback_when_the_chat_model_fails_gives_the_offline_message() -> None:
    graph, _ = make_graph("llm_fallback", chat_model=ScriptedChatModel(responses=[TimeoutError("slow")]))
    out = graph.invoke({"question": "Who wrote Don Quixote?"})
    assert out["answer"].startswith(OFFLINE_FALLBACK) and "TimeoutError" in out["answer"]
    assert out["outcome"] == "refused" and "TimeoutError" in out["reason"]


@pytest.mark.parametrize("proposal", ["search_recipes", "", "SEARCH_MENU"])
def test_a_route_outside_the_literal_becomes_the_fallback(proposal: str) -> None:
    graph, _ = make_graph(proposal)
    out = graph.invoke({"question": "Anything?"})
    assert out["route"] == "llm_fallback" and "unknown route" in out["route_note"]
    assert out["path"][-1] == "llm_fallback"


def test_a_crashing_router_becomes_the_fallback() -> None:
    graph, _ = make_graph("search_menu", router=CrashingRouter("search_menu"))
    out = graph.invoke({"question": "Anything?"})
    assert out["route"] == "llm_fallback" and "router is down" in out["route_note"]


def test_a_router_fallback_decision_is_kept_and_labelled() -> None:
    graph, _ = make_graph("llm_fallback", router=FixedRouter("llm_fallback", fallback=True))
    out = graph.invoke({"question": "Anything?"})
    assert "safe default" in out["route_note"]


def test_a_search_that_finds_nothing_goes_to_the_fallback() -> None:
    graph, parts = make_graph("search_wine", wine=RecordingSearch([]))
    out = graph.invoke({"question": "Do you have a Greek wine?"})
    assert out["path"] == ["check_question", "route_question", "search_wine", "llm_fallback"]
    assert out["route"] == "search_wine" and out["documents"] == []
    assert "found nothing" in out["search_note"] and "found nothing" in out["answer"]
    assert out["answer"] != OFFLINE_FALLBACK  # it says what happened, not "outside my topics"
    assert out["outcome"] == "refused" and out["reason"] == out["search_note"]
    assert parts["writer"].calls == []


def test_a_search_that_raises_goes_to_the_fallback_without_crashing() -> None:
    graph, _ = make_graph("search_menu", menu=RecordingSearch(ConnectionError("index missing")))
    out = graph.invoke({"question": "Is the soup vegan?"})
    assert out["path"][-1] == "llm_fallback" and out["documents"] == []
    assert "ConnectionError" in out["search_note"] and "index missing" in out["answer"]
    assert out["search_failed"] is True and out["outcome"] == "refused"


def test_a_setup_error_in_a_structured_search_is_raised_not_turned_into_a_fallback() -> None:
    class Unready:
        def analyze(self, question):
            raise FileNotFoundError("no index here: run ragkit ingest first")

        def search_analysed(self, analysis, k=None):
            raise AssertionError("never reached")

        def search_with_scores(self, query, k=None):
            raise AssertionError("never reached")

    graph, _ = make_graph("search_menu", menu=Unready())
    with pytest.raises(FileNotFoundError, match="run ragkit ingest"):
        graph.invoke({"question": "Is the soup vegan?"})


def test_route_after_search_branches() -> None:
    route_after_search = route_after_search_to("llm_fallback")
    assert route_after_search({"documents": [Document("x")]}) == "generate"
    assert route_after_search({"documents": []}) == "llm_fallback"


# ---------------------------------------------------------------- validation and trace
@pytest.mark.parametrize("question", ["", "   \n\t", None])
def test_an_empty_question_is_rejected_before_any_role_runs(question: Any) -> None:
    graph, parts = make_graph("search_menu")
    with pytest.raises((ValueError, TypeError), match="question"):
        graph.invoke({"question": question})
    assert parts["router"].calls == [] and parts["menu"].calls == [] and parts["writer"].calls == []


def test_a_huge_question_is_rejected_with_a_clear_message_naming_the_argument_that_exists() -> None:
    graph, parts = make_graph("search_menu")
    with pytest.raises(ValueError, match=r"2,001 characters.*build_adaptive_rag_graph\(max_question_chars=") as err:
        graph.invoke({"question": "w" * 2_001})
    assert parts["router"].calls == [] and parts["menu"].calls == []
    assert "max_question_chars" in inspect.signature(adaptive_rag_graph).parameters  # the hint is real (build_ passes it on)
    longer = build_adaptive_rag_graph({"search_menu": parts["menu"], "search_wine": parts["wine"], "search_web": parts["web"]},
                                      routes=ROUTES, router=FixedRouter("search_menu"), writer=EchoWriter(),
                                      max_question_chars=3_000)
    assert longer.invoke({"question": "w" * 2_001})["route"] == "search_menu"
    assert "limit" in str(err.value)


def test_the_trace_records_path_and_one_timing_per_node() -> None:
    graph, _ = make_graph("search_web")
    out = graph.invoke({"question": "Any festivals?"})
    assert [name for name, _ in out["timings"]] == out["path"]
    assert all(seconds >= 0 for _, seconds in out["timings"])


def test_default_searches_are_built_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def fake_default(corpus: str, k: int = 4) -> Any:
        built.append(corpus)
        return lambda query: [Document(f"{corpus} doc")]

    import ragkit.core.hybrid as presets

    monkeypatch.setattr(presets, "default_retriever", lambda docs, k=4: fake_default(docs[0].metadata["source"], k))
    graph = build_adaptive_rag_graph({**menu_sources(), "search_web": FakeWebSearch()}, routes=ROUTES,
                                     router=FixedRouter("search_wine"), writer=EchoWriter())
    assert built == []  # building the graph loaded nothing
    out = graph.invoke({"question": "A red wine?"})
    # the wine route is structured: the ranker was built on first search; the documents are the wine list's own,
    # filtered by the question's analysis (style red)
    assert built == ["wines.json"] and out["analysis"].describe() == "style is red"
    assert out["documents"] and all(d.metadata["style"] == "red" for d in out["documents"])
    graph.invoke({"question": "Another red wine?"})
    assert built == ["wines.json"]  # built once, then reused


# ---------------------------------------------------------------- routes come from data (regressions)
NOTES = [Document("The 2024 meeting moved to Thursdays.", metadata={"id": "n1"}),
         Document("Budget reviews happen every quarter.", metadata={"id": "n2"})]
MY_ROUTES = (RouteSpec("search_notes", "our team's meeting notes", ("When do we meet?",)),
             RouteSpec("general", "anything else", ("What is 2 + 2?",)))


def test_a_route_of_ones_own_is_searched_not_sent_to_the_fallback() -> None:
    notes = RecordingSearch(NOTES)
    graph = build_adaptive_rag_graph(router=FixedRouter("search_notes"), writer=EchoWriter(), routes=MY_ROUTES,
                                     sources={"search_notes": notes})
    out = graph.invoke({"question": "When do we meet?"})
    assert out["route"] == "search_notes" and out["path"] == ["check_question", "route_question", "search_notes", "generate"]
    assert notes.calls == ["When do we meet?"] and out["answer"].startswith("The 2024 meeting")
    # the fallback is the route without a source, here "general", and its offline message names no menu
    other = build_adaptive_rag_graph(router=FixedRouter("nonsense"), writer=EchoWriter(), routes=MY_ROUTES,
                                     sources={"search_notes": notes}).invoke({"question": "x?"})
    assert other["path"][-1] == "general" and other["answer"] == GENERIC_FALLBACK
    mine = build_adaptive_rag_graph(router=FixedRouter("nonsense"), writer=EchoWriter(), routes=MY_ROUTES,
                                    sources={"search_notes": notes}, fallback_text="Ask me about our meetings.")
    assert mine.invoke({"question": "x?"})["answer"] == "Ask me about our meetings."


def test_a_local_router_over_ones_own_routes_uses_their_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragkit.core.bm25 import BM25Retriever

    graph = build_adaptive_rag_graph(routes=MY_ROUTES, sources={"search_notes": BM25Retriever.from_documents(NOTES)})
    assert graph.invoke({"question": "Which day did the 2024 meeting move to?"})["route"] == "search_notes"
    assert graph.invoke({"question": "What is 12 times 12?"})["route"] == "general"


@pytest.mark.parametrize(("sources", "message"), [
    ({"search_notes": NOTES, "serch_notes": NOTES}, "not among the routes"),
    ({}, "have no search source"),
    ({"search_notes": NOTES, "general": NOTES}, "must not have a search source"),
])
def test_route_and_source_mistakes_fail_when_the_graph_is_built(sources: dict, message: str) -> None:
    sources = {name: (lambda q, docs=docs: docs) for name, docs in sources.items()}
    with pytest.raises(ValueError, match=message):
        build_adaptive_rag_graph(router=FixedRouter("search_notes"), writer=EchoWriter(), routes=MY_ROUTES, sources=sources)


def test_a_corpus_name_is_no_source_and_fails_when_the_graph_is_built() -> None:
    with pytest.raises(TypeError, match="'menus2' is a name, not a retriever"):
        build_adaptive_rag_graph({**menu_sources(), "search_menu": "menus2"}, routes=ROUTES,
                                 router=FixedRouter("search_menu"), writer=EchoWriter())


@pytest.mark.parametrize("builder", [adaptive_rag_graph, build_adaptive_rag_graph, adaptive_rag_nodes])
def test_the_graph_knows_no_corpus_so_sources_and_routes_are_required(builder: Any) -> None:
    with pytest.raises(TypeError, match="required positional argument: 'sources'"):
        builder(routes=MY_ROUTES)
    with pytest.raises(TypeError, match="required keyword-only argument: 'routes'"):
        builder({"search_notes": RecordingSearch(NOTES)})
    # a query analyser belongs to the structured sources (menu_sources(query_analyzer=...)), not to the graph
    with pytest.raises(TypeError, match="query_analyzer"):
        builder({"search_notes": RecordingSearch(NOTES)}, routes=MY_ROUTES, query_analyzer=object())


def test_the_restaurants_pieces_build_the_menu_graph() -> None:
    graph = build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)
    out = graph.invoke({"question": "Who wrote Don Quixote?"})
    assert out["route"] == "llm_fallback" and out["answer"] == OFFLINE_FALLBACK
    # without the restaurant's text the fallback says the generic one, which names no restaurant
    generic = build_adaptive_rag_graph(menu_sources(), routes=ROUTES).invoke({"question": "Who wrote Don Quixote?"})
    assert generic["route"] == "llm_fallback" and generic["answer"] == GENERIC_FALLBACK


def test_a_role_of_the_wrong_kind_fails_when_the_graph_is_built() -> None:
    with pytest.raises(TypeError, match="router= needs a Router"):
        build_adaptive_rag_graph(router=object(), routes=MY_ROUTES, sources={"search_notes": RecordingSearch(NOTES)})
    graph = build_adaptive_rag_graph(router=lambda q: RouteDecision("search_notes", 1.0), routes=MY_ROUTES,
                                     writer=lambda q, docs: Answer("Thursdays [1].", (1,)),
                                     sources={"search_notes": RecordingSearch(NOTES)})
    assert graph.invoke({"question": "When?"})["answer"] == "Thursdays [1]."  # plain functions are roles too


# ---------------------------------------------------------------- LLM roles on a scripted chat model
def test_llm_roles_on_a_scripted_model_route_and_write() -> None:
    model = ScriptedChatModel(responses=[
        {"route": "search_wine", "reason": "asks about the wine list"},
        {"answer": "The Barolo is a Nebbiolo [1] [9].", "answered": True},
    ])
    graph = build_adaptive_rag_graph({"search_menu": RecordingSearch([]),
                                      "search_wine": RecordingSearch([Document("Barolo 2018, Nebbiolo.")]),
                                      "search_web": FakeWebSearch()}, routes=ROUTES, chat_model=model)
    out = graph.invoke({"question": "Which grape is the Barolo?"})
    assert out["route"] == "search_wine" and out["path"][-1] == "generate"
    assert out["answer"] == "The Barolo is a Nebbiolo [1]." and out["citations"] == [1]  # the invented [9] was dropped
    assert len(model.calls) == 2
    assert out["route_scores"] == {} and out["route_margin"] is None  # a chat model's choice has no scores


def test_malformed_router_output_goes_to_the_fallback_which_says_it_used_no_documents() -> None:
    model = ScriptedChatModel(responses=["I think it's about wine!", "Paris."])
    graph = build_adaptive_rag_graph({"search_menu": RecordingSearch([]), "search_wine": RecordingSearch([]),
                                      "search_web": FakeWebSearch()}, routes=ROUTES, chat_model=model)
    out = graph.invoke({"question": "What is the capital of France?"})
    assert out["route"] == "llm_fallback" and "safe default" in out["route_note"]
    assert out["answer"] == f"{NO_DOCUMENTS_PREFIX} Paris." and out["documents"] == [] and out["sources"] == []


def test_default_local_roles_route_a_menu_question_to_the_menu() -> None:
    graph = build_adaptive_rag_graph(menu_sources(), routes=ROUTES)
    out = graph.invoke({"question": "Which of the desserts on your menu contain eggs?"})
    assert out["route"] == "search_menu" and out["path"][:3] == ["check_question", "route_question", "search_menu"]
    assert all(d.metadata["course"] == "dessert" for d in out["documents"])
    with_eggs = {d.metadata["id"] for d in out["documents"] if "eggs" in d.metadata["allergens"]}
    assert with_eggs == {"menu-22", "menu-24"}  # both desserts with eggs were found
    assert "Orange and almond cake" in out["answer"] and "[1]" in out["answer"] and out["outcome"] == "answered"


def test_the_state_shows_the_local_routers_scores_and_margin() -> None:
    graph = build_adaptive_rag_graph(menu_sources(), routes=ROUTES)
    out = graph.invoke({"question": "Is the coast road closed today?"})
    scores = out["route_scores"]
    assert set(scores) == set(ROUTE_NAMES) and out["route"] == max(scores, key=scores.get) == "search_web"
    best, runner_up = sorted(scores.values(), reverse=True)[:2]
    assert out["route_margin"] == pytest.approx(best - runner_up) and out["route_margin"] > 0
    failed = build_adaptive_rag_graph({"search_menu": RecordingSearch([]), "search_wine": RecordingSearch([]),
                                       "search_web": FakeWebSearch()}, routes=ROUTES, router=CrashingRouter("x"))
    out = failed.invoke({"question": "Is the coast road closed today?"})
    assert out["route_scores"] == {} and out["route_margin"] is None


@pytest.mark.gemini
@pytest.mark.skipif(not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")),
                    reason="needs GOOGLE_API_KEY or GEMINI_API_KEY")
def test_gemini_smoke() -> None:
    from ragkit.core.chat_models import load_chat_model

    model = load_chat_model("fast", required=True)
    graph = build_adaptive_rag_graph(menu_sources(chat_model=model), routes=ROUTES, chat_model=model)
    out = graph.invoke({"question": "Is there a vegetarian main course on the menu?"})
    assert out["route"] in ROUTE_NAMES and out["answer"].strip()


def test_the_nodes_factory_builds_every_node_the_builder_wires() -> None:
    """adaptive_rag_nodes() is what the builder wires (a notebook wires the same nodes by hand)."""
    parts = adaptive_rag_nodes(sources={"search_docs": lambda q: []},
                               routes=(RouteSpec("search_docs", "our documents"), RouteSpec("general", "anything else")))
    assert list(parts.nodes) == ["check_question", "unsupported_language", "route_question", "search_docs", "generate",
                                 "general"]
    assert (parts.routes, parts.searches, parts.fallback) == (["search_docs", "general"], ["search_docs"], "general")
    graph = adaptive_rag_graph(sources={"search_docs": lambda q: []},
                               routes=(RouteSpec("search_docs", "our documents"), RouteSpec("general", "anything else")))
    assert set(graph.nodes) == set(parts.nodes)


def test_a_yes_no_question_about_something_no_document_mentions_is_not_answered_as_a_yes() -> None:
    from ragkit.offline.structured_answers import StructuredWriter, unmentioned_caveat
    from ragkit.roles.structured_query import QueryAnalysis

    docs = [Document("Six raw oysters served on ice.", metadata={"id": "o", "title": "Oysters"}),
            Document("Rice cooked in squid ink.", metadata={"id": "r", "title": "Black rice"})]

    class Quoting:  # a writer that quotes the nearest document, as the local one does
        def write(self, question, documents):
            return Answer(f"{documents[0].page_content} [1]", (1,))

    def asked(question: str, ignored: tuple[str, ...]) -> Answer:
        from langchain_core.structured_query import StructuredQuery

        analysis = QueryAnalysis(question, StructuredQuery(query=question, filter=None), ignored=ignored)
        return StructuredWriter(Quoting(), analyzer=None).write(question, docs, query=analysis)

    assert asked("Do you serve sushi?", ("sushi",)).text.startswith("None of the documents I found mentions 'sushi'")
    assert asked("Do you serve oysters?", ("oysters",)).text == "Six raw oysters served on ice. [1]"  # mentioned
    assert asked("What goes with sushi?", ("sushi",)).text == "Six raw oysters served on ice. [1]"  # not yes/no
    refused = Answer("I don't know.", (), answered=False)
    assert unmentioned_caveat(refused, QueryAnalysis("Do you serve sushi?", None, ignored=("sushi",)), docs) is refused
