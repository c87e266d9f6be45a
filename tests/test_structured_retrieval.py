"""StructuredRetriever (exact filter and sort), the writers' exclusion rule (property test), structured answers."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.structured_query import Comparator, Comparison, Operation, Operator, StructuredQuery

from ragkit.core.chat_models import scripted
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.menu.vocabulary import menu_query_analyzer
from ragkit.offline.structured import StructuredRetriever
from ragkit.offline.structured_answers import StructuredWriter, names_any, structured_answer
from ragkit.offline.writing import LocalWriter
from ragkit.roles.llm import LLMWriter
from ragkit.roles.structured_query import QueryAnalysis, StructuredSearch, describe, matches


class Order:
    """A ranker that scores documents by a fixed order (so tests need no model)."""

    def __init__(self, docs):
        self.docs = docs

    def search_with_scores(self, query, k=None):
        return [(d, 1.0 - i / 100) for i, d in enumerate(self.docs)][: k or len(self.docs)]


@pytest.fixture(scope="module")
def menu_retriever() -> StructuredRetriever:
    docs = load_menu()
    return StructuredRetriever.from_documents(docs, analyzer=menu_query_analyzer(docs, embedder=False), ranker=Order(docs))


def ids(hits) -> list[str]:
    return [d.metadata["id"] for d, _ in hits]


def test_a_structured_retriever_is_a_structured_search_and_a_scored_search(menu_retriever: StructuredRetriever) -> None:
    from ragkit.core.search import ScoredSearch, as_scored_search

    assert isinstance(menu_retriever, StructuredSearch) and isinstance(menu_retriever, ScoredSearch)
    assert as_scored_search(menu_retriever) is menu_retriever


def test_filter_is_exact_and_returns_the_whole_set(menu_retriever: StructuredRetriever) -> None:
    result = menu_retriever.search_analysed(menu_retriever.analyze("Which desserts do not contain nuts?"))
    assert sorted(ids(result.hits)) == ["menu-22", "menu-23"]  # lemon tart, mousse: no tree nuts
    mains = menu_retriever.search_analysed(menu_retriever.analyze("Which mains are not vegetarian?"))
    assert len(mains.hits) == 8 > menu_retriever.k  # the set is the answer, not the top k
    assert len(menu_retriever.search_with_scores("Which mains are not vegetarian?")) == menu_retriever.k


def test_superlative_sort_decides_and_ties_all_win(menu_retriever: StructuredRetriever) -> None:
    assert ids(menu_retriever.search_with_scores("What is the cheapest main course?")) == ["menu-15"]  # parmigiana, 17.00
    wines = load_wines()
    r = StructuredRetriever.from_documents(wines, analyzer=menu_query_analyzer(wines, embedder=False), ranker=Order(wines))
    assert sorted(ids(r.search_with_scores("What is the cheapest bottle on the whole wine list?"))) == ["wine-07", "wine-12", "wine-17"]
    assert ids(r.search_with_scores("Which red wine is the most expensive by the glass?")) == ["wine-18"]  # no glass price: cannot win


def test_empty_filter_result_says_why(menu_retriever: StructuredRetriever) -> None:
    result = menu_retriever.search_analysed(menu_retriever.analyze("Is there a vegan main under 15 euros?"))
    assert result.hits == [] and result.note.startswith("no document matches: price below 15")


def test_comparison_returns_the_two_items(menu_retriever: StructuredRetriever) -> None:
    hits = menu_retriever.search_with_scores("Is the ribeye more expensive than the lamb shoulder?")
    assert ids(hits) == ["menu-12", "menu-11"]


def test_matches_semantics() -> None:
    glass = Comparison(Comparator.LT, "price_glass", 8)
    assert not matches(glass, {"price_glass": None})  # a missing number never passes a numeric bound
    assert matches(glass, {"title": "a page without the field"})  # not applicable
    assert matches(Comparison(Comparator.EQ, "price_glass", None), {"price_glass": None})
    assert matches(Comparison(Comparator.CONTAIN, "allergens", "Tree Nuts"), {"allergens": ["tree nuts"]})
    assert matches(Comparison(Comparator.NIN, "country", ["Italy", "France"]), {"country": "Spain"})
    assert describe(Operation(Operator.NOT, [Comparison(Comparator.GTE, "price", 9)])) == "price below 9"


# ---------------------------------------------------------------- the exclusion rule, for any generated exclusion
WORDS = ["amber", "basil", "cedar", "delta", "ember", "fable", "grove", "haven", "indigo", "jasper", "kestrel", "lumen"]
TAGS = ["red", "green", "blue", "gold"]


@st.composite
def catalogue(draw):
    n = draw(st.integers(min_value=2, max_value=7))
    names = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n, unique=True))
    docs = []
    for i, name in enumerate(names):
        tags = draw(st.lists(st.sampled_from(TAGS), max_size=3, unique=True))
        other = draw(st.sampled_from(names))  # a sentence that names another item
        docs.append(Document(f"{name.title()} plate ({', '.join(tags) or 'plain'}). Better than the {other.title()} plate. "
                             f"Tags: {', '.join(tags) or 'none'}.",
                             metadata={"id": f"d{i}", "title": f"{name.title()} plate", "tags": tags, "price": float(i + 1)}))
    banned = draw(st.sampled_from(TAGS))
    kind = draw(st.sampled_from(["set", "yes_no", "lookup"]))
    return docs, banned, kind


@given(catalogue())
@settings(max_examples=60, deadline=None)
def test_no_excluded_item_is_ever_named(case) -> None:
    docs, banned, kind = case
    flt = Operation(Operator.NOT, [Comparison(Comparator.CONTAIN, "tags", banned)])
    analysis = QueryAnalysis(question=f"Which plates have no {banned}?", query=StructuredQuery("plates", flt), kind=kind)
    excluded = [d.metadata["title"] for d in docs if banned in d.metadata["tags"]]
    allowed = [d.metadata["title"] for d in docs if banned not in d.metadata["tags"]]
    writer = LocalWriter(embedder=_ToyEmbedder(), support_bar=-1.0, relative_bar=10.0)
    answer = StructuredWriter(writer, None).write(analysis.question, docs, query=analysis)
    assert not names_any(answer.text, excluded, allowed)
    llm = LLMWriter(scripted({"answer": " ".join(f"{t} is nice [1]." for t in excluded + allowed), "answered": True}))
    assert not names_any(StructuredWriter(llm, None).write(analysis.question, docs, query=analysis).text, excluded, allowed)


class _ToyEmbedder:
    """Bag-of-letters vectors: deterministic and offline."""

    def embed_documents(self, texts):
        return [[t.lower().count(c) + 0.01 for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts]

    def embed_query(self, text):
        return self.embed_documents([text])[0]


# ---------------------------------------------------------------- structured answers
@pytest.fixture(scope="module")
def menu_docs() -> dict[str, Document]:
    return {d.metadata["id"]: d for d in load_menu()}


def analysed(question: str) -> QueryAnalysis:
    return menu_query_analyzer(load_menu(), embedder=False).analyze(question)


def test_superlative_answers_with_the_winner(menu_docs) -> None:
    mains = [d for d in menu_docs.values() if d.metadata["course"] == "main"][:5]
    answer = structured_answer(mains, analysed("What is the cheapest main course?"))
    cheapest = min(mains, key=lambda d: d.metadata["price"])
    assert answer.text.startswith(cheapest.metadata["title"]) and answer.citations == (mains.index(cheapest) + 1,)
    assert not names_any(answer.text, [d.metadata["title"] for d in mains if d is not cheapest])


def test_comparison_states_the_winner_first_with_citations(menu_docs) -> None:
    docs = [menu_docs["menu-12"], menu_docs["menu-11"]]
    a = structured_answer(docs, analysed("Is the ribeye more expensive than the lamb shoulder?"))
    assert a.text.startswith("Yes: Charcoal-grilled ribeye (main course, 34.00 EUR) [1] has a higher price than")
    tie = structured_answer([menu_docs["menu-22"], menu_docs["menu-25"]], analysed("Is the lemon tart cheaper than the panna cotta?"))
    assert tie.text.startswith("No: ") and "the same price" in tie.text


def test_yes_no_and_empty_answers(menu_docs) -> None:
    desserts = [d for d in menu_docs.values() if d.metadata["course"] == "dessert"]
    vegan = structured_answer(desserts, analysed("Is there a vegan dessert?"))
    assert vegan.text.startswith("Yes: Chocolate and olive oil mousse") and "Panna cotta" not in vegan.text
    none = structured_answer([], dataclasses.replace(analysed("Is there a vegan main under 15 euros?"), searched_all=True))
    assert none.text.startswith("No: nothing on the list matches") and none.answered
    partial = structured_answer(desserts[:1], analysed("Is there a vegan main under 15 euros?"))
    assert not partial.answered  # only a few documents were seen: not a "no"


def test_writer_says_first_what_it_could_not_check(menu_docs) -> None:
    desserts = [d for d in menu_docs.values() if d.metadata["course"] == "dessert"]
    a = StructuredWriter(LocalWriter(embedder=_ToyEmbedder()), None).write(
        "I'm lactose intolerant - which desserts can I have?", desserts,
        query=analysed("I'm lactose intolerant - which desserts can I have?"))
    assert a.text.startswith("I could not check 'lactose'")


def test_llm_writer_gets_the_constraints_and_is_still_filtered(menu_docs) -> None:
    desserts = [d for d in menu_docs.values() if d.metadata["course"] == "dessert"]
    model = scripted({"answer": "Panna cotta with figs [2]. Chocolate and olive oil mousse [2]. Lemon tart [1].", "answered": True})
    a = StructuredWriter(LLMWriter(model), None).write("Which desserts have no nuts?", desserts,
                                                      query=analysed("Which desserts have no nuts?"))
    assert "Panna cotta" not in a.text and "Lemon tart" in a.text
    shown = str(model.calls[0])
    assert "Never name these items" in shown and "Panna cotta with figs" in shown
    lemon = next(i for i, d in enumerate(desserts) if d.metadata["title"] == "Lemon tart") + 1
    mousse = lemon + 1
    assert a.citations == (lemon, mousse)  # renumbered to the documents the caller passed
