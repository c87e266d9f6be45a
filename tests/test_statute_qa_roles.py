"""The statute QA pieces on their own: question classifier and evidence grader (local and LLM, as the graph
picks them), paragraph documents and their citations, pinning, citation checks, token counting, strategies."""

from __future__ import annotations

import json
from typing import get_args

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage

from ragkit.core.chat_models import scripted
from ragkit.core.nlp import split_sentences
from ragkit.domains.statute.citations import pinned_articles, with_titles
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.paragraphs import (
    answer_citations,
    bracket_citations,
    check_answer_citations,
    cite_paragraphs,
    paragraphs_of,
    remove_citations,
    split_paragraphs,
)
from ragkit.domains.statute.questions import (
    KINDS,
    QuestionKind,
    llm_evidence_grader,
    llm_question_classifier,
    local_evidence_grader,
    local_question_classifier,
)
from ragkit.domains.statute.strategies import STRATEGIES, StrategySet, strategy_searches
from ragkit.goldsets import eval_dir
from ragkit.graphs.statute_qa import pin, record_usage, statute_qa_graph, usage_totals
from ragkit.offline.evidence import LocalEvidenceGrader, answer_gap, missing_names
from ragkit.offline.question_classifier import LocalQuestionClassifier, decide
from ragkit.roles.llm_analysis import LLMEvidenceGrader
from ragkit.roles.protocols import Grade, Groundedness
from ragkit.roles.router_protocols import RouteSpec
from ragkit.roles.statute_protocols import EvidenceGrade, EvidenceGrader, KindDecision, QuestionClassifier

ARTICLES = load_statute()
QUESTION_KINDS = get_args(QuestionKind)


# ---------------------------------------------------------------- the graph picks both roles
class OneArticle:
    def search_with_scores(self, query, k=None):
        return [(ARTICLES[14], 1.0)]  # Article 15


def test_with_a_judge_model_the_judging_roles_run_on_it_and_the_writing_roles_on_the_chat_model():
    judge = scripted('{"kind": "single"}', '{"verdict": "sufficient", "supporting": [1]}', '{"grounded": true, "unsupported": []}')
    chat = scripted('{"answer": "Undersized fish go back to the sea [1].", "answered": true}')
    graph = statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: OneArticle() for name in STRATEGIES}, chat_model=chat,
                             judge_model=judge, max_hops=0).compile()  # the hop on a judge model: tests/test_statute_qa.py
    out = graph.invoke({"question": "What happens to undersized fish?"})
    assert out["outcome"] == "answered" and out["cited_labels"] == ["Article 15(1)"]
    assert len(judge.calls) == 3 and len(chat.calls) == 1  # classify, grade_evidence, verify / generate


def test_the_local_evidence_grader_uses_the_document_grader_passed_in():
    grader = FlatGrader(0.9)
    graph = statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: OneArticle() for name in STRATEGIES}, grader=grader,
                             question_classifier=lambda q: KindDecision("single", 1.0)).compile()
    out = graph.invoke({"question": "How many days does the Authority take to decide?"})
    assert grader.questions[0] == "How many days does the Authority take to decide?" and "grade_evidence" in out["path"]
    assert len(grader.questions) > 1 and "follow_references" in out["path"]  # the hop grades links with it too


def test_both_implementations_of_each_role_follow_its_protocol():
    assert isinstance(local_question_classifier(), QuestionClassifier)
    assert isinstance(llm_question_classifier(scripted("{}")), QuestionClassifier)
    assert isinstance(LocalEvidenceGrader(grader=FlatGrader()), EvidenceGrader)
    assert isinstance(llm_evidence_grader(scripted("{}")), EvidenceGrader)


# ---------------------------------------------------------------- question classifier
def test_the_kinds_cover_exactly_the_five_kinds_with_examples():
    assert sorted(s.name for s in KINDS) == sorted(QUESTION_KINDS)
    assert all(s.description and s.examples for s in KINDS)


@pytest.mark.parametrize("question", ["What does Article 12(3) require?", "section 37 - imprisonment?", "제12조는 무엇입니까?"])
def test_a_citation_is_read_by_the_parser_without_a_model(question):
    clf = local_question_classifier(embedder=object())  # never used: no model is needed for a citation
    assert clf.classify(question).kind == "citation" and clf._router is None


def test_decide_refuses_only_by_the_margin_and_breaks_ties_towards_single():
    def kind(scores):
        return decide(scores, 0.05, "unanswerable", "single").kind

    assert kind({"single": 0.5, "definition": 0.5, "multihop": 0.1, "unanswerable": 0.52}) == "single"
    assert kind({"definition": 0.5, "single": 0.5, "multihop": 0.1, "unanswerable": 0.52}) == "single"
    assert kind({"single": 0.5, "definition": 0.5, "multihop": 0.1, "unanswerable": 0.56}) == "unanswerable"
    assert kind({"single": 0.4, "definition": 0.6, "multihop": 0.1, "unanswerable": 0.0}) == "definition"


def test_the_generic_classifier_checks_its_kinds():
    kinds = [RouteSpec("a", "one"), RouteSpec("b", "two")]
    with pytest.raises(ValueError, match="safe kind 'c'"):
        LocalQuestionClassifier(kinds, refuse="b", safe="c")
    with pytest.raises(ValueError, match="rule kind 'b'"):
        LocalQuestionClassifier(kinds, refuse="b", safe="a", rules={"b": lambda q: ""})
    with pytest.raises(ValueError, match="fallback route 'z'"):
        LocalQuestionClassifier(kinds, refuse="z", safe="a")


def test_the_written_examples_are_not_near_duplicates_of_the_gold_questions():
    from ragkit.core.embeddings import embed, load_embedder

    gold = [i["question"] for i in json.loads((eval_dir() / "statute_qa.json").read_text(encoding="utf-8"))]
    examples = [e for spec in KINDS for e in spec.examples]
    folded = {" ".join(q.lower().split()) for q in gold}
    copies = sum(" ".join(e.lower().split()) in folded for e in examples)
    assert copies == 0, f"{copies} example(s) repeat a gold question: rewrite them (the test does not say which, to keep the test split unseen)"
    embedder = load_embedder()
    sims = embed(embedder, examples) @ embed(embedder, gold).T
    assert int((sims > 0.85).sum()) == 0, "an example is a near-duplicate of a gold question: rewrite it (do not look at which)"


def test_the_local_classifier_labels_clear_cases():
    clf = local_question_classifier()
    assert clf.classify("What does the Act mean by an oily mixture?").kind == "definition"
    assert clf.classify("What are the opening hours of the post office in the capital?").kind == "unanswerable"
    assert set(clf.scores("How long may a gillnet stay in the water?")) == {"single", "definition", "multihop", "unanswerable"}


def test_the_llm_classifier_uses_a_literal_field_and_falls_back_to_single():
    model = scripted('{"kind": "definition", "reason": "asks what a term means"}')
    assert llm_question_classifier(model).classify("What is a vessel?") == KindDecision("definition", 1.0, "asks what a term means")
    for bad in ('{"kind": "poem"}', "no json", RuntimeError("quota")):
        out = llm_question_classifier(scripted(bad)).classify("What is a vessel?")
        assert out.kind == "single" and out.fallback
    prompt = model.calls[0]["messages"][0].content
    assert all(kind in prompt for kind in QUESTION_KINDS) and "Coastal Waters Act" in prompt


def test_the_llm_prompts_name_no_corpus_of_their_own():
    from ragkit.roles.llm_analysis import CLASSIFIER_PROMPT, EVIDENCE_PROMPT

    for prompt in (CLASSIFIER_PROMPT, EVIDENCE_PROMPT):
        text = prompt.format(question="q", kinds="k", corpus="C", refuse="r", safe="s", documents="d", answers="a", missing="")
        assert "statute" not in text.lower() and "Coastal" not in text


# ---------------------------------------------------------------- evidence grader
class FlatGrader:
    def __init__(self, score=0.9):
        self.score, self.questions = score, []

    def grade(self, question, document):
        return self.grade_many(question, [document])[0]

    def grade_many(self, question, documents):
        self.questions.append(question)
        return [Grade(self.score >= 0.5, self.score) for _ in documents]


def test_missing_names_reads_names_not_numbers_nor_sentence_openers():
    docs = [Document("A ferry of 100 gross tonnage in Talvora shall keep a record book.")]
    assert missing_names("A ferry carries 200 people. Apart from that, is Talvora's rule like Norway's?", docs) == ["norway"]
    assert missing_names("What does the Authority do?", [Document("The Authority grants permits.")]) == []


def test_a_month_or_weekday_in_a_described_case_is_a_date_not_a_missing_name():
    season = [Document("From 1 May to 31 July no person shall approach a marked haul-out site.")]
    assert missing_names("In June a photographer walks up to a haul-out site. Is that allowed?", season) == []
    assert missing_names("A ferry from Norway sails on a Sunday in June. Must it stop?", season) == ["norway"]


def test_the_local_evidence_grader_checks_names_relevance_and_answer_type():
    docs = [Document("Appeals go to the Coastal Appeals Board."), Document("An appeal is lodged within 30 days.")]
    grader = local_evidence_grader(grader=FlatGrader(0.9), relevant_above=0.5)
    assert grader.grade("How many days do I have to appeal?", docs) == EvidenceGrade(
        "sufficient", (1,), 0.9, "1 of 2 documents support an answer")
    short = grader.grade("How many days does the Administrative Court take?", docs)
    assert short.verdict == "short" and "administrative" in short.note
    assert local_evidence_grader(grader=FlatGrader(0.1), relevant_above=0.5).grade("How many days to appeal?", docs).verdict == "short"
    assert grader.grade("How many days to appeal?", []).verdict == "short"


def test_a_pinned_document_is_relevant_on_the_users_own_account():
    pinned = Document("Fish below the size go back to the sea.", metadata={"pinned": True})
    out = local_evidence_grader(grader=FlatGrader(0.0), relevant_above=0.5).grade("What does Article 15 say about small fish?", [pinned])
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
    clf = llm_question_classifier(scripted(reply, reply))
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


# ---------------------------------------------------------------- refusing unsearched needs a clear win
STORY = "We run a small campsite and our toilet block drains straight onto the sand and into the sea. Is that a problem?"


def test_a_wider_refusal_margin_searches_a_story_worded_question_before_refusing_it() -> None:
    """A first-person story looks like the off-topic examples ("Which beaches have lifeguards?") more than a
    statute question does, so the refusing kind wins, but narrowly: with a margin of 0.25 the classifier does not
    suspect it and the graph names the discharge article; at 0.15 (the default) the classifier suspects it. An
    off-topic question is suspected at either margin: refused unsearched at the default ``suspect_refuse_below``
    (None), and with a bar, searched and refused on its weak evidence."""
    articles = load_statute()
    wide = local_question_classifier(articles, refuse_margin=0.25)
    strategies = strategy_searches(articles)
    graph = statute_qa_graph(articles, strategies=strategies, domain=STATUTE, question_classifier=wide).compile()
    story = graph.invoke({"question": STORY})
    assert story.get("refusal") != "unanswerable" and "Article 24" in story["answer"]  # the discharge article
    weather = graph.invoke({"question": "What is the weather like on the coast tomorrow?"})
    assert weather["refusal"] == "unanswerable" and "retrieve" not in weather["path"]
    searched = statute_qa_graph(articles, strategies=strategies, domain=STATUTE, question_classifier=wide,
                                suspect_refuse_below=0.02).compile()
    weather = searched.invoke({"question": "What is the weather like on the coast tomorrow?"})
    assert weather["outcome"] == "refused" and weather["suspected_unanswerable"] and "retrieve" in weather["path"]
    assert local_question_classifier(articles, refuse_margin=0.15).classify(STORY).kind == "unanswerable"
    assert wide.classify(STORY).kind != "unanswerable"


SPILL_STORY = ("My brother and I were out in his old dinghy last weekend, having a picnic and a swim off the rocks. "
               "A fuel line split and some petrol ran into the water. Do we have to tell anyone about the spill?")


def test_a_question_told_as_a_story_is_refused_only_when_each_of_its_sentences_is() -> None:
    """As a whole the story reads like the off-topic examples; its last sentence asks what the Act answers (report
    a discharge), so it is searched. A story whose every sentence is off topic is still refused unsearched."""
    classifier = local_question_classifier(load_statute())
    decision = classifier.classify(SPILL_STORY)
    assert decision.kind != "unanswerable" and "the whole: unanswerable" in decision.note
    assert classifier.readings(SPILL_STORY)[1:] == split_sentences(SPILL_STORY)
    off_topic = "We spent a lovely week in Lisbon and ate a lot of pastries. Which cafe makes the best custard tarts?"
    assert classifier.classify(off_topic).kind == "unanswerable"
