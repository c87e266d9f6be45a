"""LocalRouter's scoring: k-nearest prototypes, corpus evidence (passages, rare terms), signals, examples read
from the data, the scores and margin a decision carries, the dev set's hygiene.

The arithmetic is checked with a tiny keyword embedder (exact, fast); the behaviour that matters is checked
with MiniLM on the menu's Adaptive RAG routes and the bundled corpora. How accurate the router is on the
dev set it was tuned on is a benchmark figure, not a test (``benchmarks/roles/router_accuracy.py``).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import words
from ragkit.domains.menu.corpus import load_menu
from ragkit.domains.menu.routes import ROUTE_NAMES, ROUTES, load_route_documents, load_routing_questions
from ragkit.offline.router import LocalRouter, field_examples, general_question, passages, term_shares, time_sensitivity
from ragkit.roles.router_protocols import RouteSpec

DEV = Path(__file__).resolve().parents[1] / "data" / "routing_dev.json"
AXES = ["lamb", "soup", "wine", "red", "ferry", "umami", "price"]


class KeywordEmbedder(Embeddings):
    """One axis per keyword (``axes``, default :data:`AXES`) plus a constant axis, so every similarity can be
    worked out by hand."""

    def __init__(self, axes: list[str] | None = None):
        self.axes = list(AXES if axes is None else axes)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            found = words(text)
            vector = np.array([float(found.count(axis)) for axis in self.axes] + [0.5])
            out.append(list(vector / np.linalg.norm(vector)))
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


TOY_ROUTES = [
    RouteSpec("menu", "", ("lamb price", "soup", "soup price")),
    RouteSpec("wine", "", ("red wine", "wine price")),
    RouteSpec("other", "", ("umami",)),
]
TOY_DOCS = {"menu": ["Lamb shoulder. Soup of the day.", "Soup with fennel."], "wine": ["A red wine.\n\nA white wine."]}


def toy_router(**kwargs) -> LocalRouter:
    return LocalRouter(TOY_ROUTES, fallback="other", embedder=KeywordEmbedder(), margin=0.0, min_similarity=0.0, **kwargs)


# ---------------------------------------------------------------- pieces
def test_passages_are_paragraphs_then_their_sentences() -> None:
    docs = [Document(page_content="Lamb. Soup.\n\nFerry."), "Red wine."]
    assert passages(docs) == ["Lamb. Soup.", "Lamb.", "Soup.", "Ferry.", "Red wine."]
    with pytest.raises(TypeError, match="not a single str"):
        passages("Lamb. Soup.")
    with pytest.raises(TypeError, match=r"documents\[1\]"):
        passages(["ok", 3])  # type: ignore[list-item]


def test_term_shares_send_unknown_terms_to_the_fallback_and_ignore_common_words() -> None:
    freq = {"menu": Counter({"lamb": 1, "the": 10}), "wine": Counter({"red": 2, "the": 10})}
    sizes = {"menu": 10, "wine": 10}
    shares = term_shares(["umami"], freq, sizes, "other")
    assert shares == {"menu": 0.0, "wine": 0.0, "other": 1.0}
    # "the" is in every passage: BM25's idf is 0, so it moves nothing.
    assert term_shares(["lamb", "the"], freq, sizes, "other") == term_shares(["lamb"], freq, sizes, "other")
    mixed = term_shares(["lamb", "red", "umami"], freq, sizes, "other")
    assert sum(mixed.values()) == pytest.approx(1.0)
    assert mixed["other"] > mixed["menu"] > mixed["wine"] > 0  # the rarer the term, the more it weighs
    assert term_shares([], freq, sizes, "other") == {"menu": 0.0, "wine": 0.0, "other": 0.0}


def test_prototype_score_is_the_mean_of_the_k_nearest_examples() -> None:
    question = "soup price"
    q = np.array(KeywordEmbedder().embed_query(question))
    sims = sorted((float(np.dot(q, KeywordEmbedder().embed_query(e))) for e in TOY_ROUTES[0].examples), reverse=True)
    for k, expected in [(1, sims[0]), (2, np.mean(sims[:2])), (3, np.mean(sims)), (10, np.mean(sims))]:
        explained = toy_router(k=k).explain(question)
        assert explained["menu"]["prototypes"] == pytest.approx(expected)
        assert explained["menu"]["score"] == pytest.approx(expected)  # no documents: prototypes only
        assert explained["menu"]["passages"] == explained["menu"]["terms"] == 0.0


def test_documents_add_passage_and_term_evidence() -> None:
    router = toy_router(k=1, documents=TOY_DOCS, passage_weight=0.5, passage_bar=0.6, term_weight=0.2)
    explained = router.explain("Is the lamb good?")
    q = np.array(KeywordEmbedder().embed_query("Is the lamb good?"))
    best_menu = max(float(np.dot(q, KeywordEmbedder().embed_query(p))) for p in passages(TOY_DOCS["menu"]))
    assert explained["menu"]["passages"] == pytest.approx(0.5 * (best_menu - 0.6))
    assert explained["other"]["passages"] == 0.0  # a route without documents gets no passage evidence
    assert explained["menu"]["terms"] > 0 and explained["wine"]["terms"] == 0.0
    parts = explained["menu"]
    assert parts["score"] == pytest.approx(parts["prototypes"] + parts["passages"] + parts["terms"])
    assert router.scores("Is the lamb good?") == {name: p["score"] for name, p in explained.items()}


def test_corpus_evidence_breaks_a_tie_that_the_prototypes_cannot() -> None:
    # "lamb" and "soup" questions are equally close to both routes' examples: only the documents know
    # that lamb is on the menu.
    routes = [RouteSpec("menu", "", ("price",)), RouteSpec("wine", "", ("price",)), RouteSpec("other", "", ("umami",))]
    plain = LocalRouter(routes, fallback="other", embedder=KeywordEmbedder(), margin=0.01, min_similarity=0.0)
    assert plain.route("lamb price").route == "other" and plain.route("lamb price").fallback  # too close to call
    informed = LocalRouter(routes, fallback="other", embedder=KeywordEmbedder(), margin=0.01, min_similarity=0.0,
                           documents=TOY_DOCS)
    assert informed.route("lamb price").route == "menu"
    assert informed.route("red price").route == "wine"


def test_a_question_close_to_no_passage_goes_to_the_fallback() -> None:
    router = toy_router(k=1, documents=TOY_DOCS, passage_weight=1.0, passage_bar=0.9, term_weight=0.2)
    scores = router.scores("umami")
    assert max(scores, key=scores.get) == "other"
    assert router.route("umami").route == "other"


def test_bad_settings_and_documents_are_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="'dessert', which is not one of the routes"):
        toy_router(documents={"dessert": ["Tart."]})
    with pytest.raises(ValueError, match=r"documents\['menu'\] holds no text"):
        toy_router(documents={"menu": ["  ", "\n\n"]})
    with pytest.raises(ValueError, match="k must be at least 1"):
        toy_router(k=0)
    with pytest.raises(ValueError, match="empty"):
        toy_router().explain("   ")


# ---------------------------------------------------------------- signals, examples read from data, scores shown
def test_time_sensitivity_and_general_question_read_the_question_not_its_topic() -> None:
    assert time_sensitivity("Is the chemist open right now?") == 1.0
    assert time_sensitivity("What were this week's lottery numbers?") == 1.0
    assert time_sensitivity("What's the forecast for the coast?") == 0.5  # changes daily, no time word
    assert time_sensitivity("Who painted the Mona Lisa?") == 0.0
    assert time_sensitivity("Have you got oysters tonight?") == 0.0  # asks the service about its own offer
    assert general_question("Why does milk go sour?") and general_question("How do you peel a peach?")
    assert general_question("What is polenta made from?")
    assert not general_question("How do you cook the monkfish?")  # one particular dish
    assert not general_question("Does your polenta contain butter?")
    assert not general_question("What were this week's lottery numbers?")  # tied to the present


SIGNAL_ROUTES = [RouteSpec("menu", "", ("lamb price",)), RouteSpec("news", "", ("ferry",), serves=("fresh",)),
                 RouteSpec("other", "", ("umami",), serves=("general",))]


def test_a_signal_adds_its_weight_to_the_route_that_serves_it() -> None:
    router = LocalRouter(SIGNAL_ROUTES, fallback="other", embedder=KeywordEmbedder(), margin=0.0, min_similarity=0.0,
                         signal_weights={"fresh": 0.3, "general": 0.2})
    undeclared = [dataclasses.replace(spec, serves=()) for spec in SIGNAL_ROUTES]
    plain = LocalRouter(undeclared, fallback="other", embedder=KeywordEmbedder(), margin=0.0, min_similarity=0.0)
    fresh, plain_fresh = router.explain("ferry price today"), plain.explain("ferry price today")
    assert fresh["news"]["signals"] == pytest.approx(0.3)
    assert fresh["news"]["score"] == pytest.approx(plain_fresh["news"]["score"] + 0.3)
    assert fresh["menu"]["signals"] == fresh["other"]["signals"] == 0.0
    assert router.explain("why soup")["other"]["signals"] == pytest.approx(0.2)  # a general question
    assert router.explain("lamb price")["news"]["signals"] == 0.0  # neither fresh nor general


def test_a_route_table_without_a_fresh_route_makes_the_signal_inert() -> None:
    undeclared = [dataclasses.replace(spec, serves=()) for spec in SIGNAL_ROUTES]
    weighted = LocalRouter(undeclared, fallback="other", embedder=KeywordEmbedder(), signal_weights={"fresh": 5.0, "general": 5.0})
    unweighted = LocalRouter(undeclared, fallback="other", embedder=KeywordEmbedder(), signal_weights={})
    for question in ("ferry price today", "why soup", "lamb price"):
        assert all(parts["signals"] == 0.0 for parts in weighted.explain(question).values())
        assert weighted.scores(question) == unweighted.scores(question)
        assert weighted.route(question) == unweighted.route(question)
    with pytest.raises(ValueError, match=r"\['weather'\], which are not signals"):
        LocalRouter([RouteSpec("a", "x", serves=("weather",)), RouteSpec("b", "y")], embedder=KeywordEmbedder())


def test_examples_read_from_the_data_bring_a_route_its_items() -> None:
    wines = [Document(page_content="Barolo.", metadata={"title": "Barolo", "style": ["red", "dry"]}),
             Document(page_content="Tap water.")]  # no metadata: no examples
    assert field_examples(["Is the {title} {style}?", "Who makes the {title}?", "Is it {vintage}?"], wines) == [
        "Is the Barolo red?", "Is the Barolo dry?", "Who makes the Barolo?"]
    routes = [RouteSpec("wine", "", ("price",), templates=("{title} {style} wine",)), RouteSpec("other", "", ("umami",))]
    kwargs = dict(fallback="other", embedder=KeywordEmbedder(), margin=0.0, min_similarity=0.0, term_weight=0.0,
                  passage_weight=0.0)
    without = LocalRouter([dataclasses.replace(routes[0], templates=()), routes[1]], documents={"wine": wines}, **kwargs)
    with_data = LocalRouter(routes, documents={"wine": wines}, **kwargs)
    assert with_data.explain("red wine")["wine"]["prototypes"] > without.explain("red wine")["wine"]["prototypes"]
    assert with_data.route("red wine").route == "wine"
    assert LocalRouter(routes, **kwargs).explain("red wine") == without.explain("red wine")  # no documents: nothing read


def test_the_decision_carries_every_score_and_the_margin_between_the_best_two() -> None:
    router = toy_router(k=1, documents=TOY_DOCS)
    for question in ("lamb price", "red wine", "umami"):
        decision, scores = router.route(question), router.scores(question)
        best, runner_up = sorted(scores.values(), reverse=True)[:2]
        assert decision.scores == scores and decision.margin == pytest.approx(best - runner_up)
        assert decision.confidence == pytest.approx(best)
    routes = [RouteSpec("menu", "", ("price",)), RouteSpec("wine", "", ("price",)), RouteSpec("other", "", ("umami",))]
    tied = LocalRouter(routes, fallback="other", embedder=KeywordEmbedder(), margin=0.01, min_similarity=0.0).route("price")
    assert tied.route == "other" and tied.fallback and tied.margin == pytest.approx(0.0)  # too close: shown, not hidden
    assert set(tied.scores) == {"menu", "wine", "other"}


# ---------------------------------------------------------------- the Adaptive RAG routes, with MiniLM
@pytest.fixture(scope="module")
def router() -> LocalRouter:
    return LocalRouter(ROUTES, fallback="llm_fallback", documents=load_route_documents())


def test_dev_set_is_valid_and_disjoint_from_the_route_examples_and_the_test_set() -> None:
    dev = load_routing_questions(DEV)
    counts = Counter(item["route"] for item in dev)
    assert len(dev) >= 80 and set(counts) == set(ROUTE_NAMES) and min(counts.values()) >= 20
    questions = {item["question"].strip().lower() for item in dev}
    assert len(questions) == len(dev)
    assert not questions & {e.strip().lower() for spec in ROUTES for e in spec.examples}
    shared = questions & {item["question"].strip().lower() for item in load_routing_questions()}
    assert not shared, f"{len(shared)} dev questions are also test questions"
    assert isinstance(json.loads(DEV.read_text(encoding="utf-8")), list)


def test_load_route_documents_follows_the_routes() -> None:
    docs = load_route_documents()
    assert set(docs) == {"search_menu", "search_wine", "search_web"} and all(docs.values())
    assert set(load_route_documents([ROUTES[0], ROUTES[3]])) == {"search_menu"}


def test_named_things_go_to_their_corpus_and_general_knowledge_to_the_fallback(router: LocalRouter) -> None:
    cases = {
        "Which of your desserts would a coeliac guest be able to order?": "search_menu",
        "Is the Banyuls sweet?": "search_wine",
        "Is the Jazz on the Pier concert free this Friday?": "search_web",
        "What is the chemical formula of table salt?": "llm_fallback",
        "Good morning, nice to meet you!": "llm_fallback",
    }
    for question, route in cases.items():
        decision = router.route(question)
        assert decision.route == route, (question, decision, router.explain(question))


def test_scores_are_deterministic_across_instances(router: LocalRouter) -> None:
    again = LocalRouter(ROUTES, fallback="llm_fallback", documents=load_route_documents(), embedder=router.embedder)
    question = "Is there a red from Sicily on the list?"
    assert router.scores(question) == again.scores(question)
    assert router.route(question) == again.route(question)


# Constructed for these tests (none is in a labelled routing set, none nearly repeats one).
FRESH_QUESTIONS = ("What's the exchange rate between the euro and the Swiss franc today?",
                   "Any breaking news in Porto Calvera this morning?", "What were last night's football results?",
                   "Is the post office open right now?", "What's the forecast for the weekend?",
                   "What is the current price of diesel?")
GENERAL_QUESTIONS = ("How does yeast make bread rise?", "What is the difference between a stock and a broth?",
                     "How do you make fresh pasta dough?", "Where does vanilla come from?", "What are anchovies?",
                     "Who invented the corkscrew?")


def test_a_fresh_time_bound_question_goes_to_the_route_declared_for_fresh_information(router: LocalRouter) -> None:
    fresh_route = next(spec.name for spec in ROUTES if "fresh" in spec.serves)
    for question in FRESH_QUESTIONS:
        decision = router.route(question)
        assert decision.route == fresh_route, (question, decision)


def test_a_question_about_a_dish_and_an_attribute_in_the_data_goes_to_the_menu(router: LocalRouter) -> None:
    # Made from the menu's own fields: an allergen, a dietary label, and spiciness for the dishes with chilli.
    questions = []
    for dish in load_menu():
        meta, name = dish.metadata, dish.metadata["title"].lower()
        questions += [f"Does the {name} contain {a}?" for a in meta["allergens"][:1]]
        questions += [f"Is the {name} {d}?" for d in meta["dietary"][:1]]
        questions += [f"Is the {name} spicy?"] if "chilli" in dish.page_content.lower() else []
    assert len(questions) > 40 and any("spicy" in q for q in questions)
    for question in questions:
        decision = router.route(question)
        assert decision.route == "search_menu", (question, decision)


def test_general_knowledge_still_goes_to_the_fallback(router: LocalRouter) -> None:
    for question in GENERAL_QUESTIONS:
        decision = router.route(question)
        assert decision.route == "llm_fallback", (question, decision)
