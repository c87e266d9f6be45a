"""The advanced pipeline's two roles: intent classifier and query transformer, local and LLM, and the factory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.documents import Document

from ragkit.core.chat_models import ScriptedChatModel, scripted
from ragkit.offline.small_talk import (
    CANNED_REPLIES,
    CHITCHAT_EXAMPLES,
    RAG_EXAMPLES,
    LocalIntentClassifier,
    LocalQueryTransformer,
    LocalSmallTalk,
)
from ragkit.roles.llm_queries import (
    SMALL_TALK_PROMPT,
    IntentClassifier,
    LLMIntentClassifier,
    LLMQueryTransformer,
    LLMSmallTalk,
    QueryTransformer,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    Document("Chablis is a dry white wine from Burgundy. It pairs well with oysters and grilled fish.", metadata={"id": "w1"}),
    Document("Muscadet, a crisp white from the Loire, is the classic match for oysters. It is sold by the glass.",
             metadata={"id": "w2"}),
    Document("The terrace opens in May and closes at the end of September.", metadata={"id": "t1"}),
]


# ---------------------------------------------------------------- intent: local
@pytest.fixture(scope="module")
def classifier() -> LocalIntentClassifier:
    return LocalIntentClassifier()


@pytest.mark.parametrize("message, route, kind", [
    ("Hello there, good morning!", "chitchat", "greeting"),
    ("thank you very much", "chitchat", "thanks"),
    ("ok bye then", "chitchat", "farewell"),
    ("what are you exactly?", "chitchat", "about_assistant"),
    ("How do I configure the retry limit?", "rag", None),
    ("Hi, which file formats can I upload?", "rag", None),  # a greeting in front of a real question
    ("Thanks! And what does the warranty cover?", "rag", None),
])
def test_local_intent_routes_and_small_talk_names_its_kind(classifier, message, route, kind) -> None:
    intent = classifier.classify(message)
    assert intent.route == route, intent.note
    assert isinstance(classifier, IntentClassifier)
    if kind is not None:
        talk = LocalSmallTalk(embedder=classifier.embedder)
        assert talk.kind(message) == kind and talk.reply(message) == CANNED_REPLIES[kind]


def test_every_kind_of_small_talk_has_a_canned_reply() -> None:
    assert set(CHITCHAT_EXAMPLES) | {"other"} == set(CANNED_REPLIES)


def test_the_examples_are_not_copied_from_the_dev_or_test_sets() -> None:
    examples = {t.lower().strip() for t in [*RAG_EXAMPLES, *(x for xs in CHITCHAT_EXAMPLES.values() for x in xs)]}
    for path in (ROOT / "benchmarks" / "advanced" / "intent_dev.json", ROOT / "data" / "eval" / "intent_test.json"):
        texts = {row["text"].lower().strip() for row in json.loads(path.read_text(encoding="utf-8"))}
        assert not examples & texts, f"{path.name} shares {sorted(examples & texts)[:3]}"


def test_local_intent_needs_examples_of_both_routes() -> None:
    with pytest.raises(ValueError, match="both"):
        LocalIntentClassifier(rag_examples=(), chitchat_examples={"thanks": ("thanks",)})


# ---------------------------------------------------------------- intent: LLM
def test_llm_intent_parses_a_literal_and_falls_back_to_rag() -> None:
    assert LLMIntentClassifier(scripted('{"route": "chitchat", "reason": "a greeting"}')).classify("hi").route == "chitchat"
    for reply in ('{"route": "weather"}', "chitchat", RuntimeError("quota")):
        intent = LLMIntentClassifier(scripted(reply)).classify("hi")
        assert (intent.route, intent.fallback) == ("rag", True) and intent.note


def test_small_talk_with_a_model_and_with_a_failing_one() -> None:
    canned = lambda q: CANNED_REPLIES["greeting"]  # noqa: E731
    assert LLMSmallTalk(scripted("Hello! What can I find for you?"), SMALL_TALK_PROMPT, canned).reply("hey") == \
        "Hello! What can I find for you?"
    assert LLMSmallTalk(scripted(RuntimeError("down")), SMALL_TALK_PROMPT, canned).reply("hey") == CANNED_REPLIES["greeting"]


# ---------------------------------------------------------------- query transformer: local
def test_local_alternatives_are_rm3_expansions_one_per_feedback_document() -> None:
    t = LocalQueryTransformer(prf_terms=2, hypothetical_sentences=0)
    out = t.transform("Which wine goes with oysters?", DOCS)
    assert out.queries == ("Which wine goes with oysters? chablis dry", "Which wine goes with oysters? muscadet crisp")
    assert out.hypothetical == "" and not out.fallback and isinstance(t, QueryTransformer)  # the terrace shares no term


def test_local_alternatives_skip_what_was_tried_and_fall_back_to_keywords_without_documents() -> None:
    t = LocalQueryTransformer(prf_terms=2, hypothetical_sentences=0)
    assert t.transform("Which wine goes with oysters?", DOCS, tried=["Which wine goes with oysters? chablis dry"]).queries == (
        "Which wine goes with oysters? muscadet crisp",)
    assert t.transform("Which wine goes with oysters?").queries == ("wine goes oysters",)
    assert LocalQueryTransformer(n_alternatives=0, hypothetical_sentences=0).transform("q?", DOCS).queries == ()


def test_the_local_hypothetical_document_is_made_of_real_sentences_of_the_first_pass() -> None:
    out = LocalQueryTransformer(hypothetical_sentences=2).transform("Which wine goes with oysters?", DOCS)
    text = " ".join(d.page_content for d in DOCS)
    assert out.hypothetical and all(s in text for s in out.hypothetical.split(". ") if s)
    assert "terrace" not in out.hypothetical  # relevance first
    assert len(out.queries) == 2 and "2 feedback queries" in out.note


@pytest.mark.parametrize("bad", [{"n_alternatives": -1}, {"prf_terms": 1.5}, {"hypothetical_sentences": True}])
def test_local_transformer_settings_are_checked(bad) -> None:
    with pytest.raises(ValueError):
        LocalQueryTransformer(**bad)


# ---------------------------------------------------------------- query transformer: LLM
def test_llm_transform_cleans_its_queries_and_is_told_what_was_tried() -> None:
    model = ScriptedChatModel(responses=[{"queries": ["okapi bm25", "  okapi  bm25 ", "What is BM25?", "bm25 idf", ""],
                                          "hypothetical_answer": "BM25 ranks documents by term frequency and idf."}])
    out = LLMQueryTransformer(model).transform("What is BM25?", tried=["bm25 idf"])
    assert out.queries == ("okapi bm25",) and "dropped" in out.note
    assert out.hypothetical.startswith("BM25 ranks") and not out.fallback
    assert "bm25 idf" in model.calls[0]["messages"][0].content  # the retry prompt names what was tried


@pytest.mark.parametrize("reply", ['{"queries": ["a", "b"]', '{"queries": "one", "hypothetical_answer": 3}',
                                   '{"hypothetical_answer": "x"}', RuntimeError("timeout")])
def test_malformed_llm_transform_output_is_a_visible_fallback(reply) -> None:
    out = LLMQueryTransformer(scripted(reply)).transform("What is BM25?")
    assert out.fallback and out.queries == () and out.hypothetical == "" and out.note.startswith("no transform")


# ---------------------------------------------------------------- which model each role runs on
def test_the_intent_classifier_judges_on_judge_model_and_the_transformer_writes_on_chat_model() -> None:
    from ragkit.graphs.advanced_rag import build_advanced_rag_graph

    writer_model = scripted({"queries": ["a", "b", "c"], "hypothetical_answer": "h"}, "{}", cycle=True)
    judge_model = scripted({"route": "rag"}, "{}", cycle=True)
    arms = {"hybrid": lambda q: [Document("Chablis goes with oysters.", metadata={"id": "w1"})]}
    graph = build_advanced_rag_graph(arms=arms, chat_model=writer_model, judge_model=judge_model, rerank=False)
    graph.invoke({"question": "Which wine goes with oysters?"})
    assert "needs a document search" in str(judge_model.calls[0]["messages"][0].content)  # the intent prompt
    assert "alternative search queries" in str(writer_model.calls[0]["messages"][0].content)  # the transform prompt
