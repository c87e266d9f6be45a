"""Query analysis: questions -> structured queries, read with the data's OWN vocabulary (bundled and synthetic),
English grammar, and a domain's words passed in (the menu's, or none)."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.structured_query import Comparison, Operation, StructuredQuery

from ragkit.core.chat_models import ScriptedChatModel, scripted
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.menu.routes import ROUTES, menu_sources
from ragkit.domains.menu.vocabulary import MENU_DESCRIPTION, MENU_WORDS, menu_query_analyzer
from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
from ragkit.offline.query_analysis import LocalQueryAnalyzer, QueryWords, Vocabulary
from ragkit.roles.llm_query_analysis import LLMQueryAnalyzer
from ragkit.roles.structured_query import QueryAnalysis, QueryAnalyzer


@pytest.fixture(scope="module")
def menu() -> LocalQueryAnalyzer:
    return menu_query_analyzer(load_menu())


@pytest.fixture(scope="module")
def wine() -> LocalQueryAnalyzer:
    return menu_query_analyzer(load_wines())


def llm_over(docs, model) -> LLMQueryAnalyzer:
    return LLMQueryAnalyzer(model, menu_query_analyzer(docs, embedder=False), MENU_DESCRIPTION)


# question -> (kind, filter in words, sort, comparison ids/field/want, unresolved)
MENU_TABLE = [
    ("I'm allergic to nuts, which desserts can I eat?", "set",
     "allergens do not include tree nuts and course is dessert", None),
    ("Which dessert has no nuts?", "set", "course is dessert and allergens do not include tree nuts", None),
    ("Which desserts do not contain nuts?", "set", "course is dessert and allergens do not include tree nuts", None),
    ("Which mains are not vegetarian?", "set", "course is main and dietary do not include vegetarian", None),
    ("Is there a vegan dessert?", "yes_no", "dietary include vegan and course is dessert", None),
    ("What is the cheapest main course?", "single", "course is main", ("price", False)),
    ("Which starters are under 11 euros?", "set", "price below 11 and course is starter", None),
    ("Which sides cost at most 5 euros?", "set", "price at most 5 and course is side", None),
    ("Is there a dessert that is both gluten-free and nut-free?", "yes_no",
     "course is dessert and dietary include gluten-free and allergens do not include tree nuts", None),
    ("A guest has a fish allergy: which mains can she order?", "set",
     "allergens do not include fish and course is main", None),
    ("Do any of your dishes contain celery or mustard?", "yes_no", "allergens include celery or allergens include mustard", None),
    ("Which main courses are dairy-free?", "set", "course is main and dietary include dairy-free", None),
    # "-free" ending a value of the data is that value, and a value of its own before "nut-free" stays asked about
    ("Is the dessert gluten-free?", "yes_no", "course is dessert and dietary include gluten-free", None),
    ("Are desserts nut-free?", "yes_no", "course is dessert and allergens do not include tree nuts", None),
    ("I have a tree nut allergy, which desserts?", "set", "allergens do not include tree nuts and course is dessert", None),
    ("List every dessert you serve.", "set", "course is dessert", None),  # "every" is a function word
]


@pytest.mark.parametrize("question,kind,words,sort", MENU_TABLE)
def test_menu_questions_become_structured_queries(menu: LocalQueryAnalyzer, question, kind, words, sort) -> None:
    a = menu.analyze(question)
    assert isinstance(a.query, StructuredQuery) and isinstance(a.filter, (Comparison, Operation))
    assert (a.kind, a.describe()) == (kind, words)
    assert (None if a.sort is None else (a.sort.attribute, a.sort.descending)) == sort


WINE_TABLE = [
    ("Which of your wines are not from Italy?", "set", "country is not Italy"),
    ("Which red wines on the list aren't Italian?", "set", "style is red and country is not Italy"),
    ("Which white wines are not made from Chardonnay?", "set", "style is white and grapes do not include Chardonnay"),
    ("Which wines can't be ordered by the glass?", "set", "price_glass is not given"),
    ("Which French wines can be ordered by the glass?", "set", "price_glass is given and country is France"),
    ("Which wines by the glass cost between 9 and 10 euros?", "set", "price_glass at least 9 and price_glass at most 10"),
    ("Do you have any bottle under 30 euros?", "yes_no", "price_bottle below 30"),
]


@pytest.mark.parametrize("question,kind,words", WINE_TABLE)
def test_wine_questions_become_structured_queries(wine: LocalQueryAnalyzer, question, kind, words) -> None:
    a = wine.analyze(question)
    assert (a.kind, a.describe()) == (kind, words)


def test_superlatives_pick_the_field_by_its_name(wine: LocalQueryAnalyzer) -> None:
    glass = wine.analyze("Which red wine is the most expensive by the glass?")
    assert (glass.kind, glass.sort.attribute, glass.sort.descending, glass.query.limit) == ("single", "price_glass", True, 1)
    assert wine.analyze("What is the cheapest bottle on the whole wine list?").sort.attribute == "price_bottle"
    assert wine.analyze("Which wine on the list has the oldest vintage?").sort.attribute == "vintage"  # a year field
    assert wine.analyze("What are the two cheapest bottles?").query.limit == 2


def test_comparisons_of_named_items(menu: LocalQueryAnalyzer, wine: LocalQueryAnalyzer) -> None:
    a = wine.analyze("Is the Barolo more expensive than the Calvera Rosso?")
    assert a.kind == "comparison" and a.comparison.ids == ("wine-15", "wine-17")
    assert (a.comparison.attribute, a.comparison.want, a.comparison.asks_yes_no) == ("price_bottle", "higher", True)
    b = menu.analyze("Which is cheaper, the sea bass or the seafood linguine?")
    assert b.comparison.ids == ("menu-08", "menu-09") and b.comparison.want == "lower" and not b.comparison.asks_yes_no
    c = wine.analyze("Which costs more by the glass, the Sancerre or the Etna Rosso?")
    assert c.comparison.attribute == "price_glass"


def test_a_question_about_one_item(menu: LocalQueryAnalyzer) -> None:
    a = menu.analyze("Does the cuttlefish rice contain dairy?")
    assert a.subject == "menu-16" and a.kind == "yes_no"
    assert a.describe() == "dietary do not include dairy-free"  # "contains dairy" = not tagged dairy-free
    spicy = menu.analyze("Is the fish soup spicy?")  # "spicy" is no field: answered from the text
    assert spicy.subject == "menu-01" and spicy.kind == "lookup" and spicy.ignored == ("spicy",)


def test_words_the_data_does_not_know_are_reported_not_hidden(menu: LocalQueryAnalyzer) -> None:
    lactose = menu.analyze("I'm lactose intolerant - which desserts can I have?")
    assert lactose.unresolved == ("lactose",) and lactose.describe() == "course is dessert"
    assert menu.analyze("Coeliac here: which sides are safe?").unresolved == ("coeliac",)
    assert menu.analyze("I have a shellfish allergy. Which mains can I order?").unresolved == ("shellfish",)


def test_plain_questions_stay_plain(menu: LocalQueryAnalyzer) -> None:
    for q in ("What would you suggest for a pescatarian?", "Is there pork in any of your dishes?"):
        a = menu.analyze(q)
        assert not a.structured and a.kind == "lookup" and a.filter is None


# ---------------------------------------------------------------- a synthetic cafe: vocabulary really from data
CAFE = [
    Document("Walnut brownie. A fudgy square.", metadata={"id": "c1", "title": "Walnut brownie", "section": "cake",
                                                          "contains": ["walnuts", "dairy", "wheat"], "labels": [], "cost": 3.5}),
    Document("Carrot cake. Spiced sponge.", metadata={"id": "c2", "title": "Carrot cake", "section": "cake",
                                                      "contains": ["wheat", "eggs"], "labels": ["halal"], "cost": 3.0}),
    Document("Satay skewers. Grilled tofu.", metadata={"id": "c3", "title": "Satay skewers", "section": "lunch",
                                                       "contains": ["peanuts", "soy"], "labels": ["vegan"], "cost": 7.0}),
    Document("Oat porridge. With berries.", metadata={"id": "c4", "title": "Oat porridge", "section": "breakfast",
                                                      "contains": ["oats"], "labels": ["vegan"], "cost": 4.0}),
]


def test_a_new_menu_works_unchanged() -> None:
    cafe = LocalQueryAnalyzer(CAFE, embedder=False)
    v = cafe.vocabulary
    assert set(v.values) == {"section", "contains", "labels"} and v.price_fields == ["cost"]
    # "nuts" = every value of the data that contains the word: walnuts AND peanuts
    a = cafe.analyze("Which cakes have no nuts?")
    assert a.describe() == "section is cake and contains do not include walnuts and contains do not include peanuts"
    assert cafe.analyze("What is the cheapest breakfast?").sort.attribute == "cost"
    assert cafe.analyze("Is there a vegan lunch under 8?").describe() == "cost below 8 and labels include vegan and section is lunch"
    cmp = cafe.analyze("Is the carrot cake cheaper than the walnut brownie?")
    assert cmp.comparison.ids == ("c2", "c1") and cmp.comparison.want == "lower"
    # the menu's values mean nothing here
    assert cafe.analyze("Which desserts are vegetarian?").filter is None


def test_vocabulary_skips_ids_constants_and_mixed_fields() -> None:
    docs = [Document("a", metadata={"id": "1", "source": "x.json", "title": "A", "kind": "k", "n": 1, "flag": True}),
            Document("b", metadata={"id": "2", "source": "x.json", "title": "B", "kind": "k", "n": 2, "flag": False})]
    v = Vocabulary.from_documents(docs, embedder=False)
    assert v.values == {} and v.numeric == {"n": (1.0, 2.0)}  # id/source/title are not fields; "kind" is constant


# ---------------------------------------------------------------- a domain's words are passed in
def test_english_grammar_needs_no_domain_words_and_the_menus_words_add_its_phrasing() -> None:
    neutral, menu = LocalQueryAnalyzer(load_menu(), embedder=False), menu_query_analyzer(load_menu(), embedder=False)
    assert neutral.words == QueryWords() and menu.words is MENU_WORDS
    for q in ("Which desserts do not contain nuts?", "What is the cheapest main course?", "Which desserts are nut-free?"):
        assert neutral.analyze(q).describe() == menu.analyze(q).describe(), q  # negation, superlatives: grammar
    allergy = "I'm allergic to nuts, which desserts can I eat?"
    assert menu.analyze(allergy).describe() == "allergens do not include tree nuts and course is dessert"
    assert "do not include" not in neutral.analyze(allergy).describe()  # "allergic to" is the menu's phrasing
    assert neutral.analyze("Coeliac here: which sides are safe?").kind == "lookup"  # "safe" is a menu word
    assert menu.analyze("Coeliac here: which sides are safe?").kind == "set"


def test_the_words_travel_with_the_analyser() -> None:
    menu = menu_query_analyzer(load_menu(), embedder=False)
    assert menu.for_documents(load_wines()).words is MENU_WORDS
    assert menu.restricted(load_menu()[:3]).words is MENU_WORDS


# ---------------------------------------------------------------- the LLM analyser: code disposes
def test_llm_analyser_keeps_only_what_the_data_has() -> None:
    model = scripted({"conditions": [{"attribute": "course", "op": "eq", "value": "Dessert"},
                                     {"attribute": "allergens", "op": "not_contain", "value": "tree nuts"},
                                     {"attribute": "allergens", "op": "not_contain", "value": "unicorn"},
                                     {"attribute": "price", "op": "lt", "value": 9}],
                      "yes_no": True})
    a = llm_over(load_menu(), model).analyze("Is there a nut-free dessert under 9?")
    assert a.describe() == "course is dessert and allergens do not include tree nuts and price below 9"
    assert a.kind == "yes_no" and not a.fallback
    assert any("unicorn" in n for n in a.notes)
    prompt = " ".join(m.content for m in model.calls[0]["messages"]) if isinstance(model.calls[0], dict) else str(model.calls[0])
    assert "tree nuts" in prompt and "course" in prompt  # the model was shown the vocabulary
    assert MENU_DESCRIPTION in prompt  # and what the data is, from the domain


def test_llm_analyser_prompt_names_no_domain_by_default() -> None:
    model = scripted({"conditions": []})
    LLMQueryAnalyzer(model, LocalQueryAnalyzer(CAFE, embedder=False)).analyze("Which cakes?")
    prompt = " ".join(m.content for m in model.calls[0]["messages"]).lower()
    assert "restaurant" not in prompt and "allergic" not in prompt and "section" in prompt


def test_llm_analyser_resolves_named_items_and_sorts() -> None:
    model = scripted({"compare_items": ["Barolo", "calvera rosso"], "compare_attribute": "price_bottle",
                      "compare_want": "higher", "yes_no": True})
    a = llm_over(load_wines(), model).analyze("Is the Barolo dearer than the Calvera Rosso?")
    assert a.comparison.ids == ("wine-15", "wine-17") and a.kind == "comparison"
    bad = llm_over(load_wines(), scripted({"sort_attribute": "colour"})).analyze("Which is reddest?")
    assert bad.sort is None and any("colour" in n for n in bad.notes)


@pytest.mark.parametrize("reply", ["not json at all", '{"conditions": "oops"}', RuntimeError("quota exceeded")])
def test_llm_analyser_falls_back_to_the_local_analysis(reply) -> None:
    a = llm_over(load_menu(), ScriptedChatModel(responses=[reply])).analyze("Which desserts have no nuts?")
    assert a.fallback and a.describe() == "course is dessert and allergens do not include tree nuts"


def test_both_analysers_follow_the_protocol() -> None:
    local = LocalQueryAnalyzer(CAFE, embedder=False)
    assert isinstance(local, QueryAnalyzer) and isinstance(LLMQueryAnalyzer(scripted("{}"), local), QueryAnalyzer)
    assert isinstance(local.analyze("Which cakes?"), QueryAnalysis)


def test_the_menu_sources_read_questions_with_the_analyser_they_are_given() -> None:
    sources = menu_sources(LLMQueryAnalyzer(scripted("{}"), menu_query_analyzer(embedder=False), MENU_DESCRIPTION))
    analyzer = sources["search_wine"].analyzer  # re-targeted to the wine list, the menu's words kept
    assert isinstance(analyzer, LLMQueryAnalyzer) and set(analyzer.vocabulary.values) >= {"style", "grapes"}
    assert analyzer.local.words is MENU_WORDS and analyzer.description == MENU_DESCRIPTION
    assert isinstance(menu_sources()["search_menu"].analyzer, LocalQueryAnalyzer)


def test_the_menu_sources_on_a_chat_model_analyse_with_it_and_keep_the_menus_words() -> None:
    model = scripted("{}")
    for name in ("search_menu", "search_wine"):
        analyzer = menu_sources(chat_model=model)[name].analyzer
        assert isinstance(analyzer, LLMQueryAnalyzer) and analyzer.model is model
        assert analyzer.local.words is MENU_WORDS and analyzer.description == MENU_DESCRIPTION
    with pytest.raises(TypeError, match="not both"):
        menu_sources(menu_query_analyzer(embedder=False), chat_model=model)


def test_with_a_chat_model_the_adaptive_graph_analyses_with_it() -> None:
    model = scripted({"route": "search_menu", "reason": "menu"},
                     {"conditions": [{"attribute": "course", "op": "eq", "value": "dessert"}]},
                     {"answer": "Lemon tart [1].", "answered": True})
    out = build_adaptive_rag_graph(menu_sources(chat_model=model), routes=ROUTES, chat_model=model).invoke(
        {"question": "Which desserts do you have?"})
    assert out["analysis"].describe() == "course is dessert" and not out["analysis"].fallback
    assert all(d.metadata["course"] == "dessert" for d in out["documents"]) and len(model.calls) == 3
