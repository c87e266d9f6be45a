"""The local supervisor's earned hops: a plan other than "the whole question's agent alone" must be earned by a
part that agent cannot serve (``choose_plan(whole=..., earn_margin=...)``), on constructed cases."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragkit.core.nlp import Clause
from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES
from ragkit.offline.supervisor import LocalSupervisor, choose_plan, hop_gains, whole_agent
from ragkit.roles.agent_protocols import AGENTS

# A lookup with a follow-up in a second sentence that the lookup also answers: the follow-up looks a little more
# like analysis ("which ... recommend") than like a lookup, and the whole question is clearly a lookup.
SPURIOUS = "What does the handbook say about chunk overlap? Which value does it recommend?"
SPURIOUS_PARTS = [Clause("What does the handbook say about chunk overlap", "What does the handbook say about chunk overlap?"),
                  Clause("Which value does it recommend", "Which value does it recommend?")]
SPURIOUS_SCORES = [{"rag": 0.90, "code": 0.10, "analysis": 0.30, "chitchat": 0.05},
                   {"rag": 0.45, "code": 0.10, "analysis": 0.60, "chitchat": 0.05}]
SPURIOUS_WHOLE = {"rag": 0.85, "code": 0.10, "analysis": 0.45, "chitchat": 0.05}
# A real two-part question: look it up, then code it; the second part is far from a lookup.
REAL = "Look up the cosine formula. Then code it with numpy."
REAL_PARTS = [Clause("Look up the cosine formula", "Look up the cosine formula."),
              Clause("code it with numpy", "Then code it with numpy.")]
REAL_SCORES = [{"rag": 0.90, "code": 0.20, "analysis": 0.20, "chitchat": 0.05},
               {"rag": 0.20, "code": 0.95, "analysis": 0.20, "chitchat": 0.05}]
REAL_WHOLE = {"rag": 0.70, "code": 0.60, "analysis": 0.20, "chitchat": 0.05}


def test_without_the_whole_question_a_marked_follow_up_buys_a_hop() -> None:
    """The old rule: a sentence end costs nothing, so a follow-up 0.15 closer to analysis splits the question."""
    assert choose_plan(SPURIOUS, SPURIOUS_PARTS, SPURIOUS_SCORES, hop_cost=0.2, max_hops=3).sequence == ("rag", "analysis")


def test_a_one_agent_question_with_a_spurious_second_clause_stays_one_agent() -> None:
    plan = choose_plan(SPURIOUS, SPURIOUS_PARTS, SPURIOUS_SCORES, 0.2, 3, whole=SPURIOUS_WHOLE, earn_margin=0.3)
    assert plan.sequence == ("rag",) and plan.tasks == (f"{SPURIOUS_PARTS[0].text} {SPURIOUS_PARTS[1].text}",)
    chosen, *others = plan.candidates
    assert chosen.earned and chosen.sequence == ("rag",)
    split = next(c for c in others if c.sequence == ("rag", "analysis"))
    assert not split.earned and split.score > chosen.score  # more evidence, but its hop is not earned
    assert split.why == "analysis on 'Which value does it recommend': +0.15 over rag < margin 0.30"
    assert ("not earned: rag -> analysis 1.50 (evidence 1.50 - hop cost 0.00) [analysis on 'Which value does it "
            "recommend': +0.15 over rag < margin 0.30]") in plan.note
    assert "one agent for the whole question: rag" in plan.note


def test_a_real_two_part_question_gets_two_agents() -> None:
    plan = choose_plan(REAL, REAL_PARTS, REAL_SCORES, 0.2, 3, whole=REAL_WHOLE, earn_margin=0.3)
    assert plan.sequence == ("rag", "code") and plan.tasks == ("Look up the cosine formula", "code it with numpy")
    assert plan.candidates[0].earned and plan.candidates[0].why == "code on 'code it with numpy': +0.75 over rag >= margin 0.30"
    assert "its extra hop is earned over" in plan.note


def test_the_margin_is_what_decides_and_zero_keeps_the_old_plans() -> None:
    """The spurious follow-up's gain is 0.15: a margin below it lets the hop through, one above holds it back."""
    sequence = lambda margin: choose_plan(SPURIOUS, SPURIOUS_PARTS, SPURIOUS_SCORES, 0.2, 3,  # noqa: E731
                                          whole=SPURIOUS_WHOLE, earn_margin=margin).sequence
    assert [sequence(m) for m in (0.0, 0.1, 0.2, 0.5)] == [("rag", "analysis")] * 2 + [("rag",)] * 2


def test_another_single_agent_than_the_whole_questions_must_be_earned_too() -> None:
    """Parts that sum a little higher for code do not overturn the whole question's agent (analysis)."""
    parts = [Clause("is a flat index enough", "is a flat index enough,"), Clause("for 500 vectors", "for 500 vectors")]
    scores = [{"rag": 0.1, "code": 0.50, "analysis": 0.45, "chitchat": 0.0},
              {"rag": 0.1, "code": 0.40, "analysis": 0.35, "chitchat": 0.0}]
    whole = {"rag": 0.1, "code": 0.40, "analysis": 0.60, "chitchat": 0.0}
    assert choose_plan("is a flat index enough, for 500 vectors", parts, scores, 0.2, 3).sequence == ("code",)
    plan = choose_plan("is a flat index enough, for 500 vectors", parts, scores, 0.2, 3, whole=whole, earn_margin=0.2)
    assert plan.sequence == ("analysis",) and not next(c for c in plan.candidates if c.sequence == ("code",)).earned


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(*[st.integers(0, 20)] * len(AGENTS)), min_size=1, max_size=4),
       whole=st.tuples(*[st.integers(0, 20)] * len(AGENTS)), margin=st.sampled_from([0.0, 0.2, 0.5, 5.0]))
def test_the_chosen_plan_is_earned_and_a_huge_margin_leaves_one_agent(rows, whole, margin) -> None:
    scores = [dict(zip(AGENTS, (v / 20 for v in row))) for row in rows]
    whole_scores = dict(zip(AGENTS, (v / 20 for v in whole)))
    clauses = [Clause(f"part {i}", f"part {i}.") for i in range(len(rows))]
    plan = choose_plan(" ".join(c.raw for c in clauses), clauses, scores, 0.1, 3, whole=whole_scores, earn_margin=margin)
    best = plan.candidates[0]
    assert best.earned and best.sequence == plan.sequence
    assert best.score == max(c.score for c in plan.candidates if c.earned)
    if margin == 5.0:  # no hop of at most four parts can gain 5.0 over the whole question's agent: it plans alone
        assert plan.sequence == (whole_agent(whole_scores),)


def test_hop_gains_name_the_part_of_each_run_where_its_agent_gains_most() -> None:
    """A hop is earned by its strongest part: a second part that the whole question's agent could also serve
    ("and test it") neither adds to nor takes from the part that earns it ("code it")."""
    parts = [Clause(t, t) for t in ("look it up", "hi", "code it", "and test it", "judge it")]
    rows = [{"rag": 0.9, "code": 0.1, "analysis": 0.1}, {"rag": 0.0, "code": 0.0, "analysis": 0.0, "chitchat": 0.9},
            {"rag": 0.2, "code": 0.7, "analysis": 0.1}, {"rag": 0.45, "code": 0.4, "analysis": 0.1},
            {"rag": 0.3, "code": 0.1, "analysis": 0.6}]
    gains = hop_gains(parts, ["rag", "chitchat", "code", "code", "analysis"], rows, "rag")
    assert [(a, t) for a, t, _ in gains] == [("code", "code it"), ("analysis", "judge it")]
    assert [g for _, _, g in gains] == pytest.approx([0.5, 0.3])


@pytest.fixture(scope="module")
def supervisor() -> LocalSupervisor:
    return LocalSupervisor(SUPERVISOR_ROUTES)


@pytest.mark.parametrize("question", [
    # written for this test (not from any gold set): two requests that need two agents
    "Look up the definition of recall in the handbook, then write a Python function that computes it.",
    "Compute the mean of 4, 8 and 15. Then tell me whether that average is a sensible summary here.",
])
def test_the_real_supervisor_shows_why_each_hop_was_earned(supervisor, question) -> None:
    plan = supervisor.plan(question)
    assert len(plan.sequence) == 2 and plan.candidates[0].earned
    assert plan.candidates[0].why.startswith(f"{plan.sequence[1]} on ") or plan.candidates[0].why.startswith(
        f"{plan.sequence[0]} on ")
    assert all(c.why for c in plan.candidates if c.sequence != (whole_agent(supervisor.scores(question)),))


def test_the_supervisor_takes_its_margin_and_a_huge_one_plans_one_agent(supervisor) -> None:
    strict = LocalSupervisor(SUPERVISOR_ROUTES, supervisor.router.embedder, earn_margin=10.0)
    question = "Look up the definition of recall in the handbook, then write a Python function that computes it."
    assert strict.plan(question).sequence == (whole_agent(strict.scores(question)),)
    assert all(len(c.sequence) == 1 or not c.earned for c in itertools.islice(strict.plan(question).candidates, 10))


# ---------------------------------------------------------------- the compute signal
@pytest.mark.parametrize("question", ["What is 3 to the power of 12?", "How much is 23 factorial?",
                                      "what's 7/3 + 5/8 to four decimals", "What is 12.5 * 48 - 3?"])
def test_arithmetic_on_numbers_the_question_gives_goes_to_the_agent_that_computes(question: str) -> None:
    # The handbook team's code route serves "compute"; without the signal these read as lookups (MiniLM puts
    # "What is ...?" next to the rag examples).
    with_signal = LocalSupervisor(SUPERVISOR_ROUTES)
    assert with_signal.plan(question).sequence == ("code",)
    assert LocalSupervisor(SUPERVISOR_ROUTES, signal_weights={}).plan(question).sequence != ("code",)


def test_a_ratio_or_a_number_in_a_lookup_is_no_computation() -> None:
    supervisor = LocalSupervisor(SUPERVISOR_ROUTES)
    assert supervisor.plan("Is a 50/50 split fair for an A/B test of two rankers?").sequence == ("analysis",)
    assert supervisor.plan("What does the handbook say about 2 to the power of k buckets in LSH?").sequence == ("rag",)
