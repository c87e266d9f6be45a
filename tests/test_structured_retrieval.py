"""StructuredRetriever (exact filter and sort), the writers' exclusion rule (property test), structured answers."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.structured_query import Comparator, Comparison, Operation, Operator, StructuredQuery

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.chat_models import scripted
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.menu.vocabulary import menu_query_analyzer
from ragkit.offline.query_analysis import LocalQueryAnalyzer
from ragkit.offline.structured import StructuredRetriever, unmet
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


# ---------------------------------------------------------------- a dietary or allergen condition is a filter, not a near match
# A made-up menu (not the bundled one): in every course, dishes that pass and fail each condition.
DISHES = [  # name, course, dietary, allergens
    ("Lentil soup", "starter", ["vegan", "vegetarian", "gluten-free", "dairy-free"], ["celery"]),
    ("Cheese croquettes", "starter", ["vegetarian"], ["milk", "gluten", "eggs"]),
    ("Prawn cocktail", "starter", ["gluten-free"], ["crustaceans", "eggs"]),
    ("Walnut salad", "starter", ["vegan", "vegetarian", "dairy-free"], ["tree nuts", "mustard"]),
    ("Bean stew", "main", ["vegan", "vegetarian", "dairy-free"], ["gluten", "celery"]),
    ("Mushroom risotto", "main", ["vegetarian", "gluten-free"], ["milk"]),
    ("Grilled trout", "main", ["gluten-free", "dairy-free"], ["fish"]),
    ("Pork ragu", "main", [], ["gluten", "milk", "celery"]),
    ("Coconut sorbet", "dessert", ["vegan", "vegetarian", "gluten-free", "dairy-free"], []),
    ("Hazelnut brownie", "dessert", ["vegetarian"], ["tree nuts", "eggs", "milk", "gluten"]),
    ("Rice pudding", "dessert", ["vegetarian", "gluten-free"], ["milk"]),
    ("Almond biscotti", "dessert", ["vegetarian", "dairy-free"], ["tree nuts", "eggs", "gluten"]),
]


def made_up_menu() -> list[Document]:
    from ragkit.domains.menu.corpus import menu_text

    docs = []
    for i, (name, course, dietary, allergens) in enumerate(DISHES, start=1):
        dish = {"name": name, "course": course, "price": 5.0 + i, "description": f"Our {name.lower()}.",
                "ingredients": [], "allergens": allergens, "dietary": dietary}
        docs.append(Document(menu_text(dish), metadata={"id": f"x{i}", "title": name, "course": course, "price": 5.0 + i,
                                                        "ingredients": [], "allergens": allergens, "dietary": dietary}))
    return docs


# question -> (the condition it states, checked on the record itself, and the field whose value is missing when it fails)
CONDITIONS = {
    "Is there a vegan dessert?": (lambda m: m["course"] == "dessert" and "vegan" in m["dietary"], "dietary"),
    "Which desserts are vegetarian?": (lambda m: m["course"] == "dessert" and "vegetarian" in m["dietary"], "dietary"),
    "Which mains are gluten-free?": (lambda m: m["course"] == "main" and "gluten-free" in m["dietary"], "dietary"),
    "Is there a dairy-free starter?": (lambda m: m["course"] == "starter" and "dairy-free" in m["dietary"], "dietary"),
    "Which desserts have no nuts?": (lambda m: m["course"] == "dessert" and "tree nuts" not in m["allergens"], "allergens"),
    "I'm allergic to eggs, which starters can I eat?": (
        lambda m: m["course"] == "starter" and "eggs" not in m["allergens"], "allergens"),
    "Which mains are without milk?": (lambda m: m["course"] == "main" and "milk" not in m["allergens"], "allergens"),
    "Is there a vegetarian main with no milk?": (
        lambda m: m["course"] == "main" and "vegetarian" in m["dietary"] and "milk" not in m["allergens"], None),
}


@pytest.mark.parametrize("question", list(CONDITIONS))
def test_a_dietary_or_allergen_question_names_every_dish_that_qualifies_and_no_other(question: str) -> None:
    """Regression (the first widget of notebook 00): "Is there a vegan dessert?" answered from the nearest
    dishes listed the lemon tart and the panna cotta, which are not vegan. Read as a filter and applied to the
    whole menu, the answer names exactly the dishes that qualify, and ``unmet`` says what each other dish of
    the course lacks."""
    docs = made_up_menu()
    qualifies, field = CONDITIONS[question]
    expected = [d.metadata["title"] for d in docs if qualifies(d.metadata)]
    others = [d.metadata["title"] for d in docs if not qualifies(d.metadata)]
    # The similarity ranker puts the dishes that fail first: near matches are not answers.
    ranker = Order(sorted(docs, key=lambda d: qualifies(d.metadata)))
    search = StructuredRetriever.from_documents(docs, analyzer=menu_query_analyzer(docs, embedder=False), ranker=ranker)
    found = search.search_analysed(search.analyze(question), k=3)
    assert sorted(d.metadata["title"] for d, _ in found.hits) == sorted(expected), found.note
    assert found.analysis.searched_all  # the filter saw every dish
    for doc in docs:
        missing = unmet(found.analysis.filter, doc.metadata)
        assert bool(missing) != qualifies(doc.metadata), (doc.metadata["title"], missing)
        if missing and field and doc.metadata["course"] in question.lower():
            assert all(field in part for part in missing), missing
    writer = StructuredWriter(LocalWriter(embedder=_ToyEmbedder()), None)
    answer = writer.write(question, [d for d, _ in found.hits], query=found.analysis)
    assert all(names_any(answer.text, [title]) for title in expected), answer.text
    assert not names_any(answer.text, others, expected), answer.text


def test_a_dietary_question_that_nothing_meets_says_no() -> None:
    docs = [d for d in made_up_menu() if d.metadata["title"] != "Coconut sorbet"]  # no vegan dessert left
    search = StructuredRetriever.from_documents(docs, analyzer=menu_query_analyzer(docs, embedder=False), ranker=Order(docs))
    found = search.search_analysed(search.analyze("Is there a vegan dessert?"), k=3)
    answer = StructuredWriter(LocalWriter(embedder=_ToyEmbedder()), None).write("Is there a vegan dessert?", [], query=found.analysis)
    assert found.hits == [] and answer.answered and answer.text.startswith("No: nothing on the list matches")


# ---------------------------------------------------------------- a superlative and a comparison in one question
# A made-up bike shop (not the menu): two numeric fields (price, weight), a kind, unique names.
BIKES = [  # name, kind, price, weight
    ("Falcon Sprint", "road", 1200.0, 8.1), ("Heron Tour", "road", 950.0, 9.4), ("Osprey Aero", "road", 2400.0, 7.2),
    ("Badger Trail", "mountain", 1500.0, 13.0), ("Marmot Ridge", "mountain", 800.0, 14.5),
    ("Puffin Hop", "city", 450.0, 16.0),
]


def bike_shop() -> list[Document]:
    return [Document(f"{name} ({kind} bike, {price:.2f} EUR, {weight} kg).",
                     metadata={"id": f"b{i}", "title": name, "kind": kind, "price": price, "weight": weight})
            for i, (name, kind, price, weight) in enumerate(BIKES, start=1)]


def bike_retriever(docs: list[Document]) -> StructuredRetriever:
    return StructuredRetriever.from_documents(docs, analyzer=LocalQueryAnalyzer(docs, embedder=False),
                                              ranker=BM25Retriever.from_documents(docs))


def bike(name: str) -> tuple[str, str, float, float]:
    return next(b for b in BIKES if b[0] == name)


# question -> (the superlative's winner, the named item, the field, the question's comparative direction)
WINNER_VERSUS = [
    ("What's the cheapest road bike, and is it cheaper than the Osprey Aero?", "Heron Tour", "Osprey Aero", "price", "lower"),
    ("Which is the most expensive mountain bike, and is it dearer than the Falcon Sprint?", "Badger Trail",
     "Falcon Sprint", "price", "higher"),
    ("What is the cheapest road bike, and is it more expensive than the Puffin Hop?", "Heron Tour", "Puffin Hop",
     "price", "higher"),
    ("What's the dearest road bike, and is it cheaper than the Osprey Aero?", "Osprey Aero", "Osprey Aero", "price", "lower"),
]


@pytest.mark.parametrize("question,winner,against,field,want", WINNER_VERSUS)
def test_a_superlative_and_a_comparison_with_a_named_item_are_both_answered(question, winner, against, field, want) -> None:
    """The winner of the superlative (over the filter) is compared with the named item: not "about the named item"."""
    docs = bike_shop()
    retriever = bike_retriever(docs)
    analysis = retriever.analyze(question)
    by_title = {d.metadata["title"]: d.metadata["id"] for d in docs}
    assert analysis.kind == "single" and analysis.sort.attribute == field and analysis.subject is None
    assert (analysis.versus.against, analysis.versus.attribute, analysis.versus.want) == (by_title[against], field, want)
    assert analysis.describe() == f"kind is {bike(winner)[1]}" and analysis.unused == () and analysis.covered
    result = retriever.search_analysed(analysis)
    assert [d.metadata["title"] for d, _ in result.hits] == list(dict.fromkeys([winner, against]))
    answer = StructuredWriter(LocalWriter(), analyzer=None).write(question, [d for d, _ in result.hits], query=result.analysis)
    assert answer.text.startswith(f"{winner} (")  # the winner first, never the named item instead
    if winner == against:
        assert "the same item" in answer.text
    else:
        truth = (bike(winner)[2] < bike(against)[2]) == (want == "lower")
        assert f"{'Yes' if truth else 'No'}: " in answer.text and f"than {against} (" in answer.text
        assert answer.citations == (1, 2)


@pytest.mark.parametrize("question,unused", [
    ("Which road bikes are cheaper than the Osprey Aero?", "cheaper than the osprey aero"),  # relative to an item
    ("What is the lightest road bike?", "lightest"),  # a superlative of a field the analyser has no word for
    ("What is the cheapest folding bike?", "folding"),  # a word no field holds, under a superlative
])
def test_what_the_analyser_cannot_read_is_said_by_the_writer(question, unused) -> None:
    """Never silently dropped: the part of the question the structure did not apply is reported and said."""
    docs = bike_shop()
    retriever = bike_retriever(docs)
    analysis = retriever.analyze(question)
    assert any(unused in part for part in analysis.unused + analysis.ignored), analysis
    result = retriever.search_analysed(analysis)
    answer = StructuredWriter(LocalWriter(), analyzer=None).write(question, [d for d, _ in result.hits] or docs,
                                                                  query=result.analysis)
    assert not analysis.covered
    if unused in " ".join(analysis.unused):
        assert answer.text.startswith("I did not use this part of your question") and unused in answer.text
