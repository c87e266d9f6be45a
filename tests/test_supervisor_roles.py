"""The supervisor graph's roles: supervisor (local, LLM, structured), clause splitting, analyst, coder, aggregator,
small talk."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.messages import AIMessage

from ragkit.core.chat_models import scripted
from ragkit.core.nlp import Clause, code_blocks, reorder, split_clauses
from ragkit.domains.handbook.agents import CONTEXT, DESCRIPTIONS, HANDBOOK_TEAM, SUPERVISOR_ROUTES, TITLES
from ragkit.offline.agents import (
    LIMITS,
    LocalAggregator,
    LocalAnalyst,
    LocalCoder,
    describe_code,
    drop_repeats,
    expression_in,
    no_code_message,
    options_in,
    printed_numbers,
)
from ragkit.offline.router import LocalSmallTalk
from ragkit.offline.supervisor import LocalSupervisor, steps_from_evidence
from ragkit.roles.agent_protocols import AGENTS, AgentAnswer, agent_name, normalise_sequence, truncate
from ragkit.roles.llm_agents import (
    LLMAggregator,
    LLMAnalyst,
    LLMCoder,
    LLMStructuredSupervisor,
    LLMSupervisor,
    format_findings,
    parse_agent_names,
)
from ragkit.roles.llm_queries import LLMSmallTalk


# ---------------------------------------------------------------- normalising any proposal
@settings(max_examples=300, deadline=None)
@given(proposed=st.one_of(st.lists(st.one_of(st.sampled_from([*AGENTS, *(f"{a}_agent" for a in AGENTS), "FINISH", ""]),
                                             st.text(max_size=12), st.integers(), st.none()), max_size=12),
                          st.text(max_size=20), st.integers(), st.none()),
       cap=st.integers(min_value=1, max_value=6))
def test_any_proposal_normalises_to_a_valid_sequence(proposed, cap) -> None:
    sequence, dropped, fallback = normalise_sequence(proposed, cap)
    assert 1 <= len(sequence) <= cap and set(sequence) <= set(AGENTS)
    assert all(a != b for a, b in zip(sequence, sequence[1:]))  # no repeats in a row
    assert fallback == (sequence == ("rag",) and not any(agent_name(p) for p in (proposed if isinstance(proposed, list) else [])))


def test_normalise_rules_one_by_one() -> None:
    assert normalise_sequence(["rag_agent", "Rag", "code agent", "oracle", "code"], 3) == (("rag", "code"), ("oracle",), False)
    assert normalise_sequence(["code", "rag", "code", "analysis"], 2) == (("code", "rag"), (), False)
    assert normalise_sequence([], 3) == (("rag",), (), True)
    with pytest.raises(ValueError, match="max_hops"):
        normalise_sequence(["rag"], 0)


@pytest.mark.parametrize("reply, names", [
    ("rag_agent, code_agent", ["rag_agent", "code_agent"]),
    ("rag_agent -> analysis_agent", ["rag_agent", "analysis_agent"]),
    ("1. code_agent\n2. rag_agent", ["code_agent", "rag_agent"]),
    ("", []),
])
def test_parse_agent_names(reply, names) -> None:
    assert parse_agent_names(reply) == names


# ---------------------------------------------------------------- LLM supervisors on a scripted model
def test_llm_supervisor_parses_the_comma_separated_reply() -> None:
    model = scripted("rag_agent, code_agent, code_agent, analysis_agent, chitchat_agent")
    plan = LLMSupervisor(model, DESCRIPTIONS).plan("Find it, code it, judge it.", max_hops=3)
    assert plan.sequence == ("rag", "code", "analysis") and not plan.fallback
    prompt = model.calls[0]["messages"][0].content
    assert "comma-separated" in prompt and "at most 3" in prompt and "rag_agent" in prompt


@pytest.mark.parametrize("reply", ["I think you should ask the oracle.", "", ValueError("quota")])
def test_llm_supervisor_falls_back_to_the_default_on_garbage_or_failure(reply) -> None:
    plan = LLMSupervisor(scripted(reply), DESCRIPTIONS).plan("q")
    assert plan.sequence == ("rag",) and plan.fallback


def test_structured_supervisor_and_its_malformed_output() -> None:
    good = LLMStructuredSupervisor(scripted({"agents": ["code_agent", "code_agent", "analysis_agent"], "reason": "r"}),
                                   DESCRIPTIONS)
    assert good.plan("q").sequence == ("code", "analysis")
    for bad in ('{"agents": ["oracle"]}', "not json", '{"agents": []}'):
        plan = LLMStructuredSupervisor(scripted(bad), DESCRIPTIONS).plan("q")
        assert plan.sequence == ("rag",) and plan.fallback


# ---------------------------------------------------------------- clauses and the local supervisor
def test_clauses_keep_brackets_and_quotes_whole() -> None:
    texts = [c.text for c in split_clauses("Compute the distance between [0.6, 0.8] and (1, 0), then say `f(a, b)`.")]
    assert texts == ["Compute the distance between [0.6, 0.8]", "(1, 0)", "say `f(a, b)`"]


@pytest.mark.parametrize("question, order", [
    ("Implement it, after reading the section.", ["reading the section", "Implement it"]),
    ("Is it any good? Check the handbook first.", ["Check the handbook", "Is it any good"]),
    ("Before you write it, look it up.", ["look it up", "you write it"]),
    ("Look it up and then write it", ["Look it up", "write it"]),
])
def test_order_marks_put_clauses_in_the_order_of_the_work(question, order) -> None:
    assert [c.text for c in reorder(split_clauses(question))] == order


def test_weak_clauses_join_their_neighbour_and_context_is_never_a_step() -> None:
    evidence = [(Clause("My corpus has 2,000 chunks", ""), {"rag": 0.2, "analysis": 0.3, CONTEXT: 0.6}),
                (Clause("is a flat index enough", ""), {"rag": 0.3, "analysis": 0.5, CONTEXT: 0.1})]
    assert [a for _, a in steps_from_evidence(evidence, 1, 0.0)] == ["analysis"]
    only_context = evidence[:1]
    assert [a for _, a in steps_from_evidence(only_context, 1, 0.0)] == ["analysis"]  # best agent, never "context"


def test_the_supervisor_routes_hold_every_agent_and_the_context_class() -> None:
    assert {r.name for r in SUPERVISOR_ROUTES} == {*AGENTS, CONTEXT}
    with pytest.raises(ValueError, match="every agent"):
        LocalSupervisor(SUPERVISOR_ROUTES[:2])


@pytest.fixture(scope="module")
def local_supervisor() -> LocalSupervisor:
    return LocalSupervisor(SUPERVISOR_ROUTES)


@pytest.mark.parametrize("question, sequence", [
    # written for this test (not from the gold set): one of each single agent, chains, and a reversed order
    ("hey, good morning!", ("chitchat",)),
    ("Write a Python function that counts vowels in a string.", ("code",)),
    ("What does the handbook say about checkpointers?", ("rag",)),
    ("Look up how HyDE works in the handbook and then implement a toy version.", ("rag", "code")),
    ("Hello! Look up what the handbook says about loop caps.", ("rag",)),
    ("Implement a reranking function, after reading what the handbook says about cross-encoders.", ("rag", "code")),
])
def test_local_supervisor_plans(local_supervisor, question, sequence) -> None:
    assert local_supervisor.plan(question).sequence == sequence


def test_small_talk_after_a_request_keeps_its_words_in_the_task(local_supervisor) -> None:
    """Regression: a clause scored as chitchat after a request (here the "1" of an unbracketed list) used to be
    dropped with its text, so the hop's task lost part of the question."""
    plan = local_supervisor.plan("Using the handbook's definition of nDCG, compute it for the ranking 3, 2, 0, 1.")
    assert plan.sequence == ("rag", "code")
    assert plan.tasks[1].split()[-4:] == ["3", "2", "0", "1"]
    assert local_supervisor.plan("Hello! Look up what the handbook says about loop caps.").tasks[0].startswith("Look up")


def test_local_supervisor_tasks_and_cap(local_supervisor) -> None:
    plan = local_supervisor.plan("Look up MMR in the handbook, then code it, then tell me if it is worth it.", max_hops=2)
    assert len(plan.sequence) == len(plan.tasks) == 2 and "cut at max_hops=2" in plan.note


# ---------------------------------------------------------------- the analyst
def test_options_in_questions() -> None:
    assert options_in("Which is cheaper to run, Self-RAG or CRAG?") == ["Self-RAG", "CRAG"]
    assert options_in("Between a flat index and HNSW, which is easier?") == ["flat index", "HNSW"]
    assert options_in("pros and cons of caching") == []


def test_local_analyst_lines_up_each_option_and_says_what_it_cannot_do() -> None:
    docs = [Document("BM25 excels at exact part numbers. It needs no training.", metadata={"id": "HB-10"}),
            Document("Dense embeddings capture paraphrase but blur exact identifiers.", metadata={"id": "HB-03"})]
    analysis = LocalAnalyst(corpus="handbook").analyse("Is BM25 or dense retrieval better for part numbers?", documents=docs)
    assert analysis.options == ("BM25", "dense retrieval")
    assert "- BM25: BM25 excels at exact part numbers. (HB-10)" in analysis.text
    assert "(HB-03)" in analysis.text and analysis.text.endswith(LIMITS)


def test_local_analyst_with_nothing_found_says_so() -> None:
    text = LocalAnalyst(corpus="handbook").analyse("Is it worth it?").text
    assert "nothing to analyse" in text and "Ask for a handbook lookup first" in text


def test_printed_numbers_come_from_the_code_agents_output_block() -> None:
    code = AgentAnswer("code", "It prints.\n\n```python\nprint(3)\n```\nOutput:\n```\n0.42\nno digits\n```\nThe code ran.")
    assert printed_numbers([code]) == ["0.42"]


def test_llm_analyst_and_its_fallback() -> None:
    assert LLMAnalyst(scripted('{"analysis": "A wins."}')).analyse("A or B?").text == "A wins."
    bad = LLMAnalyst(scripted("no json")).analyse("A or B?")
    assert bad.fallback and "could not answer" in bad.text


# ---------------------------------------------------------------- the coder
def test_local_coder_uses_the_questions_own_code_first() -> None:
    draft = LocalCoder().draft("Run this:\n```python\nprint(2 + 2)\n```\nand also `print(1)`")
    assert (draft.code, draft.origin) == ("print(2 + 2)", "question")
    assert LocalCoder().draft("Please run `print(sum([1, 2]))`.").code == "print(sum([1, 2]))"


@pytest.mark.parametrize("question, code", [
    ("What is 0.75 * 384 + 12?", "print(0.75 * 384 + 12)"),
    ("Calculate log2(11) to four decimals.", "from math import log2\nprint(log2(11))"),
    ("Run print(sorted({'b': 2, 'a': 1})) and tell me the output.", "print(sorted({'b': 2, 'a': 1}))"),
    ("what is math.sqrt(2) * 3", "import math\nprint(math.sqrt(2) * 3)"),
    ("What's 2 to the power of 20?", None),
    ("compute the cosine of [1, 2] and [2, 1]", None),
])
def test_expressions_written_in_the_question(question, code) -> None:
    assert expression_in(question) == code


def test_local_coder_finds_the_best_matching_block_in_the_documents() -> None:
    docs = [Document("Bandits.\n```python\nimport random\nprint(random.random())\n```", metadata={"id": "HB-40"}),
            Document("Reciprocal rank fusion.\n```python\ndef rrf(r):\n    return r\nprint(rrf(1))\n```", metadata={"id": "HB-12"})]
    draft = LocalCoder("handbook").draft("Look up reciprocal rank fusion and run its example", documents=docs)
    assert (draft.origin, draft.source) == ("documents", "HB-12") and draft.code.startswith("def rrf")
    assert "defines rrf(r)" in draft.explanation and "the example from HB-12 that the handbook lookup found" in draft.explanation


def test_local_coder_without_code_says_what_it_cannot_do() -> None:
    draft = LocalCoder("handbook").draft("Simulate 500 rounds of Thompson sampling.")
    assert draft.code == "" and draft.explanation == no_code_message("handbook") and "a handbook example" in draft.explanation


def test_describe_code_and_code_blocks() -> None:
    assert describe_code("def f(a, b):\n    pass") == "It defines f(a, b), and prints nothing."
    assert describe_code("if (") == "It is not valid Python as written."
    assert code_blocks("```py\nx = 1\n```") == ["x = 1"]


def test_llm_coder_strips_fences_and_falls_back() -> None:
    fenced = AIMessage("", tool_calls=[{"name": "Program", "args": {"code": "```python\nprint(1)\n```"}, "id": "c1"}])
    draft = LLMCoder(scripted(fenced)).draft("q")
    assert (draft.code, draft.origin) == ("print(1)", "model")
    bad = LLMCoder(scripted("nope")).draft("q")
    assert bad.code == "" and bad.fallback


# ---------------------------------------------------------------- the aggregator
def test_local_aggregator_keeps_code_drops_repeats_and_names_failures() -> None:
    answers = [AgentAnswer("rag", "RRF adds 1/(k + rank) [1]. It uses k = 60."),
               AgentAnswer("code", "RRF adds 1/(k + rank).\n```python\nprint(1 / 61)\n```\nOutput:\n```\n0.016\n```", ok=False)]
    text = LocalAggregator(TITLES).combine("q", answers).text
    assert text.count("RRF adds") == 1 and "print(1 / 61)" in text and "0.016" in text
    assert "1. From the handbook (rag agent)" in text and text.endswith("could not do its part (see above).")
    assert LocalAggregator(TITLES).combine("q", answers[:1]).text == answers[0].text


def test_drop_repeats_never_touches_code() -> None:
    assert drop_repeats("```\nx = 1\n```", {"x = 1"}) == "```\nx = 1\n```"


def test_llm_aggregator_passes_one_answer_through_and_falls_back_on_garbage() -> None:
    model = scripted("garbage")
    one = LLMAggregator(model, fallback=LocalAggregator(TITLES)).combine("q", [AgentAnswer("rag", "only")])
    assert one.text == "only" and model.calls == []
    two = LLMAggregator(scripted("garbage"), fallback=LocalAggregator(TITLES)).combine(
        "q", [AgentAnswer("rag", "a b c."), AgentAnswer("code", "d e f.")])
    assert two.fallback and "1. From the handbook" in two.text


def test_findings_are_truncated_for_the_next_agent() -> None:
    assert truncate("x" * 30, 10) == "x" * 10 + " ..."
    assert format_findings([]) == "(no earlier agent has answered)"


# ---------------------------------------------------------------- small talk
@pytest.mark.parametrize("message, kind", [("hello", "greeting"), ("thanks a lot!", "thanks"), ("good night", "farewell"),
                                           ("are you a bot?", "about")])
def test_local_small_talk_replies_by_kind(message, kind) -> None:
    talk = LocalSmallTalk(HANDBOOK_TEAM.small_talk, HANDBOOK_TEAM.replies, HANDBOOK_TEAM.small_talk_fallback)
    assert talk.kind(message) == kind and talk.reply(message) == HANDBOOK_TEAM.replies[kind]
    with pytest.raises(ValueError, match="no reply"):
        LocalSmallTalk(HANDBOOK_TEAM.small_talk, {"greeting": "Hi"}, "small_talk")


def test_llm_small_talk_falls_back_on_a_failed_or_empty_reply() -> None:
    assert LLMSmallTalk(scripted("Hi there!"), "be brief", fallback=lambda q: "canned").reply("hey") == "Hi there!"
    assert LLMSmallTalk(scripted(ValueError("quota")), "be brief", fallback=lambda q: "canned").reply("hey") == "canned"
    assert LLMSmallTalk(scripted(""), "be brief", fallback=lambda q: "canned").reply("hey") == "canned"


def test_no_generic_role_names_the_handbook() -> None:
    """The agents' descriptions, titles and replies that name the handbook come from the domain: a second team
    with other words gets other words."""
    team = dataclasses.replace(HANDBOOK_TEAM, corpus="wiki", titles={**TITLES, "rag": "From the wiki"},
                               descriptions={**DESCRIPTIONS, "rag": "Looks things up in the wiki."})
    model = scripted("rag_agent")
    LLMSupervisor(model, team.descriptions).plan("q")
    prompt = model.calls[0]["messages"][0].content
    assert "- rag_agent: Looks things up in the wiki." in prompt and "handbook" not in prompt
    text = LocalAggregator(team.titles).combine("q", [AgentAnswer("rag", "a."), AgentAnswer("code", "b.")]).text
    assert text.startswith("1. From the wiki (rag agent)")
    assert "a wiki example" in LocalCoder(team.corpus).draft("Simulate it.").explanation
