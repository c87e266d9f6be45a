"""The four routes of the adaptive RAG graph, described for a router, and the documents behind each search.

A route is a :class:`ragkit.roles.protocols.RouteSpec`: a name (also the name of the graph node it leads to),
a description a chat model reads, and example questions a local router compares a question with. The
graph is built from route specs plus a mapping from route name to search source: by default
:data:`SEARCH_ROUTES` maps each search route to a bundled corpus, and ``llm_fallback``, the route without
a source, stands for "none of our documents".

The menu and the wine list are structured data, so their routes search with a
:class:`ragkit.offline.structured.StructuredRetriever` (:data:`STRUCTURED_CORPORA`,
:func:`route_search`): the question is analysed first (the graph's ``query_analyzer`` role, re-targeted
to the corpus's own vocabulary), its filter and sort are applied exactly, and similarity ranks what
passes. Pass a ``StructuredRetriever`` of your own as a source and it is used the same way.

Simplifications: the descriptions and examples are hand-written for the bundled restaurant data; on
your own data, write your own ``RouteSpec`` tuple and pass it with its sources:
``build_adaptive_rag_graph(routes=my_routes, sources={"search_docs": my_retriever})``.
"""

from __future__ import annotations

from typing import Any, Literal, Mapping, Sequence, get_args

from langchain_core.documents import Document

from ragkit.core.search import Scored, as_scored_search
from ragkit.defaults import GRAPHS
from ragkit.roles.protocols import RouteSpec

Route = Literal["search_menu", "search_wine", "search_web", "llm_fallback"]
ROUTE_NAMES: tuple[str, ...] = get_args(Route)
SEARCH_ROUTES: dict[str, str] = {"search_menu": "menu", "search_wine": "wine", "search_web": "web"}
STRUCTURED_CORPORA = frozenset({"menu", "wine"})  # bundled corpora whose metadata holds their fields

# Written for this module from what each corpus holds and from what a diner or a visitor asks (not taken
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
    ),
    RouteSpec(
        "search_web",
        "Local news and articles about Porto Calvera, the town and the coast: events, festivals, "
        "concerts, the market, new cafes, bars, bakeries, hotels and shops, ferries, trains, parking, "
        "weather and storm warnings, beaches, walks, diving and boat trips, the fish market and the "
        "catch, the valley's harvest and wine cooperative, and a few articles on wine labels, orange "
        "wine, serving temperature, olive oil and the history of fish soup.",
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
    ),
)


def source_documents(sources: Mapping[str, object]) -> dict[str, list[Document]]:
    """The documents behind each route's source, where they can be known: a bundled corpus name is loaded,
    a retriever that keeps its documents (``.docs``, as ragkit's do) gives them; others are left out.

    ``LocalRouter(routes, documents=source_documents(sources))`` uses them as corpus evidence: a question
    close to a passage of the menu is likely a menu question; a question close to none is likely general.
    """
    from ragkit.domains.corpora import load_corpus

    out: dict[str, list[Document]] = {}
    for name, value in sources.items():
        if isinstance(value, str):
            out[name] = load_corpus(value)
        elif isinstance(getattr(value, "docs", None), list) and value.docs:  # type: ignore[attr-defined]
            out[name] = list(value.docs)  # type: ignore[attr-defined]
    return out


def load_route_documents(routes: Sequence[RouteSpec] = ROUTES) -> dict[str, list[Document]]:
    """The bundled documents behind each default search route in ``routes`` (menu, wine list, web snapshot)."""
    wanted = {spec.name for spec in routes}
    return source_documents({name: corpus for name, corpus in SEARCH_ROUTES.items() if name in wanted})


class StructuredSearch:
    """A structured retriever over a bundled corpus, built on first use (building the graph loads nothing).

    ``analyze(question)`` and ``search_analysed(analysis, k)`` are the retriever's; ``search_with_scores``
    does both, so the object is also an ordinary scored search.
    """

    def __init__(self, corpus: str | Sequence[Document] | Any, analyzer: Any | None = None, k: int = GRAPHS.k):
        self.corpus, self.analyzer, self.k, self._retriever = corpus, analyzer, k, None
        self.name = corpus if isinstance(corpus, str) else "structured"

    def resolve(self) -> Any:
        """The StructuredRetriever (built now if it was not built yet)."""
        if self._retriever is None:
            from ragkit.offline.structured import StructuredRetriever

            if hasattr(self.corpus, "search_analysed"):
                self._retriever = self.corpus
            else:
                from ragkit.domains.corpora import load_corpus

                docs = load_corpus(self.corpus) if isinstance(self.corpus, str) else list(self.corpus)
                analyzer = self.analyzer.for_documents(docs) if self.analyzer is not None else None
                self._retriever = StructuredRetriever.from_documents(docs, analyzer=analyzer, k=self.k)
        return self._retriever

    def analyze(self, question: str) -> Any:
        return self.resolve().analyze(question)

    def search_analysed(self, analysis: Any, k: int | None = None) -> Any:
        return self.resolve().search_analysed(analysis, k)

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        return self.resolve().search_with_scores(query, k)

    def __repr__(self) -> str:
        return f"StructuredSearch({self.name!r}, built={self._retriever is not None})"


def route_search(value: Any, k: int = GRAPHS.k, analyzer: Any | None = None) -> Any:
    """What a search route searches: a structured corpus name (or a ``StructuredRetriever``) becomes a
    :class:`StructuredSearch` with the graph's query analyser; anything else goes to ``source``."""
    if isinstance(value, str) and value.strip().lower() in STRUCTURED_CORPORA:
        return StructuredSearch(value.strip().lower(), analyzer, k)
    if hasattr(value, "search_analysed") and hasattr(value, "analyze"):
        return StructuredSearch(value, analyzer, k)
    if isinstance(value, str):
        from ragkit.domains.corpora import corpus_search

        return corpus_search(value, k)
    return as_scored_search(value, k)


RESERVED_NODES = frozenset({"check_question", "route_question", "generate", "unsupported_language", "__start__", "__end__"})


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
    names = [spec.name for spec in routes]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"give at least two routes with unique names, got {names}")
    clash = sorted(set(names) & RESERVED_NODES)
    if clash:
        raise ValueError(f"route name(s) {clash} are used by the graph's own nodes; rename the route(s)")
    unknown = sorted(set(sources) - set(names))
    if unknown:
        raise ValueError(f"sources name route(s) {unknown} that are not among the routes {names}")
    fallback = names[-1] if fallback is None else fallback
    if fallback not in names:
        raise ValueError(f"fallback route {fallback!r} is not one of the routes {names}")
    if fallback in sources:
        raise ValueError(f"the fallback route {fallback!r} must not have a search source: it answers without documents")
    missing = [name for name in names if name != fallback and name not in sources]
    if missing:
        raise ValueError(f"route(s) {missing} have no search source: pass sources={{{missing[0]!r}: retriever}} "
                         f"(a retriever, a vector store, a function or a corpus name), or drop the route")
    return fallback


__all__ = ["ROUTES", "ROUTE_NAMES", "SEARCH_ROUTES", "STRUCTURED_CORPORA", "Route", "StructuredSearch",
           "check_route_sources", "load_route_documents", "route_search", "source_documents"]
