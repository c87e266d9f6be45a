"""The local supervisor's can-serve probabilities: raw scores made comparable across agents, so a second agent is
earned only by a part the whole question's agent cannot serve. Constructed cases (none from a gold set)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import DeterministicFakeEmbedding

from ragkit.core.nlp import Clause, split_clauses
from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES
from ragkit.offline.supervisor import (
    LocalSupervisor,
    ServeCalibration,
    calibrate,
    choose_plan,
    held_out_evidence,
    whole_agent,
)
from ragkit.roles.router_protocols import RouteSpec

NO_EVIDENCE = {"a": 0.0, "b": 0.0}


def rows_for(own: str, scores: list[tuple[float, float]]):
    return [(own, {"a": a, "b": b}, NO_EVIDENCE, NO_EVIDENCE) for a, b in scores]


def test_a_route_that_scores_everything_high_is_discounted() -> None:
    """Route a's examples share words with everything: it gives 0.9 to its own and 0.6 to b's. Route b gives 0.5 to its
    own and 0.1 to a's. A text scored a 0.6, b 0.45 is a's by raw score, but a gives 0.6 to texts it does not serve
    and b rarely gives 0.45 to texts it does not serve: calibrated, b is the likelier server."""
    rows = rows_for("a", [(0.88, 0.1), (0.92, 0.1), (0.9, 0.12)]) + rows_for("b", [(0.6, 0.5), (0.62, 0.48), (0.58, 0.52)])
    calibration = calibrate(rows, term_weight=0.0, head_weight=0.0)
    text = {"a": 0.6, "b": 0.45}
    assert max(text, key=text.get) == "a"
    p = calibration(text)
    assert p["b"] > 0.5 > p["a"]
    assert whole_agent({"rag": p["a"], "code": p["b"]}) == "code"


@settings(max_examples=60, deadline=None)
@given(own=st.lists(st.floats(0.4, 1.0), min_size=2, max_size=6), other=st.lists(st.floats(0.0, 0.6), min_size=2, max_size=6))
def test_the_probability_rises_with_the_score_when_a_route_scores_its_own_examples_higher(own, other) -> None:
    rows = rows_for("a", [(s, 0.0) for s in own]) + rows_for("b", [(s, 0.0) for s in other])
    calibration = calibrate(rows, 0.0, 0.0)
    if sum(own) / len(own) > sum(other) / len(other):
        values = [calibration({"a": s})["a"] for s in (0.0, 0.3, 0.6, 0.9)]
        assert values == sorted(values) and all(0.0 <= v <= 1.0 for v in values)


def test_a_route_with_too_few_examples_keeps_the_order_of_its_raw_score() -> None:
    calibration = calibrate(rows_for("a", [(0.9, 0.1), (0.8, 0.2)]) + rows_for("b", [(0.2, 0.9)]), 0.0, 0.0)
    assert calibration.log_odds["b"] == (1.0, 0.0)
    assert ServeCalibration({"x": (1.0, 0.0)})({"x": 0.0}) == {"x": 0.5}


def test_each_example_is_scored_without_itself() -> None:
    """Left out: a word only one example has explains nothing about it, and a route with one example has no
    prototype left for it (0.0), so no example can vouch for itself."""
    routes = [RouteSpec("code", "", ("write a parser", "write a lexer", "compile it")),
              RouteSpec("rag", "", ("look it up",))]
    rows = held_out_evidence(routes, DeterministicFakeEmbedding(size=16), k=2)
    assert [route for route, *_ in rows] == ["code", "code", "code", "rag"]
    _, protos, terms, heads = rows[2]  # "compile it": no other example has "compile"
    assert terms["code"] == 0.0 and heads["code"] == 0.0
    assert rows[3][1]["rag"] == 0.0 and rows[0][3]["code"] == 1.0  # "write" still opens "write a lexer"


# A question for one agent with a follow-up clause: raw scores give the follow-up to analysis by 0.2, but the
# calibration says the lookup agent serves it nearly as well (0.62 vs 0.70): the hop is not earned at margin 0.1.
PARTS = [Clause("What does the handbook say about chunk overlap", "What does the handbook say about chunk overlap,"),
         Clause("which value does it recommend", "and which value does it recommend?")]
RAW = [{"rag": 0.9, "code": 0.1, "analysis": 0.3, "chitchat": 0.0}, {"rag": 0.4, "code": 0.1, "analysis": 0.6, "chitchat": 0.0}]
QUESTION = "What does the handbook say about chunk overlap, and which value does it recommend?"


@pytest.mark.parametrize("follow_up, sequence", [
    ({"rag": 0.62, "code": 0.0, "analysis": 0.70, "chitchat": 0.0}, ("rag",)),  # both can serve it: no hop
    ({"rag": 0.05, "code": 0.0, "analysis": 0.90, "chitchat": 0.0}, ("rag", "analysis")),  # rag cannot: earned
])
def test_a_hop_is_earned_on_can_serve_probabilities_not_on_raw_scores(follow_up, sequence) -> None:
    serve = [{"rag": 0.99, "code": 0.0, "analysis": 0.2, "chitchat": 0.0}, follow_up]
    whole = {"rag": 0.95, "code": 0.0, "analysis": 0.5, "chitchat": 0.0}
    plan = choose_plan(QUESTION, PARTS, RAW, 0.0, 3, whole=whole, earn_margin=0.1, serve=serve)
    assert plan.sequence == sequence
    split = next(c for c in plan.candidates if c.sequence == ("rag", "analysis"))
    gain = follow_up["analysis"] - follow_up["rag"]
    assert split.why == f"analysis on 'which value does it recommend': {gain:+.2f} over rag {'>=' if gain >= 0.1 else '<'} margin 0.10"
    assert choose_plan(QUESTION, PARTS, RAW, 0.0, 3).sequence == ("rag", "analysis")  # raw scores alone split it


@pytest.fixture(scope="module")
def supervisor() -> LocalSupervisor:
    return LocalSupervisor(SUPERVISOR_ROUTES)


def test_the_real_supervisor_shows_its_probabilities_and_calibrates_every_route(supervisor) -> None:
    assert set(supervisor.calibration.log_odds) == {spec.name for spec in SUPERVISOR_ROUTES}
    assert all(slope > 0 for slope, _ in supervisor.calibration.log_odds.values())  # a higher score is likelier
    p = supervisor.can_serve("Write a Python function that sorts a list of scores.")
    assert max(p, key=p.get) == "code" and all(0.0 <= v <= 1.0 for v in p.values())


@pytest.mark.parametrize("question, agent", [
    # written for this test (not from any gold set): one agent's request with a clause the same agent serves
    ("What does the handbook say about the b parameter, and what does it default to?", "rag"),
    ("Explain what a checkpointer stores and why threads need one.", "rag"),
    ("Write a function that returns the top 5 documents, and round their scores to two decimals.", "code"),
    ("Is a reranker worth adding for 300 documents, and why?", "analysis"),
])
def test_a_follow_up_the_first_agent_serves_buys_no_hop(supervisor, question, agent) -> None:
    plan = supervisor.plan(question)
    assert plan.sequence == (agent,), plan.note
    assert len(split_clauses(question)) > 1


@pytest.mark.parametrize("question, sequence", [
    # written for this test: a second request only another agent can serve
    ("What does the handbook say about min-max normalisation? Write a function that applies it.", ("rag", "code")),
    ("Compute the recall of 3 hits out of 8 relevant documents and tell me whether that is good enough.",
     ("code", "analysis")),
])
def test_a_step_the_first_agent_cannot_serve_earns_its_hop(supervisor, question, sequence) -> None:
    plan = supervisor.plan(question)
    assert plan.sequence == sequence, plan.note
    assert plan.candidates[0].earned and " >= margin " in plan.candidates[0].why
