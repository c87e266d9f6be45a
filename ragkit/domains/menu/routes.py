"""The restaurant's Adaptive RAG routes: where a guest's question should go, and what each route searches.

Four routes (:data:`ROUTES`): the menu, the wine list, the local web snapshot and a fallback for
everything none of them covers. A route is a :class:`ragkit.roles.router_protocols.RouteSpec`: a name (also the
name of the graph node it leads to), a description a chat model reads, example questions a local router
compares a question with, and the kinds of question it serves whatever their topic: the web route serves
fresh, time-bound information (today's weather, the latest news, rates and results), the fallback general
knowledge ("What is burrata made from?"), the menu and the wine list questions about our own things ("Have
you got a Nebbiolo?", "Is the lamb spicy?"); their documents' words are what "our own" means to a local
router (the lamb, the Etna Rosso), so "the fridge" does not make a question about the restaurant. :func:`menu_sources` says what each search route searches: the menu and
the wine list as structured retrievers (their fields filtered exactly), the web as the offline web
search; :data:`OFFLINE_FALLBACK` is what the fallback says offline. A caller passes them, the graph itself
knows no restaurant: ``build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)``.

The labelled routing set (:func:`load_routing_questions`) is kept for tuning and measuring routers
(``benchmarks/roles/router_accuracy.py``); no route example is taken from it (a test checks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Literal, Sequence, get_args

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel

from ragkit.core.contract import DataError
from ragkit.core.files import locate, read_json, records, require
from ragkit.defaults import GRAPHS
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.menu.vocabulary import MENU_DESCRIPTION, menu_query_analyzer
from ragkit.domains.web.corpus import OfflineWebSearch, load_web_snapshot
from ragkit.offline.structured import StructuredRetriever
from ragkit.roles.llm_query_analysis import LLMQueryAnalyzer
from ragkit.roles.router_protocols import RouteSpec
from ragkit.roles.structured_query import QueryAnalyzer

Route = Literal["search_menu", "search_wine", "search_web", "llm_fallback"]
ROUTE_NAMES: tuple[str, ...] = get_args(Route)
OFFLINE_FALLBACK = (
    "I can only answer questions about the menu, the wine list and local news offline; this question is "
    "outside those, so I have no documents to answer from. Ask about a dish, a wine or a local story, or "
    "connect a chat model for general questions."
)

# Questions over each dish's and wine's fields (metadata of load_menu / load_wines), which a local router fills
# from the documents: one question per dish and value. Not attached to ROUTES: on routing dev they cost four
# points (a pairing question names a dish, "What would you pour with the ribeye?", and goes to the menu), and
# the hand-written examples with the corpus evidence already find attribute questions. For a route with few
# examples of its own: dataclasses.replace(spec, templates=MENU_TEMPLATES).
MENU_TEMPLATES = ("What is in the {title}?", "How much is the {title}?", "Is the {title} {dietary}?",
                  "Does the {title} contain {allergens}?", "Is there {ingredients} in the {title}?",
                  "Which {course} dishes do you have?")
WINE_TEMPLATES = ("Is the {title} a {style} wine?", "Which grapes are in the {title}?", "Is the {title} made from {grapes}?",
                  "Do you have a wine from {region}?", "Do you have any wines from {country}?",
                  "How much is a bottle of the {title}?")

# Written from what each corpus holds and from what a diner or a visitor asks (not taken
# from the labelled routing sets, which are kept for tuning and evaluation; a test checks they do not
# overlap). The examples are deliberately varied in wording and topic: the local router scores a route by
# its few closest examples, so a route needs examples near every kind of question it should receive. To
# fix a systematic routing mistake, add an example to the right route, then re-measure on the dev set.
ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec(
        "search_menu",
        "Our restaurant's food menu: the dishes we serve, starters, mains, sides and desserts, their "
        "prices, portions, ingredients, how they are cooked, allergens, and vegetarian, vegan or "
        "gluten-free options.",
        ("Is there a starter without gluten?", "How much does the cheapest main course cost?",
         "Which of your desserts contain nuts?", "What comes in the seafood pasta?",
         "Do you have anything vegan for a main?", "Is the fish soup spicy?",
         "What do you have for dessert?", "Is the sea bass served with potatoes?",
         "Can I get the burrata without the hazelnuts?", "Does the cuttlefish rice contain dairy?",
         "Is the mushroom pie suitable for vegans?", "What does the roast chicken come with?",
         "Are the oysters served raw?", "Which of your dishes are made with saffron?",
         "What would you suggest for a pescatarian?", "What's the price of a side of broccoli?",
         "Which main courses are dairy-free?", "Is the orange cake made with flour?",
         "Do any of your dishes contain celery or mustard?", "How many starters are on the menu?",
         "Is the beef grass-fed?", "Is there pork in any of your dishes?"),
        serves=("ours",),
    ),
    RouteSpec(
        "search_wine",
        "Our restaurant's wine list: the bottles and glasses we pour, their grapes, producers, regions, "
        "vintages, styles, tasting notes and prices, and which of our wines to drink with a dish.",
        ("Do you pour any orange wine by the glass?", "Which of your wines would suit grilled fish?",
         "What is the most expensive bottle on your list?", "Have you got a Nebbiolo?",
         "Is there a sparkling wine under 40 euros?", "Which red would you open with the lamb?",
         "Which wines do you sell by the glass?", "Is your Riesling sweet or dry?",
         "What grape is your house red made from?", "Is the Cava a vintage wine?",
         "Which sweet wine goes with the lemon tart?", "Do you have any French reds?",
         "How much is a glass of the Franciacorta?", "Which rosé would you pick for the tomato salad?",
         "What region does your Vermentino come from?", "Is the Malbec oaked?",
         "Which Italian whites do you have?", "What's a good wine for the mushroom pie?",
         "Do you stock a Sauvignon Blanc?", "Could we have a bottle of Tempranillo with the beef?",
         "Is the Champagne available in half bottles?", "What year is your Chardonnay?"),
        serves=("ours",),
    ),
    RouteSpec(
        "search_web",
        "Local news and articles about Porto Calvera, the town and the coast: events, festivals, "
        "concerts, the market, new cafes, bars, bakeries, hotels and shops, ferries, trains, parking, "
        "weather and storm warnings, beaches, walks, diving and boat trips, the fish market and the "
        "catch, the valley's harvest and wine cooperative, and a few articles on wine labels, orange "
        "wine, serving temperature, olive oil and the history of fish soup; and, as a web search, fresh and "
        "time-bound information: today's news and weather, what is open now, the latest prices, rates and results.",
        ("Has the new bakery on the harbour opened yet?", "When is the summer music festival this year?",
         "How do I get to the town by train?", "Is there a storm warning for this week?",
         "What does biodynamic mean on a wine label?", "Where can I swim near the old port?",
         "Are the trains running to the coast on Sunday?", "Where can I park near the old port?",
         "What's on at the harbour this weekend?", "Is the cliff path open for hiking?",
         "Has a new cafe opened on the quay?", "Is the fish market open on Sundays?",
         "Is there a heat alert for the weekend?", "Can we go to a wine tasting in the valley?",
         "Where can we go snorkelling around here?", "What is there to do in town in the evening?",
         "Does the ferry to the island run in winter?", "Are any new bars or restaurants opening in town?",
         "Where can I hire a boat for the day?", "How was the olive harvest this year?",
         "Is organic wine free of sulphites?", "Which fish are the boats landing at the moment?"),
        serves=("fresh",),
    ),
    RouteSpec(
        "llm_fallback",
        "Anything that needs none of our documents: general knowledge, history, science, maths, coding, "
        "translation, writing tasks, greetings and chit-chat, and general cooking, food and wine "
        "knowledge such as definitions, techniques, nutrition and food science that is not about our "
        "own dishes, our own wines or the town.",
        ("Who wrote Don Quixote?", "What is 17 times 23?", "Write a haiku about autumn.",
         "How do vaccines work?", "Translate 'good morning' into German.", "What is the capital of Canada?",
         "Hello!", "Thank you so much.", "What can you help me with?", "Tell me a fun fact.",
         "What does 'sous vide' mean?", "How do I poach an egg?",
         "What is the difference between a shallot and an onion?", "Why is saffron so expensive?",
         "How is cheese made?", "What does 'full-bodied' mean for a wine?",
         "How is red wine made differently from white wine?", "At what temperature should I roast a chicken?",
         "What is gluten?", "What does a vegan diet exclude?", "How do I make mayonnaise at home?",
         "Can you recommend a good book about Italian cooking?", "How many teaspoons are in a tablespoon?",
         "Why does fruit turn brown when you cut it?"),
        serves=("general",),
    ),
)


ROUTE_CORPORA: dict[str, Callable[[], list[Document]]] = {
    "search_menu": load_menu, "search_wine": load_wines, "search_web": load_web_snapshot}


def load_route_documents(routes: Sequence[RouteSpec] = ROUTES) -> dict[str, list[Document]]:
    """The documents behind each search route in ``routes`` (menu, wine list, web snapshot): a local router's
    corpus evidence, ``LocalRouter(ROUTES, documents=load_route_documents())``."""
    wanted = {spec.name for spec in routes}
    return {name: load() for name, load in ROUTE_CORPORA.items() if name in wanted}


def menu_sources(query_analyzer: QueryAnalyzer | None = None, k: int = GRAPHS.k, *,
                 chat_model: BaseChatModel | None = None) -> dict[str, Any]:
    """What each search route searches: the menu and the wine list as structured retrievers, the web snapshot.

    Each structured retriever reads the question with ``query_analyzer`` re-targeted to its own documents
    (default: :func:`ragkit.domains.menu.vocabulary.menu_query_analyzer`; with ``chat_model``, an
    ``LLMQueryAnalyzer`` on it with the menu's words and :data:`MENU_DESCRIPTION`, the local analysis kept
    for when the model fails); its similarity ranker is built on the first search.

    >>> sorted(menu_sources())
    ['search_menu', 'search_web', 'search_wine']
    """
    if chat_model is not None:
        if query_analyzer is not None:
            raise TypeError("give menu_sources() query_analyzer= or chat_model=, not both")
        query_analyzer = LLMQueryAnalyzer(chat_model, menu_query_analyzer(embedder=False), MENU_DESCRIPTION)

    def structured(docs: list[Document], name: str) -> StructuredRetriever:
        analyzer = query_analyzer.for_documents(docs) if query_analyzer is not None else menu_query_analyzer(docs)
        return StructuredRetriever.from_documents(docs, analyzer=analyzer, k=k, name=name)

    return {"search_menu": structured(load_menu(), "menu"), "search_wine": structured(load_wines(), "wine"),
            "search_web": OfflineWebSearch()}


def load_routing_questions(path: str | Path | None = None) -> list[dict[str, str]]:
    """The labelled routing set: a list of ``{"question": ..., "route": ...}`` with route in :data:`ROUTE_NAMES`."""
    path = locate(path, "routing_questions.json", "a JSON list of {'question': ..., 'route': ...}")
    items = records(path, read_json(path), "questions")
    for i, item in enumerate(items):
        require(path, item, i, {"question": str, "route": str})
        if item["route"] not in ROUTE_NAMES:
            raise DataError(f"{path}: entry {i} has route {item['route']!r}; use one of {ROUTE_NAMES}")
    return [{"question": item["question"].strip(), "route": item["route"]} for item in items]


__all__ = ["MENU_TEMPLATES", "OFFLINE_FALLBACK", "ROUTES", "ROUTE_CORPORA", "ROUTE_NAMES", "Route",
           "WINE_TEMPLATES", "load_route_documents", "load_routing_questions", "menu_sources"]
