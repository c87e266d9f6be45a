"""The CRAG judge: LocalJudge's decision order, its ambiguity signals, and LLMJudge's fail-soft parsing."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from ragkit.core.chat_models import scripted
from ragkit.offline.judge import LocalJudge, has_antecedent, title_split, underspecified
from ragkit.roles.judge_protocols import Judgement, fail_soft
from ragkit.roles.llm_judge import LLMJudge
from ragkit.roles.protocols import Grade

VERDICTS = {"sufficient", "insufficient", "ambiguous", "irrelevant"}


def doc(text: str, title: str = "Abbey") -> Document:
    return Document(text, metadata={"title": title})


class TableGrader:
    """A DocumentGrader double: the score is looked up by document text."""

    def __init__(self, scores: dict[str, float], bar: float = 0.5):
        self.scores, self.bar = scores, bar

    def grade(self, question, document):
        s = self.scores.get(document.page_content, 0.0)
        return Grade(s >= self.bar, s)

    def grade_many(self, question, documents):
        return [self.grade(question, d) for d in documents]


DOCS = [doc("a"), doc("b"), doc("c", "Abbey")]


def local(scores, **kw):
    """A LocalJudge on a table grader; the answerability check is off unless a test turns it on."""
    return LocalJudge(grader=TableGrader(scores), irrelevant_below=0.3, ambiguity_margin=0.05,
                      **{"relevant_above": None, "check_answerable": False, **kw})


def test_local_sufficient_keeps_the_passing_documents_best_first():
    j = local({"a": 0.6, "b": 0.1, "c": 0.9}).judge("When was the abbey founded?", DOCS)
    assert j.verdict == "sufficient" and j.keep == (2, 0) and not j.fallback


def test_relevant_above_overrides_the_graders_own_flag():
    j = local({"a": 0.6, "b": 0.1, "c": 0.9}, relevant_above=0.8).judge("When was the abbey founded?", DOCS)
    assert j.verdict == "sufficient" and j.keep == (2,)
    assert local({"a": 0.6}, relevant_above=0.8).judge("When was the abbey founded?", DOCS).verdict == "insufficient"


def test_local_insufficient_when_on_topic_but_nothing_passes():
    j = local({"a": 0.4, "b": 0.35}).judge("When was the abbey founded?", DOCS)
    assert j.verdict == "insufficient" and j.keep == ()


def test_local_irrelevant_below_the_threshold_and_for_no_documents():
    assert local({"a": 0.1}).judge("When was the abbey founded?", DOCS).verdict == "irrelevant"
    assert local({}).judge("When was the abbey founded?", []).verdict == "irrelevant"


def test_local_ambiguous_for_a_pronoun_without_antecedent():
    j = local({"a": 0.9}).judge("When did he die?", DOCS)
    assert j.verdict == "ambiguous" and "he" in j.clarifying_question


def test_local_ambiguous_when_the_best_documents_split_between_titles():
    docs = [doc("p", "Mercury (planet)"), doc("e", "Mercury (element)")]
    j = local({"p": 0.8, "e": 0.78}).judge("How dense is mercury?", docs)
    assert j.verdict == "ambiguous" and "Mercury (planet)" in j.clarifying_question
    # naming the one you mean removes the ambiguity
    assert local({"p": 0.8, "e": 0.78}).judge("How dense is the planet mercury?", docs).verdict == "sufficient"
    # and a clear winner is not ambiguous
    assert local({"p": 0.9, "e": 0.6}).judge("How dense is mercury?", docs).verdict == "sufficient"


def test_local_irrelevance_wins_over_vagueness():
    assert local({"a": 0.05}).judge("What did they build?", DOCS).verdict == "irrelevant"


def test_ambiguity_signals():
    assert underspecified("When did he die?") and underspecified("What is it?")
    assert underspecified("When did Chopin die?") is None
    assert underspecified("What did they build in 1066?") is None  # a number can be what "they" refers to
    assert underspecified("Can I book a table for 6?") is None
    assert has_antecedent("Is it in Warsaw?") and not has_antecedent("Is it far?")
    assert title_split("q", [doc("x", "A")], [0.9], 0.1) is None
    assert title_split("q", [doc("x"), doc("y")], [0.9, 0.89], 0.1) is None  # same title: no split


# ---------------------------------------------------------------- answerability inside the local judge
ABBEY = [doc("The abbey was founded in 1066 by monks from Cluny."), doc("The abbey has a large library.")]


def test_answerability_drops_relevant_passages_that_cannot_hold_the_answer():
    scores = {ABBEY[0].page_content: 0.8, ABBEY[1].page_content: 0.9}
    judge = local(scores, check_answerable=True)
    j = judge.judge("When was the abbey founded?", ABBEY)  # only the first passage has a date
    assert j.verdict == "sufficient" and j.keep == (0,)
    j = judge.judge("How many books does the abbey library hold?", ABBEY[1:])  # relevant, but no number in it
    assert j.verdict == "insufficient" and j.keep == () and "number" in j.note
    j = judge.judge("When was the abbey in Cambridge founded?", ABBEY)  # the key name is in no passage
    assert j.verdict == "insufficient" and "cambridge" in j.note
    j = judge.judge("Which monks did not found the abbey?", ABBEY)  # a "not" question, no "not" sentence
    assert j.verdict == "insufficient" and "not" in j.note
    # the same questions without the check: the grader's scores alone say sufficient
    assert local(scores).judge("How many books does the abbey library hold?", ABBEY[1:]).verdict == "sufficient"


def test_answerability_does_not_turn_an_uncovered_question_into_insufficient():
    j = local({"x": 0.05}, check_answerable=True).judge("When was the abbey in Cambridge founded?", [doc("x")])
    assert j.verdict == "irrelevant"


def test_fail_soft_keeps_the_top_candidates():
    j = fail_soft(DOCS, "boom", top=2)
    assert j.verdict == "sufficient" and j.keep == (0, 1) and j.fallback and "boom" in j.note


# ---------------------------------------------------------------- LLM judge on a scripted model
@pytest.mark.parametrize(
    "reply, verdict, keep",
    [
        ({"verdict": "sufficient", "keep": [3, 1, 3, 9]}, "sufficient", (2, 0)),  # dupes and out of range dropped
        ({"verdict": "insufficient", "corrected_query": " abbey founding year "}, "insufficient", ()),
        ({"verdict": "ambiguous", "clarifying_question": "Which abbey?"}, "ambiguous", ()),
        ({"verdict": "irrelevant", "reason": "about football"}, "irrelevant", ()),
    ],
)
def test_llm_judge_each_verdict(reply, verdict, keep):
    model = scripted(reply)
    j = LLMJudge(model).judge("When was the abbey founded?", DOCS)
    assert (j.verdict, j.keep, j.fallback) == (verdict, keep, False)
    if verdict == "insufficient":
        assert j.corrected_query == "abbey founding year"
    if verdict == "ambiguous":
        assert j.clarifying_question == "Which abbey?"
    prompt = model.calls[0]["messages"][-1].content
    assert "When was the abbey founded?" in prompt and "[3] Abbey" in prompt


def test_llm_judge_ambiguous_without_a_question_gets_a_default_one():
    j = LLMJudge(scripted({"verdict": "ambiguous"})).judge("Which one?", DOCS)
    assert j.verdict == "ambiguous" and j.clarifying_question


@pytest.mark.parametrize("reply", ["I think it is fine", {"verdict": "maybe"}, {"verdict": "sufficient", "keep": [7]},
                                   {"verdict": "sufficient"}, RuntimeError("503 overloaded")])
def test_llm_judge_malformed_or_failed_output_is_fail_soft(reply):
    j = LLMJudge(scripted(reply), fallback_keep=2).judge("When was the abbey founded?", DOCS)
    assert j.verdict == "sufficient" and j.keep == (0, 1) and j.fallback and j.note.startswith("fail-soft")


def test_llm_judge_does_not_call_the_model_without_documents():
    model = scripted()
    assert LLMJudge(model).judge("When was the abbey founded?", []).verdict == "irrelevant" and model.calls == []


@pytest.mark.parametrize("judge", [local({"a": 0.9}), LLMJudge(scripted({"verdict": "sufficient", "keep": [1]}))],
                         ids=["local", "llm"])
def test_every_judge_follows_the_contract(judge):
    j = judge.judge("When was the abbey founded?", DOCS)
    assert isinstance(j, Judgement) and j.verdict in VERDICTS and all(0 <= i < len(DOCS) for i in j.keep)
    with pytest.raises(ValueError, match="question"):
        judge.judge("   ", DOCS)


# ---------------------------------------------------------------- answerability helpers
@pytest.mark.parametrize("module", ["ragkit.offline.judge", "ragkit.graphs.crag"])
def test_worked_examples_in_docstrings_hold(module):
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module)).failed == 0


@pytest.mark.parametrize("question, passage, gap", [
    ("Who founded Telnet?", "Telnet was founded by Bolt, Beranek and Newman.", None),
    ("Who founded the company?", "the company was founded in a garage.", "name"),
    ("What was the trend from the 1970s on?", "Since the 1970s the share has grown.", None),  # "1970s" holds "1970"
    ("How much did Harvard's endowment grow?", "Harvard's endowment grew by 8%.", None),
    ("How much did Yale's endowment grow?", "Harvard's endowment grew by 8%.", "yale"),
    ("Why did the monks leave?", "The monks left because of the plague.", None),  # "why": no type check
    ("What did the king never sign?", "The king never signed the charter.", None),
])
def test_answerability_gap_cases(question, passage, gap):
    from ragkit.offline.judge import answerability_gap

    found = answerability_gap(question, passage)
    assert found is None if gap is None else gap in found
