"""The unit of the supervisor's earn margin (``earn_scale``): a difference of can-serve probabilities, or of their
log-odds (a log likelihood ratio). Constructed cases only (none from a gold set)."""

from __future__ import annotations

import math

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from ragkit.core.nlp import Clause
from ragkit.defaults import SUPERVISOR
from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES
from ragkit.offline.supervisor import LocalSupervisor, choose_plan, hop_gains, log_odds

QUESTION = "Look up the tokenizer section, and benchmark it on a paragraph."
PARTS = [Clause("Look up the tokenizer section", "Look up the tokenizer section,"),
         Clause("benchmark it on a paragraph", "and benchmark it on a paragraph.")]
SCORES = [{"rag": 0.9, "code": 0.1, "analysis": 0.1, "chitchat": 0.0},
          {"rag": 0.2, "code": 0.6, "analysis": 0.1, "chitchat": 0.0}]
WHOLE = {"rag": 0.9, "code": 0.2, "analysis": 0.1, "chitchat": 0.0}
# The second part: code is rarely a server of such a text (0.05), but twenty times likelier than rag (0.0025).
RARE = [{"rag": 0.98, "code": 0.01, "analysis": 0.01, "chitchat": 0.0},
        {"rag": 0.0025, "code": 0.05, "analysis": 0.01, "chitchat": 0.0}]
# The second part: both serve it very likely; code 0.99 against rag 0.90.
SATURATED = [RARE[0], {"rag": 0.90, "code": 0.99, "analysis": 0.01, "chitchat": 0.0}]


def test_log_odds_is_finite_at_the_ends_and_symmetric() -> None:
    assert log_odds(0.5) == 0.0 and log_odds(0.2) == pytest.approx(-log_odds(0.8))
    assert math.isfinite(log_odds(0.0)) and math.isfinite(log_odds(1.0)) and log_odds(1.0) == pytest.approx(-log_odds(0.0))


def test_a_rare_but_much_likelier_server_earns_its_hop_only_in_log_odds() -> None:
    """A gain of 0.0475 in probability is below a 0.1 margin; the same parts are 3.04 apart in log-odds."""
    plan = lambda serve, scale, margin: choose_plan(QUESTION, PARTS, SCORES, 0.2, 3, whole=WHOLE,  # noqa: E731
                                                    earn_margin=margin, serve=serve, earn_scale=scale)
    assert plan(RARE, "probability", 0.1).sequence == ("rag",)
    chain = plan(RARE, "log_odds", 2.0)
    assert chain.sequence == ("rag", "code") and chain.candidates[0].earned
    assert chain.candidates[0].why == "code on 'benchmark it on a paragraph': +3.04 log-odds over rag >= margin 2.00"


def test_a_saturated_pair_is_far_apart_in_log_odds_and_close_in_probability() -> None:
    """0.99 against 0.90: +0.09 in probability (not earned at 0.1), +2.40 in log-odds (not earned at 3, earned at 2)."""
    gains = lambda scale: hop_gains(PARTS, ["rag", "code"], SATURATED, "rag", scale)[0][2]  # noqa: E731
    assert gains("probability") == pytest.approx(0.09) and gains("log_odds") == pytest.approx(2.40, abs=0.01)
    sequence = lambda scale, margin: choose_plan(QUESTION, PARTS, SCORES, 0.2, 3, whole=WHOLE, earn_margin=margin,  # noqa: E731
                                                 serve=SATURATED, earn_scale=scale).sequence
    assert [sequence("probability", 0.1), sequence("log_odds", 3.0), sequence("log_odds", 2.0)] == [
        ("rag",), ("rag",), ("rag", "code")]


def test_the_supervisor_takes_its_scale_from_the_defaults_and_as_an_argument() -> None:
    embedder = DeterministicFakeEmbedding(size=16)
    assert LocalSupervisor(SUPERVISOR_ROUTES, embedder).earn_scale == SUPERVISOR.earn_scale
    strict = LocalSupervisor(SUPERVISOR_ROUTES, embedder, earn_scale="log_odds", earn_margin=100.0)
    question = "Look up the definition of recall in the handbook, then write a Python function that computes it."
    plan = strict.plan(question)
    assert len(plan.sequence) == 1 and all("log-odds" in c.why for c in plan.candidates if c.why and len(c.sequence) > 1)
