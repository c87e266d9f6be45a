"""LocalRouter's scoring: k-nearest prototypes, corpus evidence (passages, rare terms), the dev set's hygiene.

The arithmetic is checked with a tiny keyword embedder (exact, fast); the behaviour that matters is checked
with MiniLM on the menu's Adaptive RAG routes and the bundled corpora. How accurate the router is on the
dev set it was tuned on is a benchmark figure, not a test (``benchmarks/roles/router_accuracy.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import words
from ragkit.domains.menu.routes import ROUTE_NAMES, ROUTES, load_route_documents, load_routing_questions
from ragkit.offline.router import LocalRouter, passages, term_shares
from ragkit.roles.protocols import RouteSpec

DEV = Path(__file__).resolve().parents[1] / "data" / "routing_dev.json"
AXES = ["lamb", "soup", "wine", "red", "ferry", "umami", "price"]


class KeywordEmbedder(Embeddings):
    """One axis per keyword plus a constant axis, so every similarity can be worked out by hand."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            found = words(text)
            vector = np.array([float(found.count(axis)) for axis in AXES] + [0.5])
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
