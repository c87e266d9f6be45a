"""The refusal dial: every RAG graph answers or refuses by one bar (``refuse_below``) on one recorded score
(``confidence``), its default comes from ``ragkit.defaults.REFUSAL``, and the risk-coverage arithmetic
that draws the curve from one run per question."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from langchain_core.documents import Document

from ragkit.defaults import REFUSAL
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.evaluation.risk_coverage import (
    Item,
    aurc,
    balanced,
    choose_threshold,
    curve,
    curves_payload,
    point_at,
    thresholds,
)
from ragkit.graphs.advanced_rag import build_advanced_rag_graph
from ragkit.graphs.crag import build_crag_graph, run_crag
from ragkit.graphs.self_rag import build_self_rag_graph
from ragkit.graphs.statute_qa import build_statute_qa_graph
from ragkit.plots import RISK_COVERAGE_SIZE, plot_risk_coverage
from ragkit.roles.answer_grader_protocols import Usefulness
from ragkit.roles.judge_protocols import Judgement
from ragkit.roles.llm_queries import Intent, QueryTransform
from ragkit.roles.protocols import Answer, Grade, Groundedness
from ragkit.roles.statute_protocols import EvidenceGrade, KindDecision

DOCS = [Document(f"Passage {i}: the mill was built by the monks in 11{i}0.", metadata={"id": f"d{i}", "title": "Mill"})
        for i in range(4)]
STATUTE_ARTICLES = load_statute()


# ---------------------------------------------------------------- scripted roles (each scores ``score``)
class Search:
    def search_with_scores(self, query: str, k: int | None = None) -> list[tuple[Document, float]]:
        return [(d, 1.0 - i / 10) for i, d in enumerate(DOCS[: k or 4])]


class StatuteSearch:
    def search_with_scores(self, query: str, k: int | None = None) -> list[tuple[Document, float]]:
        return [(d, 1.0 - i / 10) for i, d in enumerate(STATUTE_ARTICLES[: k or 5])]


class Writer:
    def write(self, question: str, documents: Sequence[Document]) -> Answer:
        return Answer("The monks built the mill [1].", (1,)) if documents else Answer("", answered=False)


class Grounded:
    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        return Groundedness(True)


class Useful:
    def grade(self, question: str, answer: str) -> Usefulness:
        return Usefulness(True, 1.0)


class Rewriter:
    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        return question + " again"


def grader(score: float) -> Callable[[str, Document], Grade]:
    return lambda question, document: Grade(True, score)


def crag(score: float, **kw: Any) -> Callable[[str], dict]:
    judge = lambda question, documents: Judgement("sufficient", keep=(0,), score=score)  # noqa: E731
    graph = build_crag_graph(Search(), judge=judge, writer=Writer(), hallucination_grader=Grounded(), rewriter=Rewriter(), **kw)
    return lambda q: run_crag(graph, q, "dial")


def self_rag(score: float, **kw: Any) -> Callable[[str], dict]:
    graph = build_self_rag_graph(Search(), grader=grader(score), writer=Writer(), hallucination_grader=Grounded(),
                                 answer_grader=Useful(), rewriter=Rewriter(), **kw)
    return lambda q: graph.invoke({"question": q})


class Transformer:
    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        return QueryTransform()


def advanced(score: float, **kw: Any) -> Callable[[str], dict]:
    graph = build_advanced_rag_graph(arms={"hybrid": Search()}, intent_classifier=lambda q: Intent("rag", 1.0),
                                     query_transformer=Transformer(), grader=grader(score), writer=Writer(),
                                     hallucination_grader=Grounded(), rerank=False, **kw)
    return lambda q: graph.invoke({"question": q})


def statute(score: float, **kw: Any) -> Callable[[str], dict]:
    graph = build_statute_qa_graph(STATUTE_ARTICLES, domain=STATUTE, strategies={name: StatuteSearch() for name in ("vector", "hybrid", "graph")},
                                   question_classifier=lambda q: KindDecision("single", 1.0),
                                   evidence_grader=lambda q, docs: EvidenceGrade("sufficient", (0,), score),
                                   writer=Writer(), hallucination_grader=Grounded(), rewriter=Rewriter(), **kw)
    return lambda q: graph.invoke({"question": q})


GRAPHS = {"crag": crag, "self_rag": self_rag, "advanced_rag": advanced, "statute_qa": statute}
QUESTION = "Who built the mill?"


# ---------------------------------------------------------------- the dial moves the decision
@pytest.mark.parametrize("name", list(GRAPHS))
def test_a_run_scoring_0_4_answers_at_0_3_and_refuses_at_0_5(name: str) -> None:
    low, high = GRAPHS[name](0.4, refuse_below=0.3)(QUESTION), GRAPHS[name](0.4, refuse_below=0.5)(QUESTION)
    assert low["outcome"] == "answered" and low["confidence"] == pytest.approx(0.4)
    assert high["outcome"] == "refused" and high["confidence"] == pytest.approx(0.4)
    assert "0.4" in high["reason"] and "0.5" in high["reason"]  # the reason names the score and the bar
    assert high["answer"] != low["answer"]


@pytest.mark.parametrize("name", list(GRAPHS))
def test_the_bar_is_inclusive_so_a_recorded_score_predicts_the_outcome(name: str) -> None:
    out = GRAPHS[name](0.4, refuse_below=0.4)(QUESTION)
    assert out["outcome"] == "answered"
    assert point_at([Item(out["confidence"], True, True)], 0.4).coverage == 1.0


@pytest.mark.parametrize("name", list(GRAPHS))
def test_the_default_bar_comes_from_ragkit_defaults(name: str) -> None:
    bar = getattr(REFUSAL, name)
    assert GRAPHS[name](bar)(QUESTION)["outcome"] == "answered"  # at the default: answered
    assert GRAPHS[name](bar - 0.01)(QUESTION)["outcome"] == "refused"  # just below it: refused


@pytest.mark.parametrize("name", list(GRAPHS))
def test_a_bar_that_is_not_a_number_is_refused_when_the_graph_is_built(name: str) -> None:
    with pytest.raises(ValueError, match="refuse_below must be a finite number"):
        GRAPHS[name](0.4, refuse_below=float("nan"))
    with pytest.raises(ValueError, match="refuse_below"):
        GRAPHS[name](0.4, refuse_below="high")


def test_crag_without_a_judge_score_is_not_refused_by_the_dial() -> None:
    judge = lambda question, documents: Judgement("sufficient", keep=(0,))  # noqa: E731 - an LLM judge gives no score
    graph = build_crag_graph(Search(), judge=judge, writer=Writer(), hallucination_grader=Grounded(), rewriter=Rewriter(),
                             refuse_below=0.9)
    out = run_crag(graph, QUESTION, "no-score")
    assert out["outcome"] == "answered" and out["confidence"] is None


def test_the_dial_refuses_before_the_writer_is_called_in_crag_and_statute_qa() -> None:
    calls: list[str] = []

    class CountingWriter(Writer):
        def write(self, question: str, documents: Sequence[Document]) -> Answer:
            calls.append(question)
            return super().write(question, documents)

    judge = lambda question, documents: Judgement("sufficient", keep=(0,), score=0.1)  # noqa: E731
    graph = build_crag_graph(Search(), judge=judge, writer=CountingWriter(), hallucination_grader=Grounded(),
                             rewriter=Rewriter(), refuse_below=0.5)
    out = run_crag(graph, QUESTION, "early")
    assert out["refusal"] == "low_confidence" and out["path"][-1] == "refuse" and calls == []


# ---------------------------------------------------------------- the curve's arithmetic
ITEMS = [Item(0.9, True, True), Item(0.7, False, True), Item(0.5, False, False), Item(0.3, True, True),
         Item(None, False, True), Item(None, False, False)]


def test_points_count_an_answered_unanswerable_question_as_wrong() -> None:
    p = point_at(ITEMS, 0.5)
    assert (p.answered, p.questions, p.coverage) == (3, 6, 0.5)
    assert p.accuracy == pytest.approx(1 / 3, abs=1e-4) and p.risk == pytest.approx(2 / 3, abs=1e-4)
    assert p.answerable_right == 0.25 and p.unanswerable_refused == 0.5
    assert point_at([Item(0.5, True, False)], 0.0).accuracy == 0.0  # "right" but unanswerable: still wrong


def test_a_run_refused_anyway_is_never_answered_and_one_without_a_score_always_is() -> None:
    items = [Item(None, False, True), Item(math.inf, True, True)]
    assert [point_at(items, t).answered for t in (-1.0, 0.0, 0.99, 100.0)] == [1, 1, 1, 1]
    assert thresholds(items) == [math.inf]


def test_the_curve_runs_from_no_answer_to_every_scored_answer() -> None:
    points = curve(ITEMS)
    assert [p.threshold for p in points] == [math.inf, 0.9, 0.7, 0.5, 0.3]
    assert [p.answered for p in points] == [0, 1, 2, 3, 4]
    assert points[0].accuracy is None and points[1].accuracy == 1.0 and points[-1].accuracy == 0.5


def test_aurc_weights_each_risk_by_the_coverage_it_adds() -> None:
    # risks 0, 1/2, 2/3, 1/2 at coverages 1/6 .. 4/6: area = (0 + 0.5 + 0.6667 + 0.5) / 6
    assert aurc(curve(ITEMS)) == pytest.approx((0 + 0.5 + 0.6667 + 0.5) / 6, abs=1e-3)
    perfect = [Item(0.9, True, True), Item(0.8, True, True), Item(0.1, False, False)]
    assert aurc(curve(perfect)) < aurc(curve(list(reversed([Item(0.9, False, False), Item(0.8, True, True), Item(0.1, True, True)]))))


def test_choosing_a_bar_keeps_the_lowest_within_one_standard_error() -> None:
    noisy = [Item(s, True, True) for s in (0.9, 0.7, 0.5, 0.3)] + [Item(s, False, False) for s in (0.8, 0.6, 0.4, 0.2)]
    bar, how = choose_threshold(noisy)
    assert how["chosen_balanced"] >= how["best_balanced"] - how["standard_error"]
    lower = [t for t in (0.0, 0.2) if t < bar]  # every lower candidate is more than one standard error worse
    assert all(balanced(point_at(noisy, t)) < how["best_balanced"] - how["standard_error"] for t in lower)
    assert bar == 0.3
    clear = [Item(0.9, True, True)] * 40 + [Item(0.1, False, False)] * 40
    assert choose_threshold(clear)[0] == 0.9  # refusing the low scores is clearly better
    assert balanced(point_at(clear, 0.9)) == 1.0
    useless = [Item(0.5, True, True)] * 10 + [Item(0.5, False, False)] * 10
    assert choose_threshold(useless)[0] == 0.0  # a score that cannot tell them apart: keep answering


def test_the_payload_marks_each_default() -> None:
    payload = curves_payload({"g": ITEMS}, {"g": 0.6})
    assert payload["g"]["default"]["threshold"] == 0.6 and payload["g"]["default"]["answered"] == 2
    assert payload["g"]["points"][0]["threshold"] == "inf"


def test_the_plot_has_a_fixed_size_and_marks_the_default() -> None:
    payload = curves_payload({"crag": ITEMS, "self_rag": ITEMS[:4]}, {"crag": 0.6, "self_rag": 0.0})
    fig = plot_risk_coverage({g: c["points"] for g, c in payload.items()}, {g: c["default"] for g, c in payload.items()})
    assert tuple(fig.get_size_inches()) == RISK_COVERAGE_SIZE
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["crag", "self_rag"]
    assert any(t.get_text() == "default 0.60" for t in ax.texts)
    fig2 = plot_risk_coverage({"crag": curve(ITEMS)}, {"crag": 0.6})  # Point objects and a bar work too
    assert any(t.get_text() == "default 0.60" for t in fig2.axes[0].texts)
    plt.close("all")
