"""The CRAG graph: every verdict path, the caps on its loops, the interrupt, fail-soft judging, the verifier retry."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langgraph.types import Command

from ragkit.core.nlp import same_query, supporting_documents
from ragkit.core.threads import thread
from ragkit.graphs.crag import (
    REFUSALS,
    build_crag_graph,
    paused_question,
    resume_crag,
    run_crag,
    worst_case_steps,
)
from ragkit.roles.judge_protocols import Judgement
from ragkit.roles.protocols import Answer, Groundedness
from tests.conftest import assert_snapshot

SNAPSHOT = Path(__file__).parent / "snapshots" / "crag.mmd"
DOCS = [Document(f"passage {i} about topic {i}.", metadata={"id": f"d{i}", "title": f"T{i}"}) for i in range(6)]


# ---------------------------------------------------------------- test doubles (follow the role protocols)
class FakeRetriever:
    def __init__(self, docs=DOCS):
        self.docs, self.queries = list(docs), []

    def search_with_scores(self, query, k):
        self.queries.append(query)
        return [(d, 1.0 - i / 10) for i, d in enumerate(self.docs[:k])]


class ScriptedJudge:
    """Returns the scripted judgements in order (the last one repeats); raises scripted exceptions."""

    def __init__(self, *script):
        self.script, self.calls = list(script), []

    def judge(self, question, documents):
        self.calls.append((question, list(documents)))
        out = self.script[min(len(self.calls), len(self.script)) - 1]
        if isinstance(out, BaseException):
            raise out
        return out


class FakeWriter:
    def __init__(self, *answers):
        self.answers, self.calls = list(answers) or [Answer("Topic zero is described [1].", (1,))], []

    def write(self, question, documents):
        self.calls.append((question, list(documents)))
        return self.answers[min(len(self.calls), len(self.answers)) - 1]


class FakeVerifier:
    def __init__(self, *results):
        self.results, self.calls = list(results) or [Groundedness(True)], []

    def check(self, documents, answer):
        self.calls.append((list(documents), answer))
        return self.results[min(len(self.calls), len(self.results)) - 1]


class FakeRewriter:
    def __init__(self, text="rewritten query"):
        self.text, self.calls = text, 0

    def rewrite(self, question, documents=()):
        self.calls += 1
        return self.text


def make(judge, writer=None, verifier=None, rewriter=None, retriever=None, **kw):
    roles = dict(retriever=retriever or FakeRetriever(), judge=judge, writer=writer or FakeWriter(),
                 verifier=verifier or FakeVerifier(), rewriter=rewriter or FakeRewriter())
    return build_crag_graph(**roles, **kw), roles


# ---------------------------------------------------------------- shape
def test_graph_shape_matches_the_mermaid_snapshot():
    graph, _ = make(ScriptedJudge(Judgement("sufficient", keep=(0,))))
    assert_snapshot("crag.mmd", graph.get_graph().draw_mermaid())


# ---------------------------------------------------------------- the four verdicts
def test_sufficient_writes_only_from_the_kept_documents_and_verifies():
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(2, 0))))
    out = run_crag(graph, "  What is   topic two? ", "t")
    assert out["path"] == ["refine", "retrieve", "judge", "write", "verify", "finish"]
    assert out["outcome"] == "answered" and out["answer"] == "Topic zero is described [1]."
    assert [d.metadata["id"] for d in roles["writer"].calls[0][1]] == ["d2", "d0"]
    assert roles["writer"].calls[0][0] == "What is topic two?"  # refine tidied the spacing
    docs, answer = roles["verifier"].calls[0]  # the verifier sees sources + answer, nothing else
    assert [d.metadata["id"] for d in docs] == ["d2", "d0"] and answer == out["answer"]


def test_irrelevant_refuses_saying_the_knowledge_base_does_not_cover_it():
    graph, roles = make(ScriptedJudge(Judgement("irrelevant")))
    out = run_crag(graph, "Who won the 1998 World Cup?", "t")
    assert out["path"] == ["refine", "retrieve", "judge", "refuse"]
    assert out["refusal"] == "irrelevant" and "does not cover" in out["answer"]
    assert roles["writer"].calls == []


def test_insufficient_searches_again_with_the_judges_corrected_query():
    judge = ScriptedJudge(Judgement("insufficient", corrected_query="topic three details"),
                          Judgement("sufficient", keep=(1,)))
    graph, roles = make(judge)
    out = run_crag(graph, "What about topic three?", "t")
    assert roles["retriever"].queries == ["What about topic three?", "topic three details"]
    assert out["path"] == ["refine", "retrieve", "judge", "correct", "retrieve", "judge", "write", "verify", "finish"]
    assert roles["rewriter"].calls == 0  # the judge's own correction was used


def test_insufficient_without_a_correction_asks_the_rewriter():
    graph, roles = make(ScriptedJudge(Judgement("insufficient"), Judgement("sufficient", keep=(0,))))
    run_crag(graph, "What about topic three?", "t")
    assert roles["rewriter"].calls == 1 and roles["retriever"].queries[-1] == "rewritten query"


def test_corrective_loop_is_capped_at_two_re_searches():
    queries = iter(f"new query {i}" for i in range(10))
    judge = ScriptedJudge(*[Judgement("insufficient", corrected_query=next(queries)) for _ in range(10)])
    graph, roles = make(judge)
    out = run_crag(graph, "What about topic three?", "t")
    assert len(roles["retriever"].queries) == 3  # the first search + 2 corrections
    assert out["corrections"] == 2 and out["outcome"] == "refused" and out["refusal"] == "insufficient"
    assert out["answer"] == REFUSALS["insufficient"]


def test_corrective_loop_stops_when_the_corrected_query_repeats():
    judge = ScriptedJudge(Judgement("insufficient", corrected_query="WHAT about topic three"))
    graph, roles = make(judge)
    out = run_crag(graph, "What about topic three?", "t")
    assert roles["retriever"].queries == ["What about topic three?"]
    assert out["stalled"] and out["path"][-2:] == ["correct", "refuse"]


def test_a_stalled_search_goes_on_with_what_the_judge_kept():
    judge = ScriptedJudge(Judgement("insufficient", keep=(3,), corrected_query="q"),
                          Judgement("insufficient", keep=(3,), corrected_query="q"))
    graph, roles = make(judge)
    out = run_crag(graph, "q2", "t")
    assert out["outcome"] == "answered" and [d.metadata["id"] for d in roles["writer"].calls[0][1]] == ["d3"]


# ---------------------------------------------------------------- ambiguous: interrupt and resume
def test_ambiguous_pauses_and_resumes_with_the_clarification_merged_in():
    judge = ScriptedJudge(Judgement("ambiguous", clarifying_question="Which topic do you mean?"),
                          Judgement("sufficient", keep=(0,)))
    graph, roles = make(judge)
    out = run_crag(graph, "When did it start?", "amb")
    assert out["__interrupt__"][0].value["clarifying_question"] == "Which topic do you mean?"
    assert paused_question(graph, "amb") == "Which topic do you mean?"
    assert roles["writer"].calls == []
    out = resume_crag(graph, "  topic zero ", "amb")
    assert out["outcome"] == "answered" and out["clarifications"] == ["topic zero"]
    assert judge.calls[1][0] == "When did it start? (topic zero)"
    assert roles["retriever"].queries[-1] == "When did it start? (topic zero)"
    assert paused_question(graph, "amb") is None


def test_raw_command_resume_works_too():
    graph, _ = make(ScriptedJudge(Judgement("ambiguous"), Judgement("sufficient", keep=(0,))))
    graph.invoke({"question": "When did it start?"}, thread("raw"))
    assert graph.invoke(Command(resume="topic one"), thread("raw"))["outcome"] == "answered"


def test_still_ambiguous_after_the_clarification_cap_refuses_instead_of_asking_forever():
    graph, _ = make(ScriptedJudge(Judgement("ambiguous")))
    run_crag(graph, "When did it start?", "a2")
    out = resume_crag(graph, "the other one", "a2")
    assert "__interrupt__" not in out and out["refusal"] == "ambiguous"


def test_resume_errors_when_not_paused_or_given_a_bad_payload():
    graph, _ = make(ScriptedJudge(Judgement("ambiguous"), Judgement("sufficient", keep=(0,))))
    with pytest.raises(RuntimeError, match="not waiting"):
        resume_crag(graph, "anything", "never-started")
    run_crag(graph, "When did it start?", "bad")
    with pytest.raises(TypeError, match="non-empty string"):
        resume_crag(graph, {"answer": "x"}, "bad")
    with pytest.raises(ValueError, match="empty"):
        resume_crag(graph, "   ", "bad")
    assert paused_question(graph, "bad") is not None  # the bad payloads did not touch the thread
    assert resume_crag(graph, "topic one", "bad")["outcome"] == "answered"
    with pytest.raises(RuntimeError, match="not waiting"):
        resume_crag(graph, "again", "bad")


def test_raw_resume_with_a_wrong_payload_raises_a_clear_error():
    graph, _ = make(ScriptedJudge(Judgement("ambiguous")))
    graph.invoke({"question": "When did it start?"}, thread("raw-bad"))
    with pytest.raises(TypeError, match="clarification must be a non-empty string"):
        graph.invoke(Command(resume=42), thread("raw-bad"))


@pytest.mark.parametrize("question", ["", "   ", None])
def test_an_empty_question_errors_before_any_node_runs(question):
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(0,))))
    with pytest.raises((ValueError, TypeError), match="question"):
        graph.invoke({"question": question}, thread("empty"))
    assert roles["retriever"].queries == [] and not graph.get_state(thread("empty")).values.get("path")
    with pytest.raises(ValueError, match="no question given"):
        graph.invoke({}, thread("nothing"))


# ---------------------------------------------------------------- fail-soft judge
@pytest.mark.parametrize("bad", [RuntimeError("quota exceeded"), "not a judgement",
                                 Judgement("sufficient", keep=(9,)), Judgement("sufficient", keep=())])
def test_a_failing_or_malformed_judge_keeps_the_top_candidates(bad):
    graph, roles = make(ScriptedJudge(bad), fallback_keep=3)
    out = run_crag(graph, "What is topic one?", "fs")
    assert out["judge_fallback"] is True and out["verdict"] == "sufficient"
    assert "fail-soft" in out["judge_note"]
    assert [d.metadata["id"] for d in roles["writer"].calls[0][1]] == ["d0", "d1", "d2"]
    assert out["outcome"] == "answered"


# ---------------------------------------------------------------- verifier -> revise once -> refuse
def test_unsupported_answer_is_rewritten_once_from_the_supporting_documents():
    draft = Answer("Topic zero is old [1]. Topic one is purple [2].", (1, 2))
    writer = FakeWriter(draft, Answer("Topic zero is old [1].", (1,)))
    verifier = FakeVerifier(Groundedness(False, ("Topic one is purple.",)), Groundedness(True))
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(0, 1))), writer=writer, verifier=verifier)
    out = run_crag(graph, "Tell me about topics zero and one", "rv")
    assert out["path"][-4:] == ["verify", "revise", "verify", "finish"]
    assert [d.metadata["id"] for d in writer.calls[1][1]] == ["d0"]  # only the supporting document
    assert [d.metadata["id"] for d in verifier.calls[1][0]] == ["d0"] and out["answer"] == "Topic zero is old [1]."


def test_still_unsupported_after_the_retry_refuses():
    writer = FakeWriter(Answer("Zero is old [1]. One is purple [2].", (1, 2)), Answer("Zero is new [1].", (1,)))
    verifier = FakeVerifier(Groundedness(False, ("One is purple.",)), Groundedness(False, ("Zero is new.",)))
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(0, 1))), writer=writer, verifier=verifier)
    out = run_crag(graph, "What are topics zero and one?", "rf")
    assert out["path"][-5:] == ["write", "verify", "revise", "verify", "refuse"]
    assert out["refusal"] == "unsupported" and out["answer"] == REFUSALS["unsupported"]
    assert len(writer.calls) == 2 and out["revisions"] == 1


def test_nothing_left_to_write_from_after_dropping_unsupported_claims_refuses():
    verifier = FakeVerifier(Groundedness(False, ("Topic zero is described.",)))
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(0,))), verifier=verifier)
    out = run_crag(graph, "What is topic zero?", "rf0")
    assert out["path"][-4:] == ["write", "verify", "revise", "refuse"]
    assert out["refusal"] == "unsupported" and len(roles["writer"].calls) == 1


def test_a_writer_that_finds_nothing_refuses():
    writer = FakeWriter(Answer(REFUSALS["insufficient"], (), answered=False))
    graph, roles = make(ScriptedJudge(Judgement("sufficient", keep=(0,))), writer=writer)
    out = run_crag(graph, "What is topic zero?", "nw")
    assert out["refusal"] == "insufficient" and roles["verifier"].calls == []


def test_helpers():
    assert same_query("Topic, three?", "topic three") and not same_query("topic 3", "topic three")
    docs = DOCS[:3]
    assert supporting_documents("No citations here.", docs, []) == docs
    assert supporting_documents("Bad [2].", docs, ["Bad."]) == [docs[0], docs[2]]


# ---------------------------------------------------------------- property: always ends within its caps
judgements = st.one_of(
    st.builds(Judgement, verdict=st.sampled_from(["sufficient", "insufficient", "ambiguous", "irrelevant"]),
              keep=st.lists(st.integers(0, 5), max_size=3).map(tuple),
              corrected_query=st.one_of(st.none(), st.sampled_from(["a", "b", "A", "c", "d", "e"]))),
    st.just(RuntimeError("down")), st.just("junk"))
groundedness = st.builds(Groundedness, grounded=st.booleans(),
                         unsupported=st.lists(st.sampled_from(["Topic zero is described."]), max_size=1).map(tuple))


@settings(max_examples=60, deadline=None)
@given(st.lists(judgements, min_size=1, max_size=8), st.lists(groundedness, min_size=1, max_size=4),
       st.integers(0, 3), st.integers(0, 2))
def test_any_sequence_of_outcomes_ends_within_the_caps(judge_script, verifier_script, max_corrections, max_clar):
    retriever = FakeRetriever()
    writer = FakeWriter()
    graph, _ = make(ScriptedJudge(*judge_script), verifier=FakeVerifier(*verifier_script), writer=writer,
                    retriever=retriever, max_corrections=max_corrections, max_clarifications=max_clar)
    config = {**thread("p"), "recursion_limit": 60}
    out = graph.invoke({"question": "What is topic one?"}, config)
    resumes = 0
    while "__interrupt__" in out:
        resumes += 1
        assert resumes <= max_clar
        out = graph.invoke(Command(resume=f"clarification {resumes}"), config)
    # an answer is delivered only after the verifier passed it; a refusal always says which of the reasons
    assert (out["outcome"] == "answered") == (out["path"][-1] == "finish") == bool(out.get("grounded"))
    assert out["outcome"] == "answered" or out["refusal"] in REFUSALS
    assert len(retriever.queries) <= 1 + max_corrections + max_clar
    assert len(writer.calls) <= 2 and out.get("revisions", 0) <= 1


# ---------------------------------------------------------------- the default (local) roles, end to end
def test_default_local_roles_answer_refuse_and_ask_back_on_the_handbook():
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.domains.handbook.corpus import load_handbook

    graph = build_crag_graph(retriever=BM25Retriever.from_documents(load_handbook()))
    answered = run_crag(graph, "What does the BM25 parameter k1 control?", "real-1")
    assert answered["outcome"] == "answered" and "saturation" in answered["answer"]
    refused = run_crag(graph, "Who won the 1998 football World Cup?", "real-2")
    assert refused["outcome"] == "refused" and refused["refusal"] == "irrelevant"
    on_topic = run_crag(graph, "Which k1 value does Vespa use?", "real-4")  # BM25 is covered, Vespa is not
    assert on_topic["outcome"] == "refused" and on_topic["refusal"] == "insufficient"
    paused = run_crag(graph, "Why does it saturate term frequency?", "real-3")  # "it": which method?
    assert "__interrupt__" in paused and "it" in paused_question(graph, "real-3")
    resumed = resume_crag(graph, "BM25 and its k1 parameter", "real-3")
    assert resumed["outcome"] == "answered" and "saturation" in resumed["answer"]
    assert resumed["question"].endswith("(BM25 and its k1 parameter)") and resumed["clarifications"] == ["BM25 and its k1 parameter"]


# ---------------------------------------------------------------- the recursion limit, checked up front
def failing_drafts():
    """A writer and a verifier that never agree: every draft is revised until the cap, then refused."""
    return (FakeWriter(Answer("Topic zero is old [1]. Topic one is purple [2].", (1, 2))),
            FakeVerifier(Groundedness(False, ("Topic one is purple.",))))


def worst_case_run(max_corrections, max_revisions, recursion_limit):
    """Every correction finds a new query, every draft fails the verifier: the longest call the caps allow."""
    judge = ScriptedJudge(*[Judgement("insufficient", keep=(0, 1), corrected_query=f"query {i}") for i in range(20)])
    writer, verifier = failing_drafts()
    graph, roles = make(judge, writer=writer, verifier=verifier, max_corrections=max_corrections,
                        max_revisions=max_revisions)
    return graph.invoke({"question": "Tell me about topics zero and one"},
                        {**thread(f"w{max_corrections}-{max_revisions}"), "recursion_limit": recursion_limit}), roles


@pytest.mark.parametrize("max_corrections, max_revisions", [(0, 0), (2, 1), (5, 3)])
def test_the_worst_case_takes_exactly_worst_case_steps(max_corrections, max_revisions):
    need = worst_case_steps(max_corrections, max_revisions)
    out, roles = worst_case_run(max_corrections, max_revisions, need)
    assert len(out["path"]) + 1 == need  # +1: LangGraph's start step
    assert out["corrections"] == max_corrections and out["revisions"] == max_revisions
    with pytest.raises(ValueError, match=rf"max_corrections={max_corrections}, max_revisions={max_revisions} can "
                                         rf"take up to {need} graph steps.*recursion_limit': {need}"):
        worst_case_run(max_corrections, max_revisions, need - 1)


def test_a_recursion_limit_too_low_for_the_caps_is_rejected_before_any_search():
    retriever = FakeRetriever()
    graph, _ = make(ScriptedJudge(Judgement("sufficient", keep=(0,))), retriever=retriever, max_corrections=8)
    with pytest.raises(ValueError, match="lower max_corrections or max_revisions"):
        graph.invoke({"question": "What is topic zero?"}, {**thread("limit"), "recursion_limit": 25})
    assert retriever.queries == []
    assert graph.invoke({"question": "What is topic zero?"}, thread("default"))["outcome"] == "answered"


def test_a_resumed_call_fits_the_same_limit():
    judge = ScriptedJudge(Judgement("ambiguous", clarifying_question="Which topic?"),
                          *[Judgement("insufficient", keep=(0, 1), corrected_query=f"query {i}") for i in range(5)])
    writer, verifier = failing_drafts()
    graph, _ = make(judge, writer=writer, verifier=verifier)
    config = {**thread("resumed"), "recursion_limit": worst_case_steps(2, 1)}
    paused = graph.invoke({"question": "Tell me about the topic"}, config)
    out = graph.invoke(Command(resume="topic zero"), config)
    resumed = out["path"][len(paused["path"]):]
    assert resumed[0] == "clarify" and len(resumed) + 1 == worst_case_steps(2, 1) and out["corrections"] == 2
