"""Self-RAG graph: shape snapshot, every branch, the cap (a property test over any grader verdicts), validation."""

from __future__ import annotations

import os
import re
from typing import Any, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from ragkit.defaults import REFUSAL
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.graphs.self_rag import (
    best_candidate,
    build_self_rag_graph,
    worst_case_steps,
)
from ragkit.roles.answer_grader_protocols import Usefulness
from ragkit.roles.protocols import Answer, Grade
from tests.conftest import assert_snapshot
from tests.doubles import Script, ScriptedGrader, ScriptedHallucinationGrader


# ---------------------------------------------------------------- scripted test doubles
class ScriptedAnswerGrader(Script):
    def grade(self, question: str, answer: str) -> Usefulness:
        useful = self.next()
        return Usefulness(useful, 1.0 if useful else 0.0)


class NumberingWriter:
    """Writes "answer N" (or abstains when scripted to), so tests can tell generations apart."""

    def __init__(self, answered: Sequence[bool] = ()) -> None:
        self.answered, self.calls = list(answered), []

    def write(self, question: str, documents: Sequence[Document]) -> Answer:
        self.calls.append((question, list(documents)))
        answered = self.answered.pop(0) if self.answered else True
        if not answered:
            return Answer("I don't have enough information.", answered=False)
        return Answer(f"answer {len(self.calls)} [1]", citations=(1,))


class SuffixRewriter:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        self.calls.append(question)
        return f"{question} (rewrite {len(self.calls)})"


class FixedPointRewriter:
    """Rewrites every query to the same text, as a deterministic rewriter does once it reaches a fixed point."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        self.calls.append(question)
        return "Q, rewritten!"


class RecordingRetriever:
    def __init__(self, fail: bool = False) -> None:
        self.queries: list[str] = []
        self.fail = fail

    def invoke(self, query: str) -> list[Document]:
        self.queries.append(query)
        if self.fail:
            raise OSError("index file missing")
        return [Document(f"doc for {query}", metadata={"id": f"d{len(self.queries)}"}), Document("other")]


def make_graph(relevant=(), grounded=(), useful=(), answered=(), then: bool = True, fail: bool = False,
               max_attempts: int = 3, fallback_documents: Any = 0, fixed_point: bool = False,
               **kwargs: Any) -> tuple[Any, dict]:
    parts = {
        "retriever": RecordingRetriever(fail),
        "grader": ScriptedGrader(relevant, then),
        "rewriter": FixedPointRewriter() if fixed_point else SuffixRewriter(),
        "writer": NumberingWriter(answered),
        "hallucination_grader": ScriptedHallucinationGrader(grounded, then),
        "answer_grader": ScriptedAnswerGrader(useful, then),
    }
    return build_self_rag_graph(**parts, max_attempts=max_attempts, fallback_documents=fallback_documents, **kwargs), parts


# ---------------------------------------------------------------- shape
def test_mermaid_snapshot() -> None:
    graph, _ = make_graph()
    text = graph.get_graph().draw_mermaid()
    assert_snapshot("self_rag.mmd", text)


# ---------------------------------------------------------------- each branch
def test_relevant_grounded_useful_ends_after_one_generation() -> None:
    graph, parts = make_graph()
    out = graph.invoke({"question": "How does BM25 score documents?"})
    assert out["path"] == ["check_question", "retrieve", "grade_documents", "generate", "grade_generation", "finish"]
    assert out["generation"] == "answer 1 [1]" and out["gave_up"] is False
    assert (out["attempts"], out["generations"], out["rewrites"]) == (1, 1, 0)
    assert len(out["documents"]) == 2 and out["note"].startswith("checked:")
    # the result fields every RAG graph ends with
    assert (out["answer"], out["outcome"], out["citations"]) == ("answer 1 [1]", "answered", [1])
    assert out["sources"] == out["documents"] and out["reason"].startswith("checked:")


def test_irrelevant_documents_are_dropped_and_no_relevant_ones_trigger_a_rewrite() -> None:
    graph, parts = make_graph(relevant=[False, False, True, False])
    out = graph.invoke({"question": "q"})
    assert out["path"][:7] == ["check_question", "retrieve", "grade_documents", "transform_query", "retrieve",
                               "grade_documents", "generate"]
    assert parts["retriever"].queries == ["q", "q (rewrite 1)"]
    assert parts["rewriter"].calls == ["q"]
    assert out["query"] == "q (rewrite 1)" and out["rewrites"] == 1
    assert [d.page_content for d in out["documents"]] == ["doc for q (rewrite 1)"]  # only the relevant one
    assert parts["writer"].calls[0][0] == "q"  # the writer answers the user's question, not the rewrite


def test_not_grounded_generates_again() -> None:
    graph, parts = make_graph(grounded=[False])
    out = graph.invoke({"question": "q"})
    assert out["path"][3:] == ["generate", "grade_generation", "generate", "grade_generation", "finish"]
    assert out["generation"] == "answer 2 [1]" and out["gave_up"] is False and out["attempts"] == 2


def test_a_writer_that_repeats_an_ungrounded_answer_is_not_asked_again() -> None:
    class ConstantWriter(NumberingWriter):
        def write(self, question: str, documents: Sequence[Document]) -> Answer:
            self.calls.append((question, list(documents)))
            return Answer("the same answer [1]", citations=(1,))

    graph = build_self_rag_graph(retriever=RecordingRetriever(), grader=ScriptedGrader([], True),
                                 rewriter=SuffixRewriter(), writer=ConstantWriter(),
                                 hallucination_grader=ScriptedHallucinationGrader([False, False], True),
                                 answer_grader=ScriptedAnswerGrader([], True), max_attempts=4)
    out = graph.invoke({"question": "q"})
    # generate (not grounded) -> generate (same text, not grounded) -> rewrite, not a third identical try
    assert out["path"][3:8] == ["generate", "grade_generation", "generate", "grade_generation", "transform_query"]
    assert out["gave_up"] is False and out["attempts"] == 4


def test_a_rewrite_already_searched_is_not_searched_again() -> None:
    graph, parts = make_graph(then=False, max_attempts=6, fallback_documents=1, fixed_point=True)
    out = graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(6)})
    # the second rewrite is the query searched last: it is not searched again; the writer gets the best rejected
    assert parts["retriever"].queries == ["q", "Q, rewritten!"]
    assert out["searched"] == ["q", "Q, rewritten!"]
    second = out["path"].index("transform_query", out["path"].index("transform_query") + 1)
    assert out["path"][second + 1] == "generate" and out["repeated_query"] in (True, False)
    assert out["attempts"] <= 6 and out["gave_up"] is True


def test_grounded_but_not_useful_rewrites_the_query() -> None:
    graph, parts = make_graph(useful=[False])
    out = graph.invoke({"question": "q"})
    assert out["path"][3:] == ["generate", "grade_generation", "transform_query", "retrieve", "grade_documents",
                               "generate", "grade_generation", "finish"]
    assert out["attempts"] == 3 and out["gave_up"] is False


def test_an_abstention_counts_as_not_useful_without_calling_the_graders() -> None:
    graph, parts = make_graph(answered=[False])
    out = graph.invoke({"question": "q"})
    assert "transform_query" in out["path"] and out["generation"] == "answer 2 [1]"
    assert parts["hallucination_grader"].calls == 1  # only the second (real) answer was checked


def test_at_the_cap_it_gives_up_with_the_best_answer_and_says_so() -> None:
    # answer 1: grounded but not useful; answer 2 (after a rewrite) is not grounded -> budget spent
    graph, _ = make_graph(grounded=[True, False], useful=[False], max_attempts=3)
    out = graph.invoke({"question": "q"})
    assert out["path"][-1] == "give_up" and out["gave_up"] is True
    assert out["attempts"] == 3 and (out["generations"], out["rewrites"]) == (2, 1)
    assert out["generation"] == "answer 1 [1]"  # grounded beats ungrounded
    assert "gave up checking after 3 attempts (2 generations, 1 rewrite)" in out["reason"]
    assert "not judged useful" in out["reason"]
    assert (out["answer"], out["outcome"]) == ("answer 1 [1]", "answered")
    assert out["sources"] == out["candidates"][0]["documents"]  # what answer 1 was written from


def test_no_relevant_documents_and_no_budget_still_generates_once() -> None:
    path = ["check_question", "retrieve", "grade_documents", "generate", "grade_generation", "give_up"]
    # no fallback (the default); the refusal dial at 0.0: the graph's own checks alone
    graph, parts = make_graph(relevant=[False] * 10, then=False, max_attempts=1, refuse_below=0.0)
    out = graph.invoke({"question": "q"})
    assert out["path"] == path
    assert parts["writer"].calls[0][1] == [] and "NOT grounded" in out["reason"] and out["outcome"] == "answered"
    # at the default bar the same run is refused by the dial: it was written from no document (confidence 0)
    graph, parts = make_graph(relevant=[False] * 10, then=False, max_attempts=1)
    out = graph.invoke({"question": "q"})
    assert out["path"] == path and parts["writer"].calls[0][1] == [] and out["confidence"] == 0.0
    if REFUSAL.self_rag > 0.0:
        assert out["outcome"] == "refused" and out["reason"].startswith("low confidence")


# ---------------------------------------------------------------- the last chance: the best rejected documents
class ScoringGrader:
    """Rejects every document; its score is the number at the end of its text ("doc 0.3" -> 0.3)."""

    def grade(self, question: str, document: Document) -> Grade:
        return Grade(False, float(document.page_content.split()[-1]))

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        return [self.grade(question, d) for d in documents]


class ListRetriever:
    """Returns the next scripted list of documents on each search (the last list once they run out)."""

    def __init__(self, *lists: list[str]) -> None:
        self.lists = [[Document(text) for text in texts] for texts in lists]

    def invoke(self, query: str) -> list[Document]:
        return self.lists.pop(0) if len(self.lists) > 1 else self.lists[0]


def test_with_no_relevant_document_the_last_chance_writes_from_the_best_rejected_ones_of_the_run() -> None:
    rewriter, writer = SuffixRewriter(), NumberingWriter()
    graph = build_self_rag_graph(retriever=ListRetriever(["a 0.2", "b 0.5"], ["c 0.1", "b 0.5"], ["d 0.3"]),
                                 grader=ScoringGrader(), rewriter=rewriter, writer=writer,
                                 hallucination_grader=ScriptedHallucinationGrader([], True),
                                 answer_grader=ScriptedAnswerGrader([], True), max_attempts=3, fallback_documents=2)
    out = graph.invoke({"question": "q"})
    assert out["rewrites"] == 2 and out["relevance_fallback"] is True
    assert [d.page_content for d in writer.calls[0][1]] == ["b 0.5", "d 0.3"]  # best two of all three searches
    assert [(s, d.page_content) for s, d in out["rejected"]] == [(0.5, "b 0.5"), (0.3, "d 0.3"), (0.2, "a 0.2"),
                                                                  (0.1, "c 0.1")]
    assert out["gave_up"] is False and "none passed the relevance grader" in out["note"]


def test_the_number_of_fallback_documents_is_a_checked_builder_argument() -> None:
    graph, parts = make_graph(relevant=[False] * 10, then=False, max_attempts=1, fallback_documents=1)
    graph.invoke({"question": "q"})
    assert len(parts["writer"].calls[0][1]) == 1
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="fallback_documents"):
            make_graph(fallback_documents=bad)


def test_the_rewriter_gets_only_documents_the_grader_kept() -> None:
    class RecordingRewriter(SuffixRewriter):
        def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
            self.seen = [*getattr(self, "seen", []), [d.page_content for d in documents]]
            return super().rewrite(question, documents)

    rewriter = RecordingRewriter()
    graph = build_self_rag_graph(retriever=RecordingRetriever(), grader=ScriptedGrader([False, False, True, False], True),
                                 rewriter=rewriter, writer=NumberingWriter(),
                                 hallucination_grader=ScriptedHallucinationGrader([], True),
                                 answer_grader=ScriptedAnswerGrader([False], True), max_attempts=4)
    graph.invoke({"question": "q"})
    # 1st rewrite: nothing passed, so no feedback; 2nd (after a useless answer): the one kept document
    assert rewriter.seen == [[], ["doc for q (rewrite 1)"]]


def test_max_attempts_is_a_state_field_per_run() -> None:
    graph, _ = make_graph(then=False, max_attempts=3)
    assert graph.invoke({"question": "q", "max_attempts": 5})["attempts"] == 5
    assert graph.invoke({"question": "q"})["attempts"] == 3


def test_a_failing_retriever_does_not_crash_the_graph() -> None:
    graph, _ = make_graph(fail=True)
    out = graph.invoke({"question": "q"})
    assert "OSError: index file missing" in out["retrieval_note"]
    assert out["documents"] == [] and out["rewrites"] == 2  # no documents -> rewrites until a generation must come


def test_best_candidate_prefers_grounded_then_useful_then_score() -> None:
    def c(name: str, grounded: bool, useful: bool, score: float) -> dict:
        return {"generation": name, "grounded": grounded, "useful": useful, "score": score}

    assert best_candidate([c("a", False, False, 0.9), c("b", True, False, 0.2)])["generation"] == "b"
    assert best_candidate([c("a", True, False, 0.2), c("b", True, False, 0.7)])["generation"] == "b"
    assert best_candidate([c("a", True, False, 0.5), c("b", True, False, 0.5)])["generation"] == "b"


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("question", ["", "  ", None])
def test_an_empty_question_is_rejected_before_retrieval(question: Any) -> None:
    graph, parts = make_graph()
    with pytest.raises((ValueError, TypeError), match="question"):
        graph.invoke({"question": question})
    assert parts["retriever"].queries == []


def test_a_huge_question_is_rejected_before_retrieval() -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError, match="100,000 characters"):
        graph.invoke({"question": "x" * 100_000})
    assert parts["retriever"].queries == []


@pytest.mark.parametrize("cap", [0, -1, 2.5, True, "3"])
def test_a_bad_cap_is_rejected(cap: Any) -> None:
    graph, _ = make_graph()
    with pytest.raises(ValueError, match="max_attempts"):
        graph.invoke({"question": "q", "max_attempts": cap})


def test_a_cap_the_recursion_limit_cannot_finish_is_rejected_up_front() -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError, match="recursion_limit"):
        graph.invoke({"question": "q", "max_attempts": 10}, {"recursion_limit": 20})
    assert parts["retriever"].queries == []


# ---------------------------------------------------------------- the cap, for any verdicts
def test_the_worst_case_takes_exactly_worst_case_steps() -> None:
    for cap in range(1, 7):
        graph, _ = make_graph(then=False, max_attempts=cap)
        out = graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(cap)})
        assert len(out["path"]) + 1 == worst_case_steps(cap) and out["gave_up"] is True  # +1: LangGraph's start step
        graph, _ = make_graph(then=False, max_attempts=cap)
        with pytest.raises(ValueError, match="recursion_limit"):  # the bound is tight
            graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(cap) - 1})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cap=st.integers(min_value=1, max_value=6),
    relevant=st.lists(st.booleans(), max_size=30),
    grounded=st.lists(st.booleans(), max_size=10),
    useful=st.lists(st.booleans(), max_size=10),
    answered=st.lists(st.booleans(), max_size=10),
    then=st.booleans(),
    fallback=st.integers(min_value=0, max_value=3),
    fixed_point=st.booleans(),
)
def test_any_verdicts_end_within_the_cap(cap, relevant, grounded, useful, answered, then, fallback, fixed_point) -> None:
    graph, parts = make_graph(relevant, grounded, useful, answered, then=then, max_attempts=cap,
                              fallback_documents=fallback, fixed_point=fixed_point)
    # a recursion limit equal to the worst case: hitting it would raise GraphRecursionError
    out = graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(cap)})
    assert 1 <= out["generations"] and out["attempts"] == out["generations"] + out["rewrites"] <= cap
    assert len(out["path"]) < worst_case_steps(cap)
    assert out["gave_up"] == (out["path"][-1] == "give_up")
    assert out["gave_up"] != (out["grounded"] and out["useful"])
    assert out["generation"] in {c["generation"] for c in out["candidates"]}
    assert len(out["candidates"]) == out["generations"] == len(parts["writer"].calls)


# ---------------------------------------------------------------- LLM roles on a scripted chat model
def test_llm_roles_on_a_scripted_model_happy_path() -> None:
    from ragkit.core.chat_models import ScriptedChatModel

    model = ScriptedChatModel(responses=[
        {"relevant": True}, {"relevant": False},  # grade the two retrieved documents
        {"answer": "It fuses rankings [1].", "answered": True},
        {"grounded": True, "unsupported": []},
        {"useful": True},
    ])
    graph = build_self_rag_graph(retriever=RecordingRetriever(), chat_model=model)
    out = graph.invoke({"question": "What does RRF do?"})
    assert out["generation"] == "It fuses rankings [1]." and out["gave_up"] is False
    assert len(out["documents"]) == 1 and len(model.calls) == 5


def test_malformed_llm_output_takes_each_roles_safe_default_and_the_cap_holds() -> None:
    from ragkit.core.chat_models import ScriptedChatModel

    model = ScriptedChatModel(responses=["nonsense"], cycle=True)  # every reply is unparsable
    graph = build_self_rag_graph(retriever=RecordingRetriever(), chat_model=model)
    out = graph.invoke({"question": "What does RRF do?"})
    # grader keeps documents, writer refuses, refusal -> rewrite (rewriter keeps the question) -> ... -> give up
    assert out["gave_up"] is True and out["attempts"] == 3 and out["generations"] >= 1
    assert out["generation"] == out["answer"] and out["outcome"] == "refused"
    assert "NOT" in out["reason"] or "not judged useful" in out["reason"]  # it says the answer was not verified


def test_default_local_roles_answer_a_handbook_question_within_the_cap() -> None:
    graph = build_self_rag_graph(handbook_search())
    out = graph.invoke({"question": "What does a checkpointer give a LangGraph graph?"})
    assert out["grounded"] and out["useful"] and not out["gave_up"] and out["attempts"] == 1
    assert "pause and resume" in out["generation"] and re.search(r"\[\d\]", out["generation"])
    assert all(d.metadata["id"].startswith("HB-") for d in out["documents"])


@pytest.mark.gemini
@pytest.mark.skipif(not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")),
                    reason="needs GOOGLE_API_KEY or GEMINI_API_KEY")
def test_gemini_smoke() -> None:
    from ragkit.core.chat_models import load_chat_model

    graph = build_self_rag_graph(handbook_search(), chat_model=load_chat_model("fast", required=True))
    out = graph.invoke({"question": "What is reciprocal rank fusion?"})
    assert out["attempts"] <= 3 and out["generation"].strip()
