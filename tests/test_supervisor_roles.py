"""The supervisor graph's roles: supervisor (local, LLM, structured), clause splitting, the local supervisor's plan
costs (constructed cases and a property test against brute force), analyst, coder, aggregator, small talk."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.messages import AIMessage

from ragkit.core.chat_models import scripted
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import Clause, code_blocks, split_clauses
from ragkit.domains.handbook.agents import CONTEXT, DESCRIPTIONS, HANDBOOK_TEAM, SUPERVISOR_ROUTES, TITLES
from ragkit.goldsets import load_goldset
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
from ragkit.offline.small_talk import LocalSmallTalk
from ragkit.offline.supervisor import (
    LocalSupervisor,
    best_labellings,
    choose_plan,
    head,
    lookup_first,
    marked_boundaries,
    plan_from_labels,
    reorder,
)
from ragkit.roles.agent_protocols import AGENTS, AgentAnswer, Plan, agent_name, normalise_sequence, truncate
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


@pytest.mark.parametrize("question, texts", [
    ("(1) check the definition (2) implement it (3) judge the result",
     ["check the definition", "implement it", "judge the result"]),
    ("1) find the defaults (k, b) 2) write a scorer", ["find the defaults (k, b)", "write a scorer"]),
    ("1. Look it up. 2. Code it.", ["Look it up", "Code it"]),
    ("It costs 2. Run f(1) on it.", ["It costs 2", "Run f(1) on it"]),  # a number, not a list: nothing dropped
])
def test_numbered_steps_are_clauses_and_their_numbers_are_dropped(question, texts) -> None:
    clauses = split_clauses(question)
    assert [c.text for c in clauses] == texts
    assert all(marked_boundaries(question, clauses))  # each number marks a new step


def test_a_back_reference_is_a_joiner_and_the_written_order_holds() -> None:
    clauses = split_clauses("Look up the stop list, and based on that, is a long one a good idea?")
    assert [(c.text, c.order) for c in clauses] == [("Look up the stop list", ""), ("is a long one a good idea", "")]
    assert marked_boundaries("Look up the stop list, and based on that, is a long one a good idea?", clauses) == [True, True]
    # a prerequisite with words of its own is still one, and comes first
    assert [c.text for c in reorder(split_clauses("Write the code, based on the handbook's formula."))] == [
        "based on the handbook's formula", "Write the code"]


def test_a_piece_of_function_words_joins_the_next() -> None:
    assert [c.text for c in split_clauses("encode the texts twice, with and without a cache, then judge it")] == [
        "encode the texts twice", "with and without a cache", "judge it"]


def test_a_request_is_headed_by_its_verb_after_politeness() -> None:
    assert head("pls implement nDCG") == head("kindly implement nDCG") == head("implement nDCG") == "implement"


def test_a_goal_question_asked_first_is_worked_on_where_it_is_restated() -> None:
    question = "Which k1 is best for my data? Use the handbook's formula, code it, then recommend one."
    clauses = split_clauses(question)
    plan = plan_from_labels(question, clauses, ["analysis", "rag", "code", "analysis"], [{}] * 4, 3)
    assert plan.sequence == ("rag", "code", "analysis") and "Which k1 is best" in plan.tasks[-1]
    # not restated: the question is the first piece of work
    assert plan_from_labels(question, clauses, ["analysis", "rag", "code", "code"], [{}] * 4, 3).sequence == (
        "analysis", "rag", "code")
    # no question first: a repeat is a step of its own ("look it up, run it, then look up what the output means")
    said = "Look up the example, run it, then find what the output means."
    assert plan_from_labels(said, split_clauses(said), ["rag", "code", "rag"], [{}] * 3, 3).sequence == (
        "rag", "code", "rag")


def test_a_part_that_names_the_corpus_gets_a_lookup_first() -> None:
    question = "Summarise what the handbook says about splits, then judge my test set"
    clauses = split_clauses(question)
    scores = [{"rag": 0.3, "analysis": 0.6, "code": 0.1}, {"rag": 0.1, "analysis": 0.7, "code": 0.1}]
    assert choose_plan(question, clauses, scores, 0.2, 3).sequence == ("analysis",)
    plan = choose_plan(question, clauses, scores, 0.2, 3, corpus="handbook")
    assert plan.sequence == ("rag", "analysis") and "names the corpus" in plan.note
    assert plan.tasks[0] == plan.tasks[1]  # the lookup searches for what the part asks about
    # a lookup earlier in the plan serves it; small talk and other corpora need none
    assert lookup_first(Plan(("rag", "code", "analysis"), ("a", "b", "what the handbook says")), "handbook", 3).sequence \
        == ("rag", "code", "analysis")
    assert lookup_first(Plan(("chitchat",), ("thanks for the handbook",)), "handbook", 3).sequence == ("chitchat",)
    assert lookup_first(Plan(("code",), ("follow the manual",)), "handbook", 3).sequence == ("code",)
    # the lookup can push the last hop past the cap, and the note says so
    cut = lookup_first(Plan(("code", "analysis", "code"), ("a", "per the handbook", "c")), "handbook", 3)
    assert cut.sequence == ("code", "rag", "analysis") and "max_hops=3" in cut.note


@pytest.mark.parametrize("question, order", [
    ("Implement it, after reading the section.", ["reading the section", "Implement it"]),
    ("Is it any good? Check the handbook first.", ["Check the handbook", "Is it any good"]),
    ("Before you write it, look it up.", ["look it up", "you write it"]),
    ("Look it up and then write it", ["Look it up", "write it"]),
])
def test_order_marks_put_clauses_in_the_order_of_the_work(question, order) -> None:
    assert [c.text for c in reorder(split_clauses(question))] == order


def test_context_parts_join_their_neighbour_and_context_is_never_a_step() -> None:
    clauses = [Clause("My corpus has 2,000 chunks", "My corpus has 2,000 chunks."), Clause("is a flat index enough", "")]
    scores = [{"rag": 0.2, "analysis": 0.3, CONTEXT: 0.6}, {"rag": 0.3, "analysis": 0.5, CONTEXT: 0.1}]
    plan = choose_plan("My corpus has 2,000 chunks. is a flat index enough", clauses, scores, hop_cost=0.0, max_hops=3)
    assert plan.sequence == ("analysis",) and plan.tasks == ("My corpus has 2,000 chunks is a flat index enough",)
    assert choose_plan("q", clauses[:1], scores[:1], 0.0, 3).sequence == ("analysis",)  # best agent, never "context"


# ---------------------------------------------------------------- a plan is a hypothesis with a cost
@pytest.mark.parametrize("question, marks", [
    ("Look up BM25, implement it, and then tell me whether it is good.", [True, True, True]),  # a series ending in "then"
    ("Look up BM25, implement it and tell me whether it is good.", [True, False, False]),
    ("Find the formula. Code it -> judge it", [True, True, True]),
    ("Using the definition, write a function and a test", [True, True, False]),
    ("Write a parser that splits, lower-cases and stems", [True, False, False]),
])
def test_the_wording_marks_where_a_new_step_starts(question, marks) -> None:
    assert marked_boundaries(question, split_clauses(question)) == marks


def test_a_second_agent_must_be_earned_where_the_wording_marks_no_step() -> None:
    """A part that another agent serves a little better: no hop after a comma, a hop after "then"; a part that
    the first agent cannot serve earns its hop after a comma too. The reason is in the note."""
    weak = [{"code": 0.60, "rag": 0.30}, {"code": 0.30, "rag": 0.40}]
    comma = [Clause("write a tokenizer", "write a tokenizer,"), Clause("that stems words", "that stems words")]
    then = [comma[0], Clause("look up stemming", "then look up stemming")]
    one = choose_plan("write a tokenizer, that stems words", comma, weak, hop_cost=0.2, max_hops=3)
    assert one.sequence == ("code",) and one.tasks == ("write a tokenizer that stems words",)
    assert [c.sequence for c in one.candidates][:2] == [("code",), ("code", "rag")]
    assert one.candidates[1].cost == 0.2 and one.candidates[1].score < one.candidates[0].score
    assert one.note.startswith("chose code 0.90") and "not earned: code -> rag 0.80" in one.note
    assert choose_plan("write a tokenizer, then look up stemming", then, weak, 0.2, 3).sequence == ("code", "rag")
    strong = [weak[0], {"code": 0.10, "rag": 0.70}]
    two = choose_plan("write a tokenizer, that stems words", comma, strong, 0.2, 3)
    assert two.sequence == ("code", "rag") and "its extra hop is earned over rag 1.00" in two.note


LABELS = ("rag", "code", "analysis", "chitchat", CONTEXT)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(*[st.integers(0, 20)] * len(LABELS)), min_size=1, max_size=4),
       marks=st.lists(st.booleans(), min_size=4, max_size=4), cost=st.sampled_from([0.0, 0.1, 0.3]),
       cap=st.integers(min_value=1, max_value=3))
def test_the_planner_finds_the_best_labelling_and_keeps_the_cap(rows, marks, cost, cap) -> None:
    """Against brute force over every labelling of up to four parts: the dynamic programme's best net score is
    the true best; the chosen plan is the first candidate, scores the most, has no repeat in a row and at most
    ``max_hops`` agents."""
    scores = [dict(zip(LABELS, (v / 20 for v in row))) for row in rows]
    marked = [True, *marks[1:len(rows)]]

    def net(labels: tuple[str, ...]) -> float:
        total, agent = sum(s[label] for s, label in zip(scores, labels)), ""
        for label, mark in zip(labels, marked):
            if label in AGENTS and label not in ("chitchat", agent):
                total -= cost if agent and not mark else 0.0
                agent = label
        return total

    brute = max(net(labels) for labels in itertools.product(LABELS, repeat=len(rows)))
    assert max(e - c for e, c, _ in best_labellings(scores, marked, cost)) == pytest.approx(brute)
    clauses = [Clause(f"part {i}", f"part {i}" + ("." if i + 1 < len(rows) and marked[i + 1] else ",")) for i in range(len(rows))]
    plan = choose_plan(" ".join(c.raw for c in clauses), clauses, scores, cost, cap)
    assert plan.candidates[0].sequence == plan.sequence and 1 <= len(plan.sequence) <= cap
    assert plan.candidates[0].score == max(c.score for c in plan.candidates)
    assert all(a != b for a, b in zip(plan.sequence, plan.sequence[1:])) and len(plan.tasks) == len(plan.sequence)


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


@pytest.mark.parametrize("question, agent", [
    # written for this test (not from the gold set): one agent's request cut into several clauses
    ("Implement BM25 scoring in pure Python, with k1 and b as arguments and a docstring.", "code"),
    ("Write a function that takes a list of scores, scales them to [0, 1], and returns the three largest.", "code"),
    ("Compute the cosine similarity of [1, 2, 3] and [3, 2, 1], rounded to three decimals.", "code"),
    ("Explain how HNSW builds its graph and what efSearch controls.", "rag"),
    ("Hi there! Could you tell me what a reducer is in LangGraph?", "rag"),
    ("My corpus has 500 PDFs and users ask short questions; should I use BM25 or dense retrieval?", "analysis"),
    ("Is a reranker worth it when my latency budget is 50 ms and the corpus is small?", "analysis"),
    ("Thanks a lot, see you tomorrow!", "chitchat"),
])
def test_a_question_for_one_agent_stays_one_agent(local_supervisor, question, agent) -> None:
    plan = local_supervisor.plan(question)
    assert plan.sequence == (agent,), plan.note
    assert any(len(c.sequence) > 1 for c in plan.candidates) or len(split_clauses(question)) == 1


@pytest.mark.parametrize("question, sequence", [
    ("Look up the handbook's definition of MRR, then write a function for it.", ("rag", "code")),
    ("Compute recall@3 for my ranking, then interpret the number.", ("code", "analysis")),
    ("Before you implement the splitter, read the chunking section.", ("rag", "code")),
    ("Decide whether my small corpus needs reranking, then look up how the handbook's reranker works.", ("analysis", "rag")),
])
def test_a_chain_keeps_both_agents_in_order(local_supervisor, question, sequence) -> None:
    plan = local_supervisor.plan(question)
    assert plan.sequence == sequence, plan.note
    assert "its extra hop is earned over" in plan.note and plan.candidates[0].score > plan.candidates[1].score


def test_the_route_examples_are_not_copied_from_the_gold_set() -> None:
    """No example (lower-cased) is a gold question of the routing, tuning or fresh set, and none is within MiniLM
    cosine 0.9 of one."""
    questions = [item["question"] for name in ("supervisor_routing.json", "supervisor_routing_tune.json",
                                               "supervisor_routing_fresh.json")
                 for split in load_goldset(name)[0].values() for item in split]
    examples = [text for spec in SUPERVISOR_ROUTES for text in (spec.description, *spec.examples)]
    assert not {e.strip().lower() for e in examples} & {q.strip().lower() for q in questions}
    embedder = load_embedder()
    assert float(np.max(embed(embedder, examples) @ embed(embedder, questions).T)) < 0.9


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
