"""The statute QA graph: every branch, both refusal paths, the rewrite loop, the caps, direct citations,
the language gate, citation verification, LLM roles on a scripted model (with token usage), local roles."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from ragkit.core.chat_models import scripted
from ragkit.defaults import REFUSAL
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.questions import REFUSALS, ROUTED_KINDS, ROUTING_TABLE, STARTING_TABLE
from ragkit.domains.statute.strategies import strategy_searches
from ragkit.graphs.statute_qa import (
    build_statute_qa_graph,
    check_routing_table,
    route_after_verify,
    statute_qa_graph,
    summarize,
)
from ragkit.roles.protocols import Answer, Grade, Groundedness
from ragkit.roles.statute_protocols import EvidenceGrade, KindDecision
from tests.conftest import assert_snapshot

ARTICLES = load_statute()
BY_NUMBER = {d.metadata["article"]: d for d in ARTICLES}


# ---------------------------------------------------------------- test doubles (follow the role protocols)
class FakeSearch:
    def __init__(self, numbers=(15, 16, 17, 18, 35), fail=False):
        self.numbers, self.fail, self.queries = list(numbers), fail, []

    def search_with_scores(self, query, k=None):
        self.queries.append(query)
        if self.fail:
            raise ConnectionError("index offline")
        return [(BY_NUMBER[n], 1.0 - i / 10) for i, n in enumerate(self.numbers[:k])]


class FakeClassifier:
    def __init__(self, kind="single"):
        self.kind, self.calls = kind, []

    def classify(self, question):
        self.calls.append(question)
        if isinstance(self.kind, BaseException):
            raise self.kind
        return KindDecision(self.kind, 1.0, "scripted")


class Scripted:
    """Returns scripted outputs in order (the last repeats); raises scripted exceptions."""

    def __init__(self, *script):
        self.script, self.calls = list(script), []

    def _next(self, *args):
        self.calls.append(args)
        out = self.script[min(len(self.calls), len(self.script)) - 1]
        if isinstance(out, BaseException):
            raise out
        return out


class FakeEvidence(Scripted):
    def grade(self, question, documents):
        return self._next(question, list(documents))


class FakeWriter(Scripted):
    def write(self, question, documents):
        return self._next(question, list(documents))


class FakeVerifier(Scripted):
    def check(self, documents, answer):
        return self._next(list(documents), answer)


class FakeRewriter(Scripted):
    def rewrite(self, question, documents=()):
        return self._next(question, list(documents))


class NoLinks:
    """A document grader that finds nothing relevant, so follow_references never hops (tests/test_statute_hops.py hops)."""

    def grade_many(self, question, documents):
        return [Grade(False, 0.0) for _ in documents]

    def grade(self, question, document):
        return Grade(False, 0.0)


SUFFICIENT = EvidenceGrade("sufficient", (0,), 0.9, "scripted")
SHORT = EvidenceGrade("short", (), 0.0, "scripted")
GOOD = Answer("Fish below the minimum landing size go back to the sea [1].", (1,))


def make(kind="single", evidence=(SUFFICIENT,), answers=(GOOD,), verdicts=(Groundedness(True),), rewrites=("rewritten query",),
         search=None, **kw):
    searches = search or {name: FakeSearch() for name in ("vector", "hybrid", "graph")}
    roles = dict(question_classifier=FakeClassifier(kind), evidence_grader=FakeEvidence(*evidence), writer=FakeWriter(*answers),
                 hallucination_grader=FakeVerifier(*verdicts), rewriter=FakeRewriter(*rewrites), grader=NoLinks())
    return build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies=searches, **roles, **kw), roles, searches


# ---------------------------------------------------------------- shape and table
def test_graph_shape_matches_the_mermaid_snapshot():
    graph, _, _ = make()
    assert_snapshot("statute_qa.mmd", graph.get_graph().draw_mermaid())


def test_the_uncompiled_graph_takes_a_new_node():
    graph = statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FakeSearch() for name in ("vector", "hybrid", "graph")},
                             question_classifier=FakeClassifier(), evidence_grader=FakeEvidence(SUFFICIENT),
                             writer=FakeWriter(GOOD), hallucination_grader=FakeVerifier(Groundedness(True)),
                             rewriter=FakeRewriter("r"))
    graph.add_node("audit", lambda state: {"reason": state["reason"] + " (audited)"})
    graph.add_edge("finish", "audit")
    out = graph.compile().invoke({"question": "What must be done with undersized fish?"})
    assert out["path"][-1] == "finish" and out["reason"].endswith("(audited)")


def test_a_wrong_role_is_refused_when_the_graph_is_built():
    with pytest.raises(TypeError, match="evidence_grader= needs a EvidenceGrader"):
        build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FakeSearch() for name in ("vector", "hybrid", "graph")},
                               question_classifier=FakeClassifier(), evidence_grader=object())


def test_the_statute_its_searches_and_its_domain_are_required_arguments():
    with pytest.raises(TypeError, match="articles"):
        build_statute_qa_graph()
    with pytest.raises(TypeError, match="strategies"):
        build_statute_qa_graph(ARTICLES, domain=STATUTE)
    with pytest.raises(TypeError, match="domain"):
        build_statute_qa_graph(ARTICLES, strategies={name: FakeSearch() for name in ("vector", "hybrid", "graph")})


def test_the_routing_table_defaults_to_the_domains_and_can_be_replaced():
    graph, _, _ = make(kind="definition")
    assert graph.invoke({"question": "What is a vessel?"})["strategy"] == STATUTE.routing_table["definition"]
    graph, _, _ = make(kind="definition", routing_table=STARTING_TABLE)
    assert graph.invoke({"question": "What is a vessel?"})["strategy"] == STARTING_TABLE["definition"]


def test_the_routing_tables_are_plain_dicts_over_the_three_strategies():
    assert STARTING_TABLE == {"single": "hybrid", "definition": "vector", "multihop": "graph", "citation": "hybrid"}
    assert check_routing_table(ROUTING_TABLE, ("vector", "hybrid", "graph"), ROUTED_KINDS) == ROUTING_TABLE
    with pytest.raises(ValueError, match="no strategy for"):
        check_routing_table({"single": "hybrid"}, ("hybrid",), ROUTED_KINDS)


@pytest.mark.parametrize("kind", ["single", "definition", "multihop"])
def test_each_type_searches_with_the_strategy_its_table_entry_names(kind):
    table = {"single": "vector", "definition": "graph", "multihop": "hybrid", "citation": "hybrid"}
    graph, _, searches = make(kind, routing_table=table)
    out = graph.invoke({"question": "What must be done with undersized fish?"})
    assert out["strategy"] == table[kind] and searches[table[kind]].queries == ["What must be done with undersized fish?"]
    assert all(not s.queries for name, s in searches.items() if name != table[kind])
    assert out["path"] == ["check_question", "classify", "retrieve", "grade_evidence", "follow_references", "generate", "verify",
                           "finish"]
    assert out["answer"].endswith("[Article 15(1)].") and out["cited_labels"] == ["Article 15(1)"]
    assert out["outcome"] == "answered" and [out["sources"][n - 1].metadata["id"] for n in out["citations"]] == ["art-15(1)"]
    assert out["reason"].startswith("verified")


# ---------------------------------------------------------------- direct citations
@pytest.mark.parametrize("question, pinned", [("Under Art. 12(3), how much notice is needed?", [12]),
                                              ("what does section 37 say", [37]),
                                              ("Coastal Waters Act, Article 10(4): what is kept on site?", [10]),
                                              ("Articles 35 and 36: which one fines ballast water breaches?", [35, 36])])
def test_a_direct_citation_skips_classification_and_pins_the_article_at_rank_1(question, pinned):
    after_pins = EvidenceGrade("sufficient", (len(pinned),), 0.9, "supports the first unpinned article")
    graph, roles, searches = make(evidence=(after_pins,), answers=(Answer("Notice is needed [1].", (1,)),))
    out = graph.invoke({"question": question})
    assert roles["question_classifier"].calls == [] and "classify" not in out["path"]
    assert out["question_kind"] == "citation" and out["cited"] == pinned
    assert [d.metadata["article"] for d in out["articles"][: len(pinned)]] == pinned
    assert all(d.metadata["pinned"] for d in out["articles"][: len(pinned)])
    assert out["strategy"] == ROUTING_TABLE["citation"]
    # the pinned article reaches the writer even when the grader supports another one
    written_from = {p.metadata["article"] for p in roles["writer"].calls[0][1]}
    assert set(pinned) <= written_from


def test_a_citation_of_an_article_the_statute_lacks_is_refused_at_once():
    graph, roles, searches = make()
    out = graph.invoke({"question": "What does Article 99 say?"})
    assert out["path"] == ["check_question", "refuse"] and out["refusal"] == "no_such_article" and out["outcome"] == "refused"
    assert "there is no Article 99" in out["answer"] and not any(s.queries for s in searches.values())


# ---------------------------------------------------------------- the two refusal paths
def test_without_a_suspicion_bar_an_unanswerable_question_is_refused_without_searching():
    graph, roles, searches = make("unanswerable", suspect_refuse_below=None)
    out = graph.invoke({"question": "What are the harbour dues under the Ports Act?"})
    assert out["path"] == ["check_question", "classify", "refuse"]
    assert out["outcome"] == "refused" and out["refusal"] == "unanswerable" and out["answer"] == REFUSALS["unanswerable"]
    assert out["reason"] == "unanswerable: scripted" and out["sources"] == [] and out["citations"] == []
    assert not summarize(out)["low_confidence"] and not any(s.queries for s in searches.values())


def test_a_question_the_classifier_calls_unanswerable_is_searched_and_answered_on_strong_evidence():
    graph, roles, searches = make("unanswerable", suspect_refuse_below=0.5)
    out = graph.invoke({"question": "What must be done with undersized fish?"})
    assert out["path"][:3] == ["check_question", "classify", "retrieve"] and out["outcome"] == "answered"
    assert out["suspected_unanswerable"] and out["question_kind"] == STATUTE.safe_kind and out["refuse_below"] == 0.5
    assert searches[ROUTING_TABLE[STATUTE.safe_kind]].queries == ["What must be done with undersized fish?"]
    assert "written from only at evidence >= 0.500" in out["kind_note"] and summarize(out)["suspected_unanswerable"]


def test_a_suspected_question_on_weak_evidence_is_refused_after_the_search_naming_the_closest_articles():
    weak = EvidenceGrade("sufficient", (0,), 0.3, "scripted")
    graph, roles, searches = make("unanswerable", evidence=(weak,), suspect_refuse_below=0.5)
    out = graph.invoke({"question": "What must be done with undersized fish?"})
    assert out["outcome"] == "refused" and out["refusal"] == "low_confidence" and out["path"][-1] == "refuse_low_confidence"
    assert "scripted; searched as 'single'" in out["reason"] and "evidence" in out["reason"]
    assert any(s.queries for s in searches.values()) and not roles["writer"].calls
    assert "Article" in out["answer"] and out["confidence"] == 0.3
    # the same evidence answers a question the classifier did not suspect: the raised dial is the only difference
    plain, _, _ = make("single", evidence=(weak,), suspect_refuse_below=0.5)
    unsuspected = plain.invoke({"question": "What must be done with undersized fish?"})
    assert unsuspected["outcome"] == "answered" and not summarize(unsuspected)["suspected_unanswerable"]


def test_the_suspicion_never_lowers_the_refusal_dial_and_ends_with_the_run():
    weak = EvidenceGrade("sufficient", (0,), 0.3, "scripted")
    graph, _, _ = make("unanswerable", evidence=(weak,), suspect_refuse_below=0.1, refuse_below=0.4)
    out = graph.invoke({"question": "What must be done with undersized fish?"})
    assert out["refuse_below"] == 0.4 and out["outcome"] == "refused"
    graph = statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FakeSearch() for name in ("vector", "hybrid", "graph")},
                             question_classifier=FakeClassifier("unanswerable"), evidence_grader=FakeEvidence(SUFFICIENT),
                             writer=FakeWriter(GOOD), hallucination_grader=FakeVerifier(Groundedness(True)),
                             rewriter=FakeRewriter("r"), grader=NoLinks(), suspect_refuse_below=0.5).compile(
                                 checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({"question": "What must be done with undersized fish?"}, thread)["suspected_unanswerable"]
    again = graph.invoke({"question": "Under Art. 12(3), how much notice is given?"}, thread)
    assert not again["suspected_unanswerable"] and again["refuse_below"] == REFUSAL.statute_qa


@pytest.mark.parametrize("bar", ["high", float("nan"), True])
def test_a_suspicion_bar_that_is_not_a_number_is_refused_when_the_graph_is_built(bar):
    with pytest.raises(ValueError, match="suspect_refuse_below must be a finite number"):
        make(suspect_refuse_below=bar)


def test_short_evidence_is_re_searched_once_with_the_rewrite_then_refused_with_low_confidence():
    graph, roles, searches = make(evidence=(SHORT,), rewrites=("first rewrite", "second rewrite"))
    out = graph.invoke({"question": "What is this year's herring quota in tonnes?"})
    assert out["path"] == ["check_question", "classify", "retrieve", "grade_evidence", "follow_references", "retrieve", "grade_evidence",
                           "refuse_low_confidence"]
    assert searches["hybrid"].queries == ["What is this year's herring quota in tonnes?", "first rewrite"]
    assert out["question"] == "What is this year's herring quota in tonnes?" and out["active_query"] == "first rewrite"
    assert out["rewritten_query"] == "second rewrite" and out["retrieval_attempts"] == 2
    assert out["outcome"] == "refused" and summarize(out)["low_confidence"] and out["refusal"] == "low_confidence"
    assert "Article 15 (Catch limits and quotas)" in out["answer"]


def test_the_rewrite_loop_stops_when_the_rewrite_repeats_the_query():
    question = "What is this year's herring quota in tonnes?"
    graph, roles, searches = make(evidence=(SHORT,), rewrites=(question.upper().rstrip("?"),))
    out = graph.invoke({"question": question})
    assert searches["hybrid"].queries == [question] and out["retrieval_attempts"] == 1
    assert out["path"][-1] == "refuse_low_confidence"


def test_a_second_search_that_finds_evidence_goes_on_to_answer():
    graph, roles, searches = make(evidence=(SHORT, SUFFICIENT))
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["retrieval_attempts"] == 2 and out["evidence_sufficient"] and out["cited_labels"] == ["Article 15(1)"]
    assert out["outcome"] == "answered" and out["path"][-3:] == ["generate", "verify", "finish"]


# ---------------------------------------------------------------- generation and verification
def test_a_citation_of_an_article_that_was_not_retrieved_is_dropped_and_the_answer_regenerated():
    bad = Answer("Fish go back to the sea [1] [Article 40(1)]. Nets are marked [2].", (1, 2))
    verdicts = (Groundedness(True), Groundedness(False), Groundedness(True))
    graph, roles, _ = make(answers=(bad, GOOD), verdicts=verdicts)
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["generation_attempts"] == 2 and out["path"].count("generate") == 2
    assert out["answer"] == "Fish below the minimum landing size go back to the sea [Article 15(1)]."
    # the second generation left out the paragraph that did not support its sentence
    first, second = (call[1] for call in roles["writer"].calls)
    assert "art-15(2)" in {p.metadata["id"] for p in first} - {p.metadata["id"] for p in second}


def test_a_dropped_citation_alone_does_not_force_a_regeneration():
    answer = Answer("Fish go back to the sea [1] [Article 40(1)].", (1,))
    graph, roles, _ = make(answers=(answer,))
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["generation_attempts"] == 1 and out["answer"] == "Fish go back to the sea [Article 15(1)]."
    assert out["invalid_citations"] == [("Article 40(1)", "Article 40 was not retrieved")]
    assert [out["sources"][n - 1].metadata["id"] for n in out["citations"]] == ["art-15(1)"]


def test_still_unsupported_after_two_generations_refuses_with_low_confidence():
    graph, roles, _ = make(answers=(Answer("Fish go to the moon [1]. Nets sing [2].", (1, 2)),), verdicts=(Groundedness(False),))
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["generation_attempts"] == 2 and out["refusal"] == "unsupported" and summarize(out)["low_confidence"]
    assert out["answer"].startswith(REFUSALS["unsupported"]) and out["paragraphs"] and not out["cited_labels"]
    assert out["outcome"] == "refused" and out["reason"].startswith("unsupported: ") and not out["citations"]


def test_a_writer_that_finds_nothing_is_not_asked_again():
    graph, roles, _ = make(answers=(Answer("I don't have enough information.", (), answered=False),))
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["generation_attempts"] == 1 and out["path"][-1] == "refuse_low_confidence" and out["refusal"] == "low_confidence"


def test_route_after_verify_is_a_pure_function_of_the_state():
    p = Document("x", metadata={"id": "art-1(1)"})
    base = {"caps": {"generations": 2}, "draft": "A [Article 1(1)].", "paragraphs": [p], "excluded": []}
    assert route_after_verify({**base, "verified": True}) == "finish"
    assert route_after_verify({**base, "generation_attempts": 1}) == "generate"
    assert route_after_verify({**base, "generation_attempts": 2}) == "refuse_low_confidence"
    assert route_after_verify({**base, "generation_attempts": 1, "excluded": ["art-1(1)"]}) == "refuse_low_confidence"


# ---------------------------------------------------------------- input and error policy, language gate
@pytest.mark.parametrize("question", [None, "", "   "])
def test_an_empty_question_errors_before_any_node_runs(question):
    graph, _, searches = make()
    with pytest.raises(ValueError):
        graph.invoke({"question": question})
    assert not any(s.queries for s in searches.values())


def test_an_oversized_question_names_the_builder_argument():
    graph, _, _ = make(max_question_chars=20)
    with pytest.raises(ValueError, match=r"build_statute_qa_graph\(max_question_chars=...\)"):
        graph.invoke({"question": "x" * 30})


def test_a_failing_search_ends_in_a_refusal_that_says_so():
    searches = {name: FakeSearch(fail=True) for name in ("vector", "hybrid", "graph")}
    graph, _, _ = make(evidence=(SHORT,), search=searches)
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["refusal"] == "search_failed" and "index offline" in out["answer"] and out["retrieval_attempts"] <= 2


def test_a_failing_classifier_searches_as_single():
    graph, _, searches = make(RuntimeError("model down"))
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["question_kind"] == "single" and "classifier failed" in out["kind_note"] and searches["hybrid"].queries


def test_a_korean_citation_gets_the_language_message_naming_the_article():
    graph, roles, searches = make()
    out = graph.invoke({"question": "제38조에 따른 이의 제기 기한은 며칠입니까?"})
    assert out["path"] == ["check_question", "unsupported_language"] and out["refusal"] == "language" and out["outcome"] == "refused"
    assert "Korean" in out["answer"] and "Article 38" in out["answer"] and not any(s.queries for s in searches.values())


def test_with_a_chat_model_a_korean_citation_is_pinned_and_answered():
    model = scripted('{"verdict": "sufficient", "supporting": [1]}',
                     '{"answer": "이의 제기 기한은 30일입니다 [1].", "answered": true}', '{"grounded": true, "unsupported": []}')
    searches = {name: FakeSearch((38, 8, 12)) for name in ("vector", "hybrid", "graph")}
    graph = build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies=searches, chat_model=model, max_hops=0)
    out = graph.invoke({"question": "제38조에 따른 이의 제기 기한은 며칠입니까?"})
    assert out["cited"] == [38] and out["articles"][0].metadata["article"] == 38 and "classify" not in out["path"]
    assert out["answer"] == "이의 제기 기한은 30일입니다 [Article 38(1)]." and out["cited_labels"] == ["Article 38(1)"]


# ---------------------------------------------------------------- LLM roles on a scripted model, with token usage
def usage(n_in, n_out):
    return {"input_tokens": n_in, "output_tokens": n_out, "total_tokens": n_in + n_out}


def test_llm_roles_on_the_chat_model_record_the_models_token_usage():
    model = scripted(
        AIMessage('{"kind": "multihop", "reason": "duty and fine"}', usage_metadata=usage(100, 10)),
        AIMessage('{"verdict": "sufficient", "supporting": [2]}', usage_metadata=usage(800, 12)),
        AIMessage('{"answer": "The fine is up to 80,000 crowns [2].", "answered": true}', usage_metadata=usage(900, 20)),
        AIMessage('{"grounded": true, "unsupported": []}', usage_metadata=usage(300, 5)),
    )
    searches = {name: FakeSearch((17, 35, 16)) for name in ("vector", "hybrid", "graph")}
    graph = build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies=searches, chat_model=model, max_hops=0)  # hops: the next test
    out = graph.invoke({"question": "What is the fine for fishing with a bottom trawl of 80 millimetre mesh?"})
    assert out["question_kind"] == "multihop" and out["strategy"] == ROUTING_TABLE["multihop"]
    assert [d.metadata["article"] for d in out["supporting"]] == [35]
    assert out["answer"] == "The fine is up to 80,000 crowns [Article 35(2)]." and out["cited_labels"] == ["Article 35(2)"]
    by_node = {e["node"]: e for e in out["usage"]}
    assert by_node["classify"]["total_tokens"] == 110 and by_node["grade_evidence"]["input_tokens"] == 800
    assert by_node["generate"]["output_tokens"] == 20 and by_node["verify"]["calls"] == 1
    assert summarize(out)["tokens"] == {"calls": 4, "input_tokens": 2100, "output_tokens": 47, "total_tokens": 2147}


def test_with_llm_roles_the_hop_grades_links_on_the_judging_model_and_records_its_calls():
    def reply(messages, tools):  # a judge that reads the prompt: the classifier, the evidence, then each grade
        prompt = " ".join(str(m.content) for m in messages)
        if "relevance of a retrieved document" not in prompt:  # the classifier, the evidence grader or the verifier
            return {"kind": "multihop", "reason": "rule and fine", "verdict": "sufficient", "supporting": [1],
                    "grounded": True, "unsupported": []}
        relevant = "liable to a fine" in prompt or "mesh size of a bottom trawl" in prompt
        return AIMessage(json.dumps({"relevant": relevant}), usage_metadata=usage(20, 1))

    judge = scripted(reply, cycle=True)
    writer = scripted('{"answer": "A bottom trawl needs 90 mm mesh [1]. The fine is up to 80,000 crowns [5].", "answered": true}')
    searches = {name: FakeSearch((17, 16)) for name in ("vector", "hybrid", "graph")}
    graph = build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies=searches, chat_model=writer, judge_model=judge)
    out = graph.invoke({"question": "What is the fine for trawling with an 80 millimetre mesh?"})
    assert [(h.anchor, h.added) for h in out["followed"]] == [("art-17(1)", "art-35(2)")]
    assert {"Article 17(1)", "Article 35(2)"} <= set(out["cited_labels"]) and out["outcome"] == "answered"
    hop = next(e for e in out["usage"] if e["node"] == "follow_references")
    assert hop["calls"] >= 2 and hop["total_tokens"] == 21 * hop["calls"]


def test_llm_roles_that_return_junk_take_their_safe_defaults():
    model = scripted("not json", "not json", '{"answer": "Up to 80,000 crowns [1].", "answered": true}', "not json",
                     '{"answer": "Up to 80,000 crowns [1].", "answered": true}', "not json")
    searches = {name: FakeSearch((35, 17)) for name in ("vector", "hybrid", "graph")}
    graph = build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies=searches, chat_model=model, max_hops=0)
    out = graph.invoke({"question": "What is the fine for fishing with a small mesh?"})
    # classifier -> "single" (fallback); evidence -> fail-soft sufficient; verifier fails closed -> regenerate, then refuse
    assert out["question_kind"] == "single" and out["evidence_sufficient"]
    assert out["generation_attempts"] == 2 and out["refusal"] == "unsupported"


def test_local_roles_record_zero_tokens():
    graph, _, _ = make()
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert {e["node"] for e in out["usage"]} == {"classify", "grade_evidence", "follow_references", "generate", "verify"}
    assert summarize(out)["tokens"]["total_tokens"] == 0 and all(e["seconds"] >= 0 for e in out["usage"])


# ---------------------------------------------------------------- property: every run ends within its caps
grades = st.one_of(st.builds(EvidenceGrade, verdict=st.sampled_from(["sufficient", "short"]),
                             supporting=st.lists(st.integers(0, 6), max_size=2).map(tuple)), st.just(RuntimeError("grader down")))
answers = st.sampled_from([GOOD, Answer("Fish fly [1] [2]. Nets [Article 40(2)].", (1, 2)), Answer("I don't have enough information.", (), False)])
rewrites = st.one_of(st.sampled_from(["a", "b", "What happens to undersized fish", "c"]), st.none(), st.just(RuntimeError("no")))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["single", "definition", "multihop", "unanswerable"]), st.lists(grades, min_size=1, max_size=4),
       st.lists(answers, min_size=1, max_size=3), st.lists(st.booleans(), min_size=1, max_size=6), st.lists(rewrites, min_size=1, max_size=3),
       st.integers(1, 3), st.integers(1, 3))
def test_any_sequence_of_role_outcomes_ends_within_the_caps(kind, grade_script, answer_script, verdict_script, rewrite_script,
                                                            max_retrievals, max_generations):
    graph, roles, searches = make(kind, evidence=grade_script, answers=answer_script, rewrites=rewrite_script,
                                  verdicts=[Groundedness(v) for v in verdict_script], max_retrievals=max_retrievals,
                                  max_generations=max_generations)
    out = graph.invoke({"question": "What happens to undersized fish?"}, {"recursion_limit": 40})
    assert out["retrieval_attempts"] <= max_retrievals and out["generation_attempts"] <= max_generations
    assert sum(len(s.queries) for s in searches.values()) == out["retrieval_attempts"]
    assert len(roles["writer"].calls) == out["generation_attempts"]
    assert out["path"][-1] in ("finish", "refuse", "refuse_low_confidence")
    assert out["outcome"] in ("answered", "refused") and (out["outcome"] == "refused") == (out["path"][-1] != "finish")
    assert isinstance(out["answer"], str) and isinstance(out["reason"], str) and isinstance(out["sources"], list)
    if out["outcome"] == "answered":  # an answer is given only when every sentence kept a supporting citation
        assert out["cited_labels"] and not out["unsupported"] and out["citations"]
        retrieved = {f"Article {d.metadata['article']}(" for d in out["articles"]}
        assert all(c[: c.index("(") + 1] in retrieved for c in out["cited_labels"])


# ---------------------------------------------------------------- the default (local) roles, end to end
def test_default_local_roles_pin_answer_and_refuse_on_the_statute():
    graph = build_statute_qa_graph(ARTICLES, strategies=strategy_searches(ARTICLES), domain=STATUTE)
    cited = graph.invoke({"question": "Under Art. 12(3), how much notice must the Authority give before revoking a permit?"})
    assert cited["path"][:2] == ["check_question", "retrieve"] and cited["articles"][0].metadata["article"] == 12
    assert "14 days" in cited["answer"] and "Article 12(3)" in cited["cited_labels"] and cited["outcome"] == "answered"
    assert summarize(cited)["tokens"]["calls"] == 0
    other_law = graph.invoke({"question": "What does the Norwegian Fisheries Act say about salmon quotas?"})
    assert other_law["outcome"] == "refused"
