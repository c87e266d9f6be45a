"""The statute QA pieces on their own: question classifier and evidence grader (local and LLM, through the
factory), paragraph documents and their citations, pinning, citation checks, token counting, strategies."""

from __future__ import annotations

import json

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage

from ragkit.core.chat_models import scripted
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.paragraphs import (
    answer_citations,
    bracket_citations,
    cite_paragraphs,
    paragraphs_of,
    remove_citations,
    split_paragraphs,
)
from ragkit.domains.statute.strategies import STRATEGIES, StrategySet, strategy_searches
from ragkit.goldsets import eval_dir
from ragkit.graphs.statute_helpers import (
    check_answer_citations,
    pin,
    pinned_articles,
    record_usage,
    usage_totals,
    with_titles,
)
from ragkit.roles.protocols import Grade, Groundedness
from ragkit.roles.evidence import EvidenceGrade, LLMEvidenceGrader, LocalEvidenceGrader, answer_gap, missing_names
from ragkit.roles.factory import make_roles
from ragkit.roles.question_classifier import (
    QUESTION_KINDS,
    QUESTION_TYPES,
    LLMQuestionClassifier,
    LocalQuestionClassifier,
    QuestionType,
    decide,
)

ARTICLES = load_statute()


# ---------------------------------------------------------------- the factory builds both roles
def test_the_factory_builds_local_and_llm_versions_of_both_roles():
    roles = make_roles()
    assert isinstance(roles.question_classifier, LocalQuestionClassifier)
    assert isinstance(roles.evidence_grader, LocalEvidenceGrader)
    assert roles.evidence_grader.grader is roles.grader  # the local evidence grader reuses the shared document grader
    llm = make_roles(scripted("{}"), judge_model=scripted("{}"))
    assert isinstance(llm.question_classifier, LLMQuestionClassifier) and isinstance(llm.evidence_grader, LLMEvidenceGrader)
    assert llm.question_classifier.model is llm.judge_model and llm.evidence_grader.model is llm.judge_model


def test_both_implementations_of_each_role_follow_its_protocol():
    from ragkit.roles.evidence import EvidenceGrader
    from ragkit.roles.question_classifier import QuestionClassifier

    assert isinstance(LocalQuestionClassifier(), QuestionClassifier) and isinstance(LLMQuestionClassifier(scripted("{}")), QuestionClassifier)
    assert isinstance(LocalEvidenceGrader(grader=FlatGrader()), EvidenceGrader) and isinstance(LLMEvidenceGrader(scripted("{}")), EvidenceGrader)


# ---------------------------------------------------------------- question classifier
def test_the_types_cover_exactly_the_five_kinds_with_examples():
    assert sorted(s.name for s in QUESTION_TYPES) == sorted(QUESTION_KINDS)
    assert all(s.description and s.examples for s in QUESTION_TYPES)


@pytest.mark.parametrize("question", ["What does Article 12(3) require?", "section 37 - imprisonment?", "제12조는 무엇입니까?"])
def test_a_citation_is_read_by_the_parser_without_a_model(question):
    clf = LocalQuestionClassifier(embedder=object())  # never used: no model is needed for a citation
    assert clf.classify(question).kind == "citation" and clf._router is None


def test_decide_refuses_only_by_the_margin_and_breaks_ties_towards_single():
    assert decide({"single": 0.5, "definition": 0.5, "multihop": 0.1, "unanswerable": 0.52}, 0.05).kind == "single"
    assert decide({"single": 0.5, "definition": 0.5, "multihop": 0.1, "unanswerable": 0.56}, 0.05).kind == "unanswerable"
    assert decide({"single": 0.4, "definition": 0.6, "multihop": 0.1, "unanswerable": 0.0}, 0.05).kind == "definition"


def test_the_written_examples_are_not_near_duplicates_of_the_gold_questions():
    from ragkit.core.embeddings import embed, load_embedder

    gold = [i["question"] for i in json.loads((eval_dir() / "statute_qa.json").read_text(encoding="utf-8"))]
    examples = [e for spec in QUESTION_TYPES for e in spec.examples]
    folded = {" ".join(q.lower().split()) for q in gold}
    copies = sum(" ".join(e.lower().split()) in folded for e in examples)
    assert copies == 0, f"{copies} example(s) repeat a gold question: rewrite them (the test does not say which, to keep the test split unseen)"
    embedder = load_embedder()
    sims = embed(embedder, examples) @ embed(embedder, gold).T
    assert int((sims > 0.85).sum()) == 0, "an example is a near-duplicate of a gold question: rewrite it (do not look at which)"


def test_the_local_classifier_labels_clear_cases():
    clf = LocalQuestionClassifier()
    assert clf.classify("What does the Act mean by an oily mixture?").kind == "definition"
    assert clf.classify("What are the opening hours of the post office in the capital?").kind == "unanswerable"
    assert set(clf.scores("How long may a gillnet stay in the water?")) == {"single", "definition", "multihop", "unanswerable"}


def test_the_llm_classifier_uses_a_literal_field_and_falls_back_to_single():
    model = scripted('{"kind": "definition", "reason": "asks what a term means"}')
    assert LLMQuestionClassifier(model).classify("What is a vessel?") == QuestionType("definition", 1.0, "asks what a term means")
    for bad in ('{"kind": "poem"}', "no json", RuntimeError("quota")):
        out = LLMQuestionClassifier(scripted(bad)).classify("What is a vessel?")
        assert out.kind == "single" and out.fallback
    prompt = model.calls[0]["messages"][0].content
    assert all(kind in prompt for kind in QUESTION_KINDS)


# ---------------------------------------------------------------- evidence grader
class FlatGrader:
    def __init__(self, score=0.9):
        self.score = score

    def grade_many(self, question, documents):
        return [Grade(self.score >= 0.5, self.score) for _ in documents]


def test_missing_names_reads_names_not_numbers_nor_sentence_openers():
    docs = [Document("A ferry of 100 gross tonnage in Talvora shall keep a record book.")]
    assert missing_names("A ferry carries 200 people. Apart from that, is Talvora's rule like Norway's?", docs) == ["norway"]
    assert missing_names("What does the Authority do?", [Document("The Authority grants permits.")]) == []


def test_the_local_evidence_grader_checks_names_relevance_and_answer_type():
    docs = [Document("Appeals go to the Coastal Appeals Board."), Document("An appeal is lodged within 30 days.")]
    grader = LocalEvidenceGrader(grader=FlatGrader(0.9), relevant_above=0.5)
    assert grader.grade("How many days do I have to appeal?", docs) == EvidenceGrade(
        "sufficient", (1,), 0.9, "1 of 2 documents support an answer")
    short = grader.grade("How many days does the Administrative Court take?", docs)
    assert short.verdict == "short" and "administrative" in short.note
    assert LocalEvidenceGrader(grader=FlatGrader(0.1), relevant_above=0.5).grade("How many days to appeal?", docs).verdict == "short"
    assert grader.grade("How many days to appeal?", []).verdict == "short"


def test_a_pinned_document_is_relevant_on_the_users_own_account():
    pinned = Document("Fish below the size go back to the sea.", metadata={"pinned": True})
    out = LocalEvidenceGrader(grader=FlatGrader(0.0), relevant_above=0.5).grade("What does Article 15 say about small fish?", [pinned])
    assert out.sufficient and out.supporting == (0,)


def test_answer_gap_asks_for_the_kind_of_answer_but_not_for_polarity():
    assert answer_gap("Who prepares the assessment?", "It is prepared by a person accredited by the Authority.") is None
    assert answer_gap("When must the report be published?", "The Authority publishes a report.") is not None
    assert answer_gap("A ferry has no garbage record book. What fine applies?", "A breach is punishable by a fine.") is None


def test_the_llm_evidence_grader_parses_its_schema_and_fails_soft():
    docs = [Document("a"), Document("b"), Document("c")]
    assert LLMEvidenceGrader(scripted('{"verdict": "sufficient", "supporting": [3, 1, 3, 0]}')).grade("q?", docs).supporting == (2, 0)
    assert LLMEvidenceGrader(scripted('{"verdict": "sufficient"}')).grade("q?", docs).supporting == (0, 1, 2)
    assert LLMEvidenceGrader(scripted('{"verdict": "short", "supporting": [1]}')).grade("q?", docs) == EvidenceGrade("short", (), 0.0, "")
    for bad in ('{"verdict": "maybe"}', RuntimeError("down")):
        out = LLMEvidenceGrader(scripted(bad)).grade("q?", docs)
        assert out.sufficient and out.fallback and out.supporting == (0, 1, 2)


# ---------------------------------------------------------------- paragraphs and citations
def test_every_article_splits_into_its_numbered_paragraphs():
    for article in ARTICLES:
        paragraphs = split_paragraphs(article)
        numbered = [p for p in paragraphs if p.metadata["paragraph"] is not None]
        assert len(numbered) == article.metadata["paragraphs"]
        assert [p.metadata["paragraph"] for p in numbered] == list(range(1, len(numbered) + 1))
        assert all(p.metadata["article_id"] == article.metadata["id"] and not p.page_content.startswith("(") for p in numbered)
    ids = [p.metadata["id"] for p in paragraphs_of(ARTICLES)]
    assert len(ids) == len(set(ids)) and "art-3" in ids and "art-12(3)" in ids


def test_cited_labels_round_trip():
    paras = split_paragraphs(ARTICLES[11])  # Article 12
    text = cite_paragraphs("Notice is needed [3]. Appeals go under Article 38 [4] [9].", paras)
    assert text == "Notice is needed [Article 12(3)]. Appeals go under Article 38 [Article 12(4)]."
    assert [c.label() for c in bracket_citations(text)] == ["Article 12(3)", "Article 12(4)"]  # the quoted "Article 38" is no citation
    assert [(s, [c.label() for c in cs]) for s, cs in answer_citations(text)][1] == ("Appeals go under Article 38.", ["Article 12(4)"])
    assert remove_citations(text, {"Article 12(4)"}) == "Notice is needed [Article 12(3)]. Appeals go under Article 38."


def test_check_answer_citations_uses_the_verifier_once_per_cited_paragraph():
    class Recording:
        def __init__(self):
            self.calls = []

        def check(self, documents, answer):
            self.calls.append(([d.metadata["id"] for d in documents], answer))
            return Groundedness("14 days" in answer and documents[0].metadata["id"] == "art-12(3)")

    verifier = Recording()
    retrieved = {12: ARTICLES[11]}
    report = check_answer_citations("Notice of 14 days [Article 12(3)] [Article 12(1)]. Anything [Article 12].", retrieved, verifier)
    assert report.valid == ("Article 12(3)",) and report.unsupported == ("Anything.",)
    assert ("Article 12(1)", "does not support its sentence") in report.invalid and "art-12(1)" in report.blamed
    assert verifier.calls[2][0] == ["art-12(1)", "art-12(2)", "art-12(3)", "art-12(4)"]  # an article-level citation: all its paragraphs
    assert not report.verified and check_answer_citations("No citation at all.", retrieved, verifier).unsupported == ("No citation at all.",)


# ---------------------------------------------------------------- pins, titles, usage
def test_pinned_articles_and_pin():
    assert pinned_articles("Do Arts. 6 to 8 apply, or § 6 and 제13조?", range(1, 41)) == ([6, 7, 8, 13], [])
    assert pinned_articles("Article 41?", range(1, 41))[0] == []
    a, b, c = ARTICLES[:3]
    ranked = pin([(a, 0.5), (b, 0.4), (c, 0.3)], [c], 2)
    assert [d.metadata["id"] for d in ranked] == ["art-3", "art-1"] and ranked[0].metadata["score"] > ranked[1].metadata["score"]
    assert len(pin([(a, 0.5)], [b, c], 1)) == 2  # every pinned article is kept, whatever k
    assert with_titles("Is Art. 12(3) like Article 99?", {12: "Suspension"}) == "Is Art. 12(3) (Suspension) like Article 99?"


def test_record_usage_counts_structured_calls_and_nests_cleanly():
    reply = AIMessage('{"kind": "single"}', usage_metadata={"input_tokens": 40, "output_tokens": 4, "total_tokens": 44})
    clf = LLMQuestionClassifier(scripted(reply, reply))
    with record_usage() as outer:
        clf.classify("How long?")
        with record_usage() as inner:
            clf.classify("How far?")
    assert (outer.calls, outer.total_tokens, inner.calls, inner.total_tokens) == (1, 44, 1, 44)
    assert usage_totals([outer.entry("a"), inner.entry("b")])["input_tokens"] == 80


# ---------------------------------------------------------------- strategies
def test_strategies_are_lazy_and_share_one_hybrid():
    searches = strategy_searches(ARTICLES)
    assert sorted(searches) == sorted(STRATEGIES) and "built=False" in repr(searches["graph"])
    shared = StrategySet(ARTICLES)
    graph = shared.get("graph")
    assert graph.base is shared.get("hybrid") and shared.built == ["graph", "hybrid"]
    hits = graph.search_with_scores("What fine applies to a breach of the gear rules in Article 17?", 5)
    assert len(hits) == 5 and np.all(np.diff([s for _, s in hits]) <= 1e-12)
    with pytest.raises(KeyError, match="unknown strategy"):
        shared.get("bm25")
