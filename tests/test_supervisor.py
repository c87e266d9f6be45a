"""Supervisor graph: shape snapshot, every branch, the hop cap (a property test over any proposed sequence),
what each agent sees, validation, and the LLM roles on a scripted chat model (malformed output included)."""

from __future__ import annotations

from typing import Any, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langgraph.errors import GraphRecursionError

from ragkit.core.chat_models import scripted
from ragkit.domains.handbook.agents import HANDBOOK_TEAM
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.graphs.crag import build_crag_graph
from ragkit.graphs.supervisor import NO_RUNNER, build_supervisor_graph, rag_answer, supervisor_graph, worst_case_steps
from ragkit.roles.agent_protocols import AGENTS, AgentAnswer, Analysis, Plan
from ragkit.sandbox import python_runner
from tests.conftest import assert_snapshot

HANDBOOK_DOC = Document("Reciprocal rank fusion adds 1/(k + rank).\n\n```python\nprint(1 / 61)\n```",
                        metadata={"id": "HB-12", "title": "RRF"})


# ---------------------------------------------------------------- test doubles
class ScriptedSupervisor:
    """Returns whatever it is given (garbage included), or raises it."""

    def __init__(self, proposal: Any) -> None:
        self.proposal, self.calls = proposal, 0

    def plan(self, question: str, max_hops: int = 3) -> Any:
        self.calls += 1
        if isinstance(self.proposal, BaseException):
            raise self.proposal
        return self.proposal


class FakeRag:
    """A RAG graph stand-in: answers with one document, records the questions it was asked."""

    def __init__(self, output: Any = None, fail: bool = False) -> None:
        self.questions: list[str] = []
        self.output, self.fail = output, fail

    def invoke(self, state: dict, config: dict | None = None) -> dict:
        self.questions.append(state["question"])
        if self.fail:
            raise OSError("index offline")
        return self.output or {"answer": "RRF adds 1/(k + rank) [1].", "outcome": "answered", "reason": "verified",
                               "sources": [HANDBOOK_DOC], "citations": [1]}


class RecordingAnalyst:
    def __init__(self) -> None:
        self.seen: list[list[AgentAnswer]] = []

    def analyse(self, question: str, findings: Sequence[AgentAnswer] = (), documents: Sequence[Document] = ()) -> Analysis:
        self.seen.append(list(findings))
        return Analysis(f"analysed {len(findings)} answers and {len(documents)} documents")


class StaticSearch:
    def __init__(self) -> None:
        self.queries: list[str] = []

    def search_with_scores(self, query: str, k: int | None = None):
        self.queries.append(query)
        return [(Document("BM25 is lexical.", metadata={"id": "HB-10"}), 1.0)]


class RecordingRunner:
    """A code runner that records the code and runs it in the sandbox (or raises what it is given)."""

    def __init__(self, fail: BaseException | None = None, **limits: Any) -> None:
        self.codes: list[str] = []
        self.fail, self.run = fail, python_runner(**limits)

    def __call__(self, code: str) -> Any:
        self.codes.append(code)
        if self.fail is not None:
            raise self.fail
        return self.run(code)


def on_handbook(**options: Any) -> Any:
    """The supervisor over the handbook's search and team; ``options`` are what a test varies."""
    return build_supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM, **options)


def make_graph(proposal: Any = Plan(("rag",)), **kwargs: Any) -> tuple[Any, dict]:
    parts = {"supervisor": ScriptedSupervisor(proposal), "rag_graph": FakeRag(), "analyst": RecordingAnalyst(),
             "chitchat": lambda q: "Hello!", "retriever": StaticSearch(), "run_code": RecordingRunner(), "domain": HANDBOOK_TEAM}
    parts.update(kwargs)
    return build_supervisor_graph(**parts), parts


# ---------------------------------------------------------------- shape
def test_mermaid_snapshot() -> None:
    graph, _ = make_graph()
    assert_snapshot("supervisor.mmd", graph.get_graph().draw_mermaid())


def test_the_graph_builds_over_a_lazy_search_and_is_extendable() -> None:
    graph = build_supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM)  # the corpus is searched on first use (LazySearch)
    assert "rag_agent" in graph.get_graph().nodes
    uncompiled = supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM, rag_graph=FakeRag())
    uncompiled.add_node("extra", lambda state: {})
    assert "extra" in uncompiled.compile().get_graph().nodes


# ---------------------------------------------------------------- each branch
@pytest.mark.parametrize("agent", AGENTS)
def test_each_single_agent_route(agent) -> None:
    graph, parts = make_graph(Plan((agent,)))
    out = graph.invoke({"question": "What is RRF? Run `print(1)`."})
    assert out["path"] == ["check_question", "supervisor", f"{agent}_agent", "aggregator"]
    assert out["plan"] == [agent] and out["hops"] == 1 and out[f"{agent}_answer"] == out["answer"]


def test_the_local_supervisor_looks_up_the_team_domain_corpus_a_request_names() -> None:
    graph, _ = make_graph(supervisor=None)  # the builder's own LocalSupervisor, with the domain's corpus name
    out = graph.invoke({"question": "Write a function that follows exactly what the handbook describes."})
    assert out["plan"][0] == "rag" and "code" in out["plan"]


def test_a_three_hop_chain_passes_each_agent_the_earlier_answers() -> None:
    graph, parts = make_graph(Plan(("rag", "code", "analysis"), ("find RRF", "run its code", "judge it")))
    out = graph.invoke({"question": "Find RRF, run its example, then judge it."})
    assert out["path"] == ["check_question", "supervisor", "rag_agent", "next_hop", "code_agent", "next_hop",
                           "analysis_agent", "aggregator"]
    assert parts["rag_graph"].questions == ["RRF"]  # the rag agent searches with its task's subject ("find" frames it)
    assert parts["run_code"].codes == ["print(1 / 61)"]  # the block of the document the rag agent's result gave
    assert [a.agent for a in parts["analyst"].seen[0]] == ["rag", "code"]
    assert "0.01639344262295082" in out["code_answer"] and "HB-12" in out["code_answer"]  # the found block, run
    log = out["hop_log"]
    assert [h["agent"] for h in log] == ["rag", "code", "analysis"] and [h["task"] for h in log] == \
        ["find RRF", "run its code", "judge it"]
    assert [len(h["saw"]) for h in log] == [0, 1, 2] and all(h["seconds"] >= 0 for h in log)
    assert out["answer"].startswith("1. From the handbook (rag agent)") and "3. Analysis" in out["answer"]
    assert (out["outcome"], out["sources"], out["citations"]) == ("answered", [HANDBOOK_DOC], [1])
    assert out["reason"] == "done by: rag, code, analysis"


def test_earlier_answers_are_cut_before_the_next_agent_sees_them() -> None:
    rag = FakeRag({"answer": "word " * 500, "outcome": "answered", "sources": []})
    graph, parts = make_graph(Plan(("rag", "analysis")), rag_graph=rag)
    graph = build_supervisor_graph(**parts, previous_answer_chars=50)
    out = graph.invoke({"question": "q"})
    seen = out["hop_log"][1]["saw"][0][1]
    assert len(seen) <= 54 and seen.endswith(" ...") and len(out["rag_answer"]) > 2000  # the field keeps it all


def test_the_hop_cap_cuts_a_long_plan_and_a_run_can_lower_it() -> None:
    graph, _ = make_graph(Plan(("rag", "code", "rag", "code", "analysis")))
    assert graph.invoke({"question": "q"})["hops"] == 3
    out = graph.invoke({"question": "q", "max_hops": 1})
    assert out["plan"] == ["rag"] and out["path"].count("next_hop") == 0


def test_a_supervisor_that_raises_takes_the_default_agent() -> None:
    graph, _ = make_graph(RuntimeError("model down"))
    out = graph.invoke({"question": "q"})
    assert out["plan"] == ["rag"] and out["plan_fallback"] and "model down" in out["plan_note"]


def test_garbage_from_the_supervisor_is_normalised() -> None:
    graph, _ = make_graph(Plan(("rag_agent", "oracle", "rag", "Code")))  # type: ignore[arg-type]
    out = graph.invoke({"question": "q"})
    assert out["plan"] == ["rag", "code"] and out["dropped"] == ["oracle"]
    out = make_graph("not a plan")[0].invoke({"question": "q"})
    assert out["plan"] == ["rag"] and out["plan_fallback"]


def test_a_failing_rag_graph_is_an_answer_and_the_run_goes_on() -> None:
    graph, _ = make_graph(Plan(("rag", "analysis")), rag_graph=FakeRag(fail=True))
    out = graph.invoke({"question": "q"})
    assert "rag agent failed (OSError: index offline)" in out["rag_answer"] and out["path"][-1] == "aggregator"
    assert out["hop_log"][0]["ok"] is False and "could not do its part" in out["answer"]


def test_rag_answer_reads_only_the_result_fields() -> None:
    answered = rag_answer({"answer": "a [1]", "outcome": "answered", "sources": [HANDBOOK_DOC], "citations": [1],
                           "reason": "verified", "candidates": ["not read"], "generation": "not read"})
    assert (answered.text, answered.documents, answered.citations, answered.ok, answered.note) == \
        ("a [1]", (HANDBOOK_DOC,), (1,), True, "verified")
    refused = rag_answer({"answer": "No.", "outcome": "refused", "sources": [], "reason": "irrelevant"})
    assert not refused.ok and refused.documents == ()
    asked = rag_answer({"answer": "Which RRF?", "outcome": "asked_back", "sources": [HANDBOOK_DOC]})
    assert not asked.ok and asked.text == "The RAG graph asked back instead of answering: Which RRF?"
    assert not rag_answer({"answer": "a"}).ok  # no outcome: not a ragkit RAG result


def _rag_docs() -> list[Document]:
    return [HANDBOOK_DOC, Document("Thompson sampling keeps a Beta posterior per arm.", metadata={"id": "HB-40"})]


@pytest.mark.parametrize("name", ["self_rag", "crag"])
def test_self_rag_and_crag_as_the_rag_graph(name) -> None:
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.graphs.crag import build_crag_graph
    from ragkit.graphs.self_rag import build_self_rag_graph

    retriever = BM25Retriever.from_documents(_rag_docs())
    rag = build_crag_graph(retriever, max_clarifications=0) if name == "crag" else build_self_rag_graph(retriever)
    question = "How does reciprocal rank fusion combine rankings?"
    expected = rag.invoke({"question": question}, {"configurable": {"thread_id": "direct"}})
    graph, _ = make_graph(Plan(("rag",)), rag_graph=rag)
    out = graph.invoke({"question": question})
    assert out["path"] == ["check_question", "supervisor", "rag_agent", "aggregator"]
    assert out["rag_answer"] == expected["answer"] and out["answer"] == out["rag_answer"].strip()
    assert out["sources"] == expected["sources"] and out["citations"] == expected["citations"]
    assert out["outcome"] == expected["outcome"] and out["hop_log"][0]["ok"] == (expected["outcome"] == "answered")


def test_a_crag_subgraph_answers_and_its_threads_are_removed() -> None:
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.graphs.crag import build_crag_graph

    crag = build_crag_graph(BM25Retriever.from_documents(_rag_docs()), max_clarifications=0)
    graph, _ = make_graph(Plan(("rag",)), rag_graph=crag)
    out = graph.invoke({"question": "How does reciprocal rank fusion combine rankings?"})
    assert out["path"] == ["check_question", "supervisor", "rag_agent", "aggregator"] and out["rag_answer"]
    assert len(crag.checkpointer.storage) == 0  # the subgraph's thread was deleted after the hop


def test_the_analyst_alone_reads_background_passages_first() -> None:
    graph, parts = make_graph(Plan(("analysis",)))
    out = graph.invoke({"question": "Is BM25 a good first baseline?"})
    assert parts["retriever"].queries == ["Is BM25 a good first baseline?"]
    assert out["analysis_answer"].startswith("No earlier agent had found anything") and "1 documents" in out["analysis_answer"]


def test_the_code_agent_without_code_says_so_and_the_runner_is_not_called() -> None:
    graph, parts = make_graph(Plan(("code",)), rag_graph=FakeRag({"answer": "", "sources": [], "outcome": "refused"}))
    out = graph.invoke({"question": "Simulate a bandit."})
    assert parts["run_code"].codes == [] and "writes no new code" in out["code_answer"] and out["hop_log"][0]["ok"] is False


def test_the_code_agent_runs_code_only_through_its_runner_with_its_limits() -> None:
    runner = RecordingRunner(timeout_s=3.0)
    graph, _ = make_graph(Plan(("code",)), run_code=runner)
    out = graph.invoke({"question": "What is 6 * 7?"})
    assert runner.codes == ["print(6 * 7)"] and runner.run.keywords["timeout_s"] == 3.0
    assert "42" in out["code_answer"] and out["code_result"].status == "ok"


def test_without_a_runner_the_code_agent_says_so_and_runs_nothing() -> None:
    graph, _ = make_graph(Plan(("code", "chitchat")), run_code=None)
    out = graph.invoke({"question": "What is 6 * 7?"})
    assert out["code_answer"].endswith(NO_RUNNER) and "```python\nprint(6 * 7)\n```" in out["code_answer"]
    assert out["code_result"] is None and "42" not in out["code_answer"] and out["hop_log"][0]["ok"] is False
    assert "built without a code runner" in out["answer"] and "python_runner()" in out["answer"]
    with pytest.raises(TypeError, match="run_code must be a function"):
        on_handbook(rag_graph=FakeRag(), run_code="python")


def test_a_runner_that_cannot_run_is_reported() -> None:
    from ragkit.sandbox import SandboxUnavailable

    runner = RecordingRunner(fail=SandboxUnavailable("the sandbox needs a POSIX system (Linux or macOS)"))
    out = make_graph(Plan(("code", "chitchat")), run_code=runner)[0].invoke({"question": "What is 6 * 7?"})
    assert "could not run it: the sandbox needs a POSIX system" in out["code_answer"] and out["path"][-1] == "aggregator"


def test_sandbox_limits_are_checked_when_the_runner_is_made() -> None:
    assert python_runner(memory_mb=128).keywords["memory_mb"] == 128
    with pytest.raises(ValueError, match="unknown sandbox option"):
        python_runner(allow_network=True)


# ---------------------------------------------------------------- input policy and language
@pytest.mark.parametrize("question", ["", "   ", None])
def test_an_empty_question_is_rejected_before_any_agent(question) -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError):
        graph.invoke({"question": question})
    assert parts["supervisor"].calls == 0


def test_an_oversized_question_and_bad_caps_are_rejected() -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError, match="max_question_chars"):
        graph.invoke({"question": "x" * 5000})
    for cap in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="max_hops"):
            graph.invoke({"question": "q", "max_hops": cap})
    with pytest.raises(ValueError, match="recursion_limit"):
        graph.invoke({"question": "q", "max_hops": 20}, {"recursion_limit": 25})  # 43 steps > 25
    with pytest.raises(ValueError, match="max_hops"):
        on_handbook(max_hops=0)
    assert parts["supervisor"].calls == 0


def test_a_question_the_offline_models_cannot_read_is_told_so() -> None:
    graph, parts = make_graph()
    out = graph.invoke({"question": "디저트 중에 견과류가 없는 것은?"})
    assert out["path"] == ["check_question", "unsupported_language"] and "Korean" in out["answer"]
    assert (out["outcome"], out["reason"]) == ("refused", "language") and parts["supervisor"].calls == 0
    graph = on_handbook(chat_model=scripted("chitchat_agent", "안녕하세요!"), rag_graph=FakeRag())
    assert graph.invoke({"question": "안녕하세요"})["answer"] == "안녕하세요!"  # a chat model reads it


# ---------------------------------------------------------------- the cap, for any proposal
def test_the_worst_case_takes_exactly_worst_case_steps() -> None:
    for cap in range(1, 6):
        plan = Plan(tuple(("rag", "code")[i % 2] for i in range(cap)))  # type: ignore[arg-type]
        graph, _ = make_graph(plan, rag_graph=FakeRag({"answer": "no code here", "sources": [], "outcome": "answered"}))
        out = graph.invoke({"question": "q", "max_hops": cap}, {"recursion_limit": worst_case_steps(cap)})
        assert len(out["path"]) + 1 == worst_case_steps(cap) and out["hops"] == cap
        with pytest.raises(ValueError, match="recursion_limit"):  # the bound is tight
            graph.invoke({"question": "q", "max_hops": cap}, {"recursion_limit": worst_case_steps(cap) - 1})


NAMES = st.one_of(st.sampled_from([*AGENTS, *(f"{a}_agent" for a in AGENTS), "FINISH", "supervisor", "", "rag "]),
                  st.text(max_size=8), st.integers(), st.none())
PROPOSALS = st.one_of(
    st.builds(lambda s, t: Plan(tuple(s), tuple(t)), st.lists(NAMES, max_size=12), st.lists(st.text(max_size=5), max_size=4)),
    st.lists(NAMES, max_size=12).map(lambda s: type("Odd", (), {"sequence": s})()),  # not a Plan at all
    st.sampled_from([None, "rag_agent, code_agent", 42, ValueError("bad")]),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(proposal=PROPOSALS, cap=st.integers(min_value=1, max_value=6))
def test_any_proposed_sequence_ends_within_max_hops(proposal, cap) -> None:
    graph, parts = make_graph(proposal, rag_graph=FakeRag({"answer": "nothing to run", "sources": [], "outcome": "answered"}))
    try:
        out = graph.invoke({"question": "q", "max_hops": cap}, {"recursion_limit": worst_case_steps(cap)})
    except GraphRecursionError:  # pragma: no cover - the property under test
        pytest.fail("the run reached the recursion limit")
    agents_run = [p for p in out["path"] if p.endswith("_agent")]
    assert 1 <= len(agents_run) == out["hops"] == len(out["plan"]) <= cap
    assert agents_run == [f"{a}_agent" for a in out["plan"]] and out["path"][-1] == "aggregator"
    assert all(a != b for a, b in zip(out["plan"], out["plan"][1:]))
    assert len(out["path"]) < worst_case_steps(cap)


# ---------------------------------------------------------------- LLM roles on a scripted chat model
def test_llm_roles_on_a_scripted_model_happy_path() -> None:
    model = scripted(
        "rag_agent, code_agent, analysis_agent",                       # supervisor (comma-separated names)
        {"code": "print(round(1 / 61, 4))", "explanation": "RRF's first-rank term."},  # coder
        {"analysis": "The term is small, so k=60 flattens rank differences."},          # analyst
        {"answer": "RRF adds 1/(k + rank) [1]; the code printed 0.0164; k=60 flattens ranks."},  # aggregator
    )
    graph = on_handbook(chat_model=model, rag_graph=FakeRag(), run_code=python_runner())
    out = graph.invoke({"question": "Find RRF, compute its first term, judge k=60."})
    assert out["plan"] == ["rag", "code", "analysis"] and "0.0164" in out["code_answer"]
    assert out["answer"].endswith("k=60 flattens ranks.") and not out["aggregate_fallback"]
    coder_prompt = model.calls[1]["messages"][0].content
    assert "[rag agent]\nRRF adds 1/(k + rank) [1]." in coder_prompt  # the coder saw the rag agent's answer
    assert len(model.calls) == 4


def test_the_supervisor_runs_on_judge_model_and_the_other_roles_on_chat_model() -> None:
    writer = scripted({"code": "print(1)", "explanation": "One."}, {"answer": "merged"}, cycle=True)
    judge = scripted("code_agent, chitchat_agent")
    graph = on_handbook(chat_model=writer, judge_model=judge, rag_graph=FakeRag(), run_code=python_runner())
    out = graph.invoke({"question": "Print one, then say hi."})
    assert out["plan"] == ["code", "chitchat"] and len(judge.calls) == 1 and "supervisor" in judge.calls[0]["messages"][0].content
    assert len(writer.calls) == 3  # coder, chitchat reply, aggregator


def test_malformed_llm_output_takes_each_roles_safe_default() -> None:
    model = scripted("I would ask the oracle", cycle=True)  # unusable for every role
    out = on_handbook(chat_model=model, rag_graph=FakeRag()).invoke({"question": "q"})
    assert out["plan"] == ["rag"] and out["plan_fallback"] and out["answer"] == out["rag_answer"]
    model = scripted("code_agent, analysis_agent", "not json", "not json", "not json")
    out = on_handbook(chat_model=model, rag_graph=FakeRag()).invoke({"question": "q"})
    assert out["plan"] == ["code", "analysis"] and "gave no usable program" in out["code_answer"]
    assert "could not answer" in out["analysis_answer"] and out["aggregate_fallback"]
    assert out["answer"].startswith("1. Code, run in the sandbox (code agent)")


def test_the_structured_supervisor_plugs_in() -> None:
    from ragkit.domains.handbook.agents import DESCRIPTIONS
    from ragkit.roles.llm_agents import LLMStructuredSupervisor

    supervisor = LLMStructuredSupervisor(scripted({"agents": ["chitchat_agent"]}), DESCRIPTIONS)
    out = on_handbook(supervisor=supervisor, rag_graph=FakeRag(), small_talk=lambda q: "Hi!").invoke({"question": "hey"})
    assert out["plan"] == ["chitchat"] and out["answer"] == "Hi!"


# ---------------------------------------------------------------- the default local graph, end to end
def test_default_local_graph_plans_a_chain_and_runs_the_handbook_example() -> None:
    # the default CRAG over the handbook with the refusal dial at 0.0: the default bar (ragkit.defaults.REFUSAL,
    # tuned on SQuAD) refuses this task (benchmarks/refusal/README.md, "Beyond the tune split")
    graph = on_handbook(run_code=python_runner(), rag_graph=build_crag_graph(handbook_search(), max_clarifications=0, refuse_below=0.0))
    out = graph.invoke({"question": "Look up reciprocal rank fusion in the handbook and then run its example code."})
    assert out["plan"] == ["rag", "code"] and out["code_result"] is not None and out["code_result"].status == "ok"
    assert "['a', 'c', 'b', 'd']" in out["code_answer"] and "HB-12" in out["code_answer"]
    assert graph.invoke({"question": "thanks, bye!"})["plan"] == ["chitchat"]


def test_the_state_shows_the_plans_weighed_for_a_one_agent_and_a_chain_question() -> None:
    """Side by side (questions written for this test): the plans the local supervisor weighed are in the state,
    the chosen one first, with its evidence, hop cost and score, and the note says why the longer plan was or
    was not earned."""
    graph = build_supervisor_graph(domain=HANDBOOK_TEAM, rag_graph=FakeRag(), retriever=StaticSearch())
    one = graph.invoke({"question": "Explain how HNSW builds its graph and what efSearch controls."})
    chain = graph.invoke({"question": "Look up the handbook's definition of MRR, then write a function for it."})
    assert one["plan"] == ["rag"] and chain["plan"] == ["rag", "code"]
    for out in (one, chain):
        first, *others = out["plan_candidates"]
        assert list(first.sequence) == out["plan"] and list(first.tasks) == out["tasks"] and others
        assert first.score == round(first.evidence - first.cost, 4) and all(first.score >= c.score for c in others)
    assert "; not earned: " in one["plan_note"] and any(len(c.sequence) == 2 for c in one["plan_candidates"])
    assert "its extra hop is earned over " in chain["plan_note"]
    assert any(c.sequence in (("rag",), ("code",)) for c in chain["plan_candidates"][1:])
    scripted_plan = make_graph(Plan(("rag",)))[0].invoke({"question": "q"})
    assert scripted_plan["plan_candidates"] == []  # a supervisor that weighs nothing shows nothing


# ---------------------------------------------------------------- the rag agent asks about the subject, not the corpus
@pytest.mark.parametrize("task, subject", [
    ("What does the manual say about the frobnicator?", "the frobnicator?"),
    ("what do the docs tell us about spline caching", "spline caching"),
    ("Look up spline caching in the manual", "spline caching"),
    ("Find the manual's example of a frobnicator call.", "example of a frobnicator call."),
    ("check the manual for the retry policy", "the retry policy"),
    ("How are retries counted, according to the manual?", "How are retries counted?"),
    ("Look up what the knowledge base says about quotas.", "quotas."),
])
def test_the_rag_agent_drops_the_words_that_only_name_the_corpus(task, subject) -> None:
    """Constructed phrasings with a made-up corpus name ("manual") and generic ones (docs, knowledge base)."""
    from ragkit.offline.agents import search_subject

    assert search_subject(task, ["manual"]) == subject


@pytest.mark.parametrize("task", ["What is the frobnicator?", "How do I find duplicates in a list?",
                                  "What does the manual say?", "Define nDCG."])
def test_a_task_without_framing_is_asked_as_it_is(task) -> None:
    from ragkit.offline.agents import search_subject

    assert search_subject(task, ["manual"]) == task


def test_framing_words_do_not_turn_an_answer_into_a_refusal() -> None:
    """A made-up corpus: 'What does the manual say about X?' is answered from the same section as 'What is X?'
    (before, the words 'manual' and 'say' counted as the question's key terms, no passage held them, and CRAG's
    grader refused: the handbook's 'What does the handbook say about MMR?')."""
    from dataclasses import replace

    from ragkit.core.bm25 import BM25Retriever
    from ragkit.domains.handbook.agents import HANDBOOK_TEAM
    from ragkit.graphs.crag import build_crag_graph

    docs = [Document("Frobnicator cache. The frobnicator cache keeps the last 64 splines in memory and evicts "
                     "the least recently used one.", metadata={"id": "M-1", "title": "Frobnicator cache"}),
            Document("Quota policy. Each tenant may send 100 requests per minute; the quota resets every minute.",
                     metadata={"id": "M-2", "title": "Quota policy"}),
            Document("Retry policy. A failed request is retried three times with exponential backoff.",
                     metadata={"id": "M-3", "title": "Retry policy"})]
    retriever = BM25Retriever.from_documents(docs)
    rag = build_crag_graph(retriever, max_clarifications=0)
    graph = build_supervisor_graph(retriever, rag_graph=rag, supervisor=ScriptedSupervisor(Plan(("rag",))),
                                   domain=replace(HANDBOOK_TEAM, corpus="manual"))
    for subject, section in [("the frobnicator cache", "M-1"), ("the quota policy", "M-2")]:
        plain = graph.invoke({"question": f"What is {subject}?"})
        framed = graph.invoke({"question": f"What does the manual say about {subject}?"})
        assert plain["outcome"] == framed["outcome"] == "answered", framed["reason"]
        assert [d.metadata["id"] for d in framed["sources"]][:1] == [section] == [d.metadata["id"] for d in plain["sources"]][:1]
        assert framed["rag_question"] == f"{subject}?"
