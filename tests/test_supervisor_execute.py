"""The 2026-12-06c round's readings of a request, on constructed cases (none from a gold set): the ``execute`` signal
(a part that opens with a verb of running or measuring is work for the agent that runs code:
``ragkit.offline.router.execution``, served by the handbook team's code route), and a series of steps whose last
item opens with "then" (``marked_boundaries``)."""

from __future__ import annotations

import pytest

from ragkit.core.nlp import split_clauses
from ragkit.defaults import SUPERVISOR
from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES
from ragkit.offline.router import execution
from ragkit.offline.supervisor import LocalSupervisor, choose_plan, marked_boundaries

WITHOUT = {name: weight for name, weight in SUPERVISOR.signal_weights.items() if name != "execute"}


@pytest.mark.parametrize(("text", "strength"), [
    ("Time a bubble sort on 2,000 random integers", 1.0),
    ("measure how long the loop takes", 1.0),
    ("Hey, can you benchmark both dictionaries?", 1.0),
    ("please simulate ten coin flips", 1.0),
    ("could you run it twice", 1.0),
    ("Time complexity of a binary heap?", 0.0),  # a noun, not an imperative
    ("Measure of spread for skewed data?", 0.0),
    ("Explain how to time a function", 0.0),  # the verb is not the request's opening
    ("Is it worth running it twice?", 0.0),
    ("time-based splits or random ones?", 0.0),
])
def test_execution_reads_the_opening_verb(text: str, strength: float) -> None:
    assert execution(text) == strength


@pytest.fixture(scope="module")
def supervisors() -> tuple[LocalSupervisor, LocalSupervisor]:
    with_signal = LocalSupervisor(SUPERVISOR_ROUTES)
    return with_signal, LocalSupervisor(SUPERVISOR_ROUTES, with_signal.router.embedder, signal_weights=WITHOUT)


@pytest.mark.parametrize("question", [
    # written for this test (not from any gold set): a run or a measurement, then a judgement of it
    "Measure how long reversing 100,000 short strings takes, and decide whether it fits a one-second budget.",
])
def test_a_run_then_a_judgement_is_code_then_analysis(supervisors, question: str) -> None:
    with_signal, without = supervisors
    assert with_signal.plan(question).sequence == ("code", "analysis")
    assert without.plan(question).sequence != ("code", "analysis")  # without the signal the run reads as analysis


def test_a_judgement_that_mentions_measuring_is_no_run(supervisors) -> None:
    with_signal, without = supervisors
    question = "Is it worth measuring latency per query, or is the mean over a day enough for a small team?"
    assert with_signal.plan(question).sequence == without.plan(question).sequence == ("analysis",)


# ---------------------------------------------------------------- a series of steps
def test_then_at_the_end_of_a_series_marks_its_commas() -> None:
    steps = "Find the cosine formula, code it for two toy vectors, then judge the result"
    assert marked_boundaries(steps, split_clauses(steps)) == [True, True, True]


def test_a_series_that_ends_with_a_bare_and_stays_one_request() -> None:
    details = "Write a tokenizer that lower-cases, splits on spaces and drops stopwords"
    assert marked_boundaries(details, split_clauses(details)) == [True, False, False]


def test_a_marked_series_lets_a_middle_step_earn_its_hop_for_free() -> None:
    """The middle step wins a little evidence (+0.15 over rag): at a bare comma its hop cost (0.2) eats that; in a
    series that ends with "then" the comma is a step boundary and the three-agent plan wins."""
    scores = [{"rag": 0.9, "code": 0.2, "analysis": 0.2, "chitchat": 0.0},
              {"rag": 0.3, "code": 0.45, "analysis": 0.2, "chitchat": 0.0},
              {"rag": 0.2, "code": 0.3, "analysis": 0.9, "chitchat": 0.0}]
    plan = lambda q: choose_plan(q, split_clauses(q), scores, hop_cost=0.2, max_hops=3).sequence  # noqa: E731
    assert plan("Find the formula, code it, then judge the result") == ("rag", "code", "analysis")
    assert plan("Find the formula, code it and judge the result") == ("rag", "analysis")
