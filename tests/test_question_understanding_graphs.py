"""Issue 8's examples as regressions on the default offline graphs, and the answerability checks on menu and SQuAD cases."""

from __future__ import annotations

import os

import pytest
from langchain_core.documents import Document

from ragkit.domains.menu.corpus import load_menu, menu_and_wines, menu_search
from ragkit.domains.menu.roles import menu_roles
from ragkit.domains.menu.routes import OFFLINE_FALLBACK, ROUTES, menu_sources
from ragkit.domains.menu.vocabulary import menu_query_analyzer
from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
from ragkit.graphs.crag import build_crag_graph, run_crag
from ragkit.offline.judge import LocalJudge, answerability_gap
from ragkit.offline.structured_answers import StructuredWriter

NUT_DESSERTS = ("Orange and almond cake", "Panna cotta")


@pytest.fixture(scope="module")
def adaptive():
    return build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)


@pytest.fixture(scope="module")
def crag_menu():
    # the refusal dial at 0.0: these tests are about what the query analyser reads; the default bar
    # (ragkit.defaults.REFUSAL.crag, tuned on SQuAD) refuses "Which desserts do not contain nuts?", whose kept
    # dish scores low with the text grader (benchmarks/refusal/README.md, "Beyond the tune split")
    return build_crag_graph(menu_search(), **menu_roles(), refuse_below=0.0)


def test_allergy_never_lists_the_nut_desserts(adaptive) -> None:
    out = adaptive.invoke({"question": "I'm allergic to nuts, which desserts can I eat?"})
    assert out["route"] == "search_menu" and out["analysis"].describe() == "allergens do not include tree nuts and course is dessert"
    assert "Lemon tart" in out["answer"] and "Chocolate and olive oil mousse" in out["answer"]
    assert not any(name in out["answer"] for name in NUT_DESSERTS)
    assert "could not check" not in out["answer"] and out["analysis"].unresolved == ()  # "allergic" is the trigger


def test_cheapest_main_is_the_cheapest(adaptive) -> None:
    out = adaptive.invoke({"question": "What is the cheapest main course?"})
    assert out["answer"].startswith("Aubergine parmigiana (main course, 17.00 EUR)")
    assert out["citations"] == [1] and len(out["documents"]) == 1 and out["sources"] == out["documents"]


def test_comparison_and_no_nuts_are_answered_not_refused(adaptive) -> None:
    out = adaptive.invoke({"question": "Is the Barolo more expensive than the Calvera Rosso?"})
    assert out["route"] == "search_wine" and out["answer"].startswith("Yes: Barolo")
    assert "[1]" in out["answer"] and "[2]" in out["answer"] and out["citations"] == [1, 2]
    nuts = adaptive.invoke({"question": "Which dessert has no nuts?"})
    assert nuts["sources"] and not any(name in nuts["answer"] for name in NUT_DESSERTS)


def test_vegan_dessert_excludes_the_panna_cotta(adaptive) -> None:
    out = adaptive.invoke({"question": "Is there a vegan dessert?"})
    assert out["answer"].startswith("Yes: Chocolate and olive oil mousse") and "Panna cotta" not in out["answer"]


def test_nothing_matches_is_an_answer_not_a_fallback(adaptive) -> None:
    out = adaptive.invoke({"question": "Is there a vegan main under 15 euros?"})
    assert out["path"][-1] == "generate" and out["answer"].startswith("No: nothing on the list matches")
    assert out["documents"] == [] and out["analysis"].searched_all and out["outcome"] == "answered"


def test_structured_evidence_overrides_a_router_that_the_data_contradicts(adaptive) -> None:
    out = adaptive.invoke({"question": "Is the lemon tart cheaper than the panna cotta?"})
    assert out["route"] == "search_menu" and out["answer"].startswith("No: Lemon tart")


def test_menu_roles_are_a_structured_writer_and_judge_on_one_analyser() -> None:
    roles, self_rag_roles = menu_roles(), menu_roles(judge=False)
    assert set(roles) == {"writer", "judge"} and set(self_rag_roles) == {"writer"}
    assert isinstance(roles["writer"], StructuredWriter) and roles["judge"].query_analyzer is roles["writer"].analyzer


def test_crag_answers_the_negated_menu_questions(crag_menu) -> None:
    for i, (question, must_not) in enumerate([("Which desserts do not contain nuts?", NUT_DESSERTS),
                                              ("Which mains are not vegetarian?", ("Mushroom and chestnut pie",))]):
        out = run_crag(crag_menu, question, thread_id=f"neg-{i}")
        assert out["outcome"] == "answered", out.get("judge_note")
        assert not any(name in out["answer"] for name in must_not)


# ---------------------------------------------------------------- answerability on menu and SQuAD-style cases
@pytest.fixture(scope="module")
def menu_docs() -> dict[str, Document]:
    return {d.metadata["title"]: d for d in load_menu()}


def test_answerability_checks_menu_documents_by_their_fields(menu_docs) -> None:
    analyzer = menu_query_analyzer(list(menu_docs.values()), embedder=False)
    q = "Which desserts do not contain nuts?"
    a = analyzer.analyze(q)
    tart, panna = menu_docs["Lemon tart"], menu_docs["Panna cotta with figs"]
    assert answerability_gap(q, tart.page_content, a, tart.metadata) is None  # no "not" sentence needed
    assert "does not match the question's conditions" in answerability_gap(q, panna.page_content, a, panna.metadata)
    q2 = "Which starters are under 11 euros?"  # the bound 11 is checked as a price, never as a spelling
    salad = menu_docs["Heirloom tomato salad"]
    assert answerability_gap(q2, salad.page_content, analyzer.analyze(q2), salad.metadata) is None


@pytest.mark.parametrize("question,passage,gap", [
    ("How many libraries are there in Cambridge?", "Oxford has 100 libraries.", "never mentions 'cambridge'"),
    ("What did the monks not build?", "The monks built a mill.", "what is not the case"),
    ("When was the mill built?", "The monks built a mill by the river.", "no time or date"),
    ("When was the mill built?", "The monks built the mill in 1120.", None),
])
def test_answerability_on_squad_style_passages(question, passage, gap) -> None:
    found = answerability_gap(question, passage, menu_query_analyzer(embedder=False).analyze(question), {"id": "p", "title": "T"},
                              related_bar=None)
    assert (found is None) if gap is None else (gap in found)


def test_a_related_word_counts_for_a_rare_term() -> None:
    q, passage = "Which wine from France won the prize in 1999?", "A French wine won the prize in 1999."
    assert answerability_gap(q, passage, related_bar=None) == "the passage never mentions 'france'"
    assert answerability_gap(q, passage, related_bar=0.7) is None


def test_judge_keeps_what_meets_the_conditions(menu_docs) -> None:
    docs = [menu_docs[t] for t in ("Orange and almond cake", "Lemon tart", "Panna cotta with figs", "Chocolate and olive oil mousse")]
    judge = LocalJudge(query_analyzer=menu_query_analyzer(list(menu_docs.values()), embedder=False))
    j = judge.judge("Which desserts do not contain nuts?", docs)
    assert j.verdict == "sufficient" and sorted(j.keep) == [1, 3]


@pytest.mark.skipif(not os.environ.get("GOOGLE_API_KEY"), reason="needs GOOGLE_API_KEY (Gemini)")
def test_korean_question_goes_through_unchanged_with_a_chat_model() -> None:  # pragma: no cover - network
    from ragkit.core.chat_models import load_chat_model

    model = load_chat_model()
    graph = build_adaptive_rag_graph(menu_sources(chat_model=model), routes=ROUTES, chat_model=model)
    question = "디저트 중에 견과류가 없는 것은 무엇인가요?"
    out = graph.invoke({"question": question})
    assert out["question"] == question and out["language_note"] is None
    assert "unsupported_language" not in out["path"] and out["answer"].strip()


class _ScoreByOverlap:
    """A grader that needs no model: the share of the question's words in the passage."""

    def grade_many(self, question, documents):
        from ragkit.roles.protocols import Grade

        q = set(question.lower().split())
        return [Grade(True, len(q & set(d.page_content.lower().split())) / max(len(q), 1)) for d in documents]

    def grade(self, question, document):
        return self.grade_many(question, [document])[0]


SQUAD_LIKE = [Document("The Normans settled in Normandy in the 10th century. They did not speak Norse for long.",
                       metadata={"id": "0-1", "title": "Normans", "source": "squad2"}),
              Document("French wine from the Loire won a prize in 1999. The abbey was founded in 1066.",
                       metadata={"id": "0-2", "title": "Normans", "source": "squad2"})]


@pytest.mark.parametrize("question", ["When did the Normans settle in Normandy?", "What did the Normans not speak?",
                                      "Which wine from France won a prize in 1999?", "Who founded the abbey in 1067?",
                                      "Which desserts do not contain nuts?", "What is the cheapest wine?"])
def test_on_plain_text_the_judge_is_the_judge_of_before(question) -> None:
    """Paragraphs without fields give the analysis nothing to check: with related_bar off (the default), the
    judge decides exactly as it did before issue 8, so SQuAD figures do not move."""
    new = LocalJudge(grader=_ScoreByOverlap(), query_analyzer=menu_query_analyzer(), related_bar=None).judge(question, SQUAD_LIKE)
    old = LocalJudge(grader=_ScoreByOverlap(), query_analyzer=None, related_bar=None).judge(question, SQUAD_LIKE)
    assert (new.verdict, new.keep, new.note) == (old.verdict, old.keep, old.note)


def test_on_plain_text_the_writer_is_the_writer_of_before() -> None:
    from ragkit.offline.writing import LocalWriter

    class Letters:
        def embed_documents(self, texts):
            return [[t.lower().count(c) + 0.01 for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts]

        def embed_query(self, text):
            return self.embed_documents([text])[0]

    for q in ("When did the Normans settle in Normandy?", "Which desserts do not contain nuts?", "What is the cheapest wine?"):
        new = StructuredWriter(LocalWriter(embedder=Letters()), menu_query_analyzer(menu_and_wines())).write(q, SQUAD_LIKE)
        old = LocalWriter(embedder=Letters()).write(q, SQUAD_LIKE)
        assert new == old
