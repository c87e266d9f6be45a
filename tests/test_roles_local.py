"""The local roles on small hand-made restaurant documents: real MiniLM, real decisions, no API key."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document

from ragkit.core.nlp import answer_type as intent
from ragkit.core.nlp import (
    cited_numbers,
    is_fragment,
    key_terms,
    names,
    numbers,
    prose_sentences,
    strip_citations,
    tokenize,
)
from ragkit.evaluation.tuning import best_f1_threshold, fit_grader, fit_logistic
from ragkit.offline.answer_grader import LocalAnswerGrader, new_terms
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.router import LocalRouter
from ragkit.offline.writing import LocalRewriter, LocalWriter, answer_units
from ragkit.roles.protocols import NOT_ENOUGH_INFORMATION
from ragkit.roles.router_protocols import RouteSpec

DOCS = [
    Document(page_content="Grilled sea bass with lemon butter and fennel (main, 24.00 EUR). Allergens: fish, dairy."),
    Document(page_content="Tomato soup with basil, served with sourdough bread. The soup is vegan. It costs 7 euros."),
    Document(
        page_content="Chablis 2021 is a dry white wine from Burgundy. It pairs well with oysters and grilled fish. "
        "A bottle costs 38 euros."
    ),
    Document(page_content="The terrace opens in May and closes at the end of September."),
]

ROUTES = [
    RouteSpec("search_menu", "The restaurant menu: dishes, ingredients, prices, allergens, vegan options", ("How much is the lamb?", "Is the soup gluten free?")),
    RouteSpec("search_wine", "The wine list: wines, grapes, regions, vintages, bottle prices, food pairings", ("Which red wine goes with steak?", "Do you have a Riesling?")),
    RouteSpec("search_web", "News, weather, sports results and general facts from the web", ("Who won the match yesterday?", "What is the weather in Lyon?")),
    RouteSpec("llm_fallback", "Greetings, thanks, jokes and small talk that need no documents", ("Hello, how are you?", "Tell me a joke")),
]


@pytest.fixture(scope="module")
def router() -> LocalRouter:
    return LocalRouter(ROUTES, fallback="llm_fallback")


# ---------------------------------------------------------------- router
@pytest.mark.parametrize(
    "question, route",
    [
        ("Do you have any vegan dishes?", "search_menu"),
        ("Which wine would you pour with the sea bass?", "search_wine"),
        ("What will the weather be like in Rome tomorrow?", "search_web"),
        ("Hi there, thanks a lot!", "llm_fallback"),
    ],
)
def test_router_picks_the_right_route(router: LocalRouter, question: str, route: str) -> None:
    decision = router.route(question)
    assert decision.route == route, decision
    assert not decision.fallback


def test_router_falls_back_under_the_margin(router: LocalRouter) -> None:
    scores = router.scores("Do you have any vegan dishes?")
    best = max(scores.values())
    strict = LocalRouter(ROUTES, fallback="llm_fallback", margin=1.0, embedder=router.embedder)
    assert strict.route("Do you have any vegan dishes?").route == "llm_fallback"
    assert strict.route("Do you have any vegan dishes?").fallback
    picky = LocalRouter(ROUTES, fallback="llm_fallback", min_similarity=best + 0.01, embedder=router.embedder)
    assert picky.route("Do you have any vegan dishes?").route == "llm_fallback"


def test_router_rejects_bad_specs_and_questions(router: LocalRouter) -> None:
    with pytest.raises(ValueError, match="not one of the routes"):
        LocalRouter(ROUTES, fallback="nowhere", embedder=router.embedder)
    with pytest.raises(ValueError, match="unique"):
        LocalRouter(ROUTES + ROUTES[:1], embedder=router.embedder)
    with pytest.raises(ValueError, match="empty"):
        router.route("   ")
    with pytest.raises(ValueError, match="limit"):
        router.route("wine " * 5000)  # beyond ragkit.core.nlp.MAX_QUERY_CHARS, the library cap


# ---------------------------------------------------------------- grader
@pytest.mark.parametrize(
    "question, relevant_index",
    [("How much is the sea bass?", 0), ("Is the tomato soup vegan?", 1), ("Which wine goes with oysters?", 2)],
)
def test_grader_separates_relevant_from_irrelevant(question: str, relevant_index: int) -> None:
    grades = LocalGrader().grade_many(question, DOCS)
    assert grades[relevant_index].relevant
    assert not any(g.relevant for i, g in enumerate(grades) if i != relevant_index)
    assert grades[relevant_index].score == max(g.score for g in grades)


def test_grader_single_and_batch_agree() -> None:
    grader = LocalGrader()
    assert grader.grade("Is the tomato soup vegan?", DOCS[1]) == grader.grade_many("Is the tomato soup vegan?", DOCS)[1]
    assert grader.grade_many("Is the soup vegan?", []) == []


def test_logistic_fit_matches_scikit_learn() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = (X @ [1.5, -2.0, 0.5] + rng.normal(scale=0.8, size=300) > 0).astype(int)
    w, b = fit_logistic(X, y, l2=1.0)
    ref = sklearn.LogisticRegression(C=1.0, tol=1e-10, max_iter=1000).fit(X, y)
    assert np.allclose(w, ref.coef_[0], atol=1e-3) and abs(b - ref.intercept_[0]) < 1e-3
    assert best_f1_threshold(np.array([0.9, 0.7, 0.6, 0.2]), np.array([1, 0, 1, 0])) == 0.6


def test_fit_grader_refits_weights_and_keeps_the_recall_target() -> None:
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(200, 3))
    y = (X[:, 2] + 0.1 * rng.normal(size=200) > 0.5).astype(int)  # only coverage decides
    grader = fit_grader(LocalGrader(weights=(0.0, 0.0, 0.0), bias=0.0), X, y, recall_target=0.9)
    assert grader.weights[2] > abs(grader.weights[0]) + abs(grader.weights[1])
    kept = grader.probability(X) >= grader.threshold
    assert (kept & (y == 1)).sum() / (y == 1).sum() >= 0.9
    f1_best = fit_grader(LocalGrader(), X, y, recall_target=None).threshold
    assert f1_best >= grader.threshold  # the recall-oriented threshold keeps more


# ---------------------------------------------------------------- rewriter
def test_rewriter_keeps_the_question_first_and_adds_feedback_terms() -> None:
    query = LocalRewriter(max_terms=4).rewrite("What goes with oysters?", [DOCS[2], DOCS[0]])
    assert query.startswith("What goes with oysters?")
    added = query[len("What goes with oysters?") :].split()
    assert 1 <= len(added) <= 4
    feedback_vocab = set(tokenize(DOCS[2].page_content + " " + DOCS[0].page_content))
    assert all(tokenize(w)[0] in feedback_vocab for w in added)
    assert not set(tokenize(" ".join(added))) & set(key_terms("What goes with oysters?"))


def test_rewriter_without_documents_keeps_the_content_words() -> None:
    assert LocalRewriter().rewrite("What wine should I drink with the fish?") == "wine drink fish"
    with pytest.raises(ValueError, match="empty"):
        LocalRewriter().rewrite("")


# ---------------------------------------------------------------- writer
def test_writer_quotes_and_cites_real_sentences() -> None:
    answer = LocalWriter().write("How much does a bottle of Chablis cost?", DOCS)
    assert answer.answered and answer.citations == (3,)
    assert "38 euros" in answer.text
    for sentence in strip_citations(answer.text).split(". "):
        assert sentence.rstrip(".") in DOCS[2].page_content
    assert set(cited_numbers(answer.text)) == set(answer.citations)


def test_writer_refuses_on_irrelevant_documents() -> None:
    answer = LocalWriter().write("Who won the football world cup in 2018?", DOCS)
    assert not answer.answered and answer.text == NOT_ENOUGH_INFORMATION and answer.citations == ()
    assert not LocalWriter().write("Is the soup vegan?", []).answered


# ---------------------------------------------------------------- hallucination grader
def test_hallucination_grader_accepts_a_faithful_answer() -> None:
    result = LocalHallucinationGrader().check(DOCS, "The soup is vegan [2]. A bottle costs 38 euros [3].")
    assert result.grounded and result.unsupported == () and result.score == 1.0


def test_hallucination_grader_flags_a_changed_number() -> None:
    result = LocalHallucinationGrader().check(DOCS, "The soup is vegan [2]. A bottle costs 42 euros [3].")
    assert not result.grounded
    assert result.unsupported == ("A bottle costs 42 euros.",)
    assert "42" in result.note


def test_hallucination_grader_flags_an_added_sentence() -> None:
    answer = "The terrace opens in May [4]. Our chef trained for ten years in a famous Paris kitchen."
    result = LocalHallucinationGrader().check(DOCS, answer)
    assert result.unsupported == ("Our chef trained for ten years in a famous Paris kitchen.",)
    assert result.score == 0.5


def test_hallucination_grader_checks_each_claim() -> None:
    answer = "Chablis 2021 is a dry white wine from Burgundy [3], but it does not pair well with oysters [3]."
    result = LocalHallucinationGrader().check(DOCS, answer)
    assert result.unsupported == ("it does not pair well with oysters.",) and "negation" in result.note
    assert LocalHallucinationGrader(check_claims=False).check(DOCS, answer).grounded  # the sentence-level grader misses it


def test_hallucination_grader_treats_a_refusal_as_grounded() -> None:
    assert LocalHallucinationGrader().check(DOCS, NOT_ENOUGH_INFORMATION).grounded


# ---------------------------------------------------------------- answer grader
@pytest.mark.parametrize(
    "question, answer, useful",
    [
        ("How much is the sea bass?", "The sea bass costs 24 euros [1].", True),
        ("How much is the sea bass?", "The sea bass is served with fennel [1].", False),
        ("When does the terrace open?", "The terrace opens in May [4].", True),
        ("When does the terrace open?", "The terrace is lovely.", False),
        ("Is the tomato soup vegan?", "Yes, the tomato soup is vegan [2].", True),
        ("Is the tomato soup vegan?", "The terrace opens in May.", False),
        ("Is the tomato soup vegan?", NOT_ENOUGH_INFORMATION, False),
    ],
)
def test_answer_grader(question: str, answer: str, useful: bool) -> None:
    assert LocalAnswerGrader().grade(question, answer).useful is useful


def test_intent_and_feature_helpers() -> None:
    assert intent("How many oysters come in a plate?") == "quantity"
    assert intent("What year did it open?") == "time"
    assert intent("Who is the chef?") == "person"
    assert numbers("It costs 24.00 EUR [1].") == {"24"}
    assert names("The Chablis comes from Burgundy [3].") == {"chablis", "burgundy"}


# ---------------------------------------------------------------- headings, code and labels are not sentences
@pytest.mark.parametrize(
    "text, title, fragment",
    [
        ("Thompson sampling bandits", None, True),  # a heading: short, no sentence ending
        ("## Setup", None, True),
        ("| k1 | 1.2 |", None, True),
        ("```python import faiss```", None, True),
        ("Interrupts and Command(resume=...)", None, True),  # an ellipsis is not a sentence end
        ("Oysters.", "Oysters", True),  # repeats the document's title
        ("Harbour fish soup (starter, 11.50 EUR).", None, False),
        ("It works on documents: a piece of text plus a dictionary of metadata.", None, False),
        ("a long line without any final punctuation that still reads like real running text to a person", None, False),
    ],
)
def test_is_fragment(text: str, title: str | None, fragment: bool) -> None:
    assert is_fragment(text, title) is fragment


def test_prose_sentences_drop_headings_code_and_titles_but_keep_positions_per_document() -> None:
    doc = Document(page_content="Oyster prices\n\nSix oysters cost 14 euros.\n\n```python\nprice = 14\n```\n\n"
                   "They come from Brittany every morning.", metadata={"title": "Oyster prices"})
    sentences = prose_sentences([DOCS[3], doc])
    assert [(s.doc, s.position, s.text) for s in sentences] == [
        (0, 0, "The terrace opens in May and closes at the end of September."),
        (1, 0, "Six oysters cost 14 euros."),
        (1, 1, "They come from Brittany every morning."),
    ]


def test_writer_reads_each_sentence_of_a_question_told_as_a_story() -> None:
    # The question's last sentence asks about the rule; its story sentence dilutes the whole question's vector.
    docs = [Document("A person who disturbs a seal or other marine mammal is liable to a fine of up to 50,000 crowns."),
            Document("The harbour office opens at eight in the morning on weekdays.")]
    question = ("My friends and I rented a small boat for the weekend and spent the whole day on the water. "
                "Could we be fined for getting close to the seals?")
    answer = LocalWriter().write(question, docs)
    assert answer.answered and answer.citations == (1,), answer.text
    assert not LocalWriter().write("We rented a small boat for the weekend. Is the harbour office open on Sundays?",
                                   docs[:1]).answered  # a sentence apart is no licence to quote an unrelated rule


def test_writer_never_quotes_a_section_heading() -> None:
    from ragkit.domains.handbook.corpus import load_handbook

    section = next(d for d in load_handbook() if d.metadata["title"] == "Thompson sampling bandits")
    answer = LocalWriter().write("What does Thompson sampling do?", [section])
    assert answer.answered and "Thompson sampling bandits" not in answer.text
    assert "```" not in answer.text and "betavariate" not in answer.text  # nor the code block
    # a heading-only document gives nothing to quote: an honest refusal
    assert not LocalWriter().write("What does Thompson sampling do?", [Document("Thompson sampling bandits")]).answered


def test_writer_glues_a_short_opening_sentence_to_the_next_one() -> None:
    units = answer_units([Document("Article 4. Boats under 12 metres need no permit. Others do.")])
    assert [u.text for u in units] == ["Article 4. Boats under 12 metres need no permit. Others do."]


MENU = [
    Document(
        "Chocolate and olive oil mousse (dessert, 8.50 EUR). A dark mousse whipped with aquafaba instead of eggs "
        "and cream. Allergens: soya, sesame. Dietary: vegan, vegetarian, gluten-free, dairy-free.",
        metadata={"title": "Chocolate and olive oil mousse"},
    ),
    Document(
        "Panna cotta with figs (dessert, 8.00 EUR). A vanilla cream set with gelatine, with roasted figs. "
        "Allergens: milk, tree nuts. Dietary: gluten-free.",
        metadata={"title": "Panna cotta with figs"},
    ),
]


def test_writer_gives_a_later_sentence_its_documents_subject() -> None:
    answer = LocalWriter(max_sentences=1).write("Do you have anything vegan?", MENU)
    assert answer.text == "Chocolate and olive oil mousse: Dietary: vegan, vegetarian, gluten-free, dairy-free [1]."
    assert LocalHallucinationGrader().check(MENU, answer.text).grounded  # still a verifiable quote
    # a title that the text does not contain is never added (every word must come from the source)
    renamed = [Document(d.page_content, metadata={"title": "Dessert of the day"}) for d in MENU]
    assert not LocalWriter(max_sentences=1).write("Do you have anything vegan?", renamed).text.startswith("Dessert")
    # the first sentence, and a sentence that names the subject itself, stay as they are
    opening = LocalWriter(max_sentences=1).write("How much is the panna cotta with figs?", MENU)
    assert opening.text == "Panna cotta with figs (dessert, 8.00 EUR) [2]."


# ---------------------------------------------------------------- answer grader: an answer must add something
@pytest.mark.parametrize(
    "question, answer, useful",
    [
        ("What is HyDE?", "HyDE [1]", False),  # restates the question's own words
        ("What does maximal marginal relevance trade off?", "Maximal marginal relevance [1].", False),
        ("What is HyDE?", "HyDE embeds a hypothetical answer passage instead of the question [1].", True),
        ("Is the tomato soup vegan?", "The tomato soup is vegan [2].", True),  # yes/no: restating is an answer
        ("How many oysters come in a plate?", "Six oysters come in a plate, for 14 euros [1].", True),
    ],
)
def test_answer_grader_wants_something_new(question: str, answer: str, useful: bool) -> None:
    assert LocalAnswerGrader().grade(question, answer).useful is useful
    assert intent("Is the tomato soup vegan?") == "yes/no"
    assert new_terms("How many legs does a spider have?", "8 [1].") == ["8"]


# ---------------------------------------------------------------- rewriter: no feedback from unrelated documents
def test_rewriter_ignores_documents_that_share_no_word_with_the_question() -> None:
    rewriter = LocalRewriter()
    assert rewriter.rewrite("What is the capital of Peru?", DOCS) == "capital peru"  # nothing to learn from
    assert rewriter.feedback("Which wine goes with oysters?", DOCS) == [DOCS[2]]
    query = rewriter.rewrite("Which wine goes with oysters?", DOCS)
    assert query.startswith("Which wine goes with oysters?")
    assert set(tokenize(query)) <= set(tokenize("Which wine goes with oysters? " + DOCS[2].page_content))
