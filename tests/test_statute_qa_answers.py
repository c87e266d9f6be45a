"""What the statute QA answer opens with: a question that cites a paragraph is answered from that paragraph
first (the paragraphs that mention it after), and a question with two asks gets a sentence for each.

Both are tested on a constructed statute and constructed text (made-up articles, not the bundled Act), with
the real local roles (the packaged MiniLM), so what is tested is the technique, not one example.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.documents import Document

from ragkit.core.nlp import asked_part, question_asks
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.paragraphs import cited_first, paragraphs_of
from ragkit.domains.statute.strategies import strategy_searches
from ragkit.graphs.statute_qa import build_statute_qa_graph
from ragkit.offline.writing import LocalWriter

# A made-up harbour by-law: Article 3 is the one cited; Articles 2 and 4 mention it in sentences that share
# more words with "What does Article 3(2) say?" than Article 3(2) itself does.
BYLAW = """# Harbour Moorings By-law

## Article 1. Mooring licences

(1) No boat may be moored in the harbour without a mooring licence issued by the Harbourmaster.

(2) A mooring licence is valid for one season and names the berth it applies to.

## Article 2. Refusal of a licence

(1) The Harbourmaster may refuse a mooring licence where the berth is already taken.

(2) A refusal under this Article may be challenged under Article 3.

## Article 3. Challenges

(1) A boat owner may challenge a decision of the Harbourmaster before the Moorings Panel within 21 days.

(2) The Panel hears the owner and the Harbourmaster in public and gives its ruling in writing.

(3) A challenge does not stop the decision from taking effect.

## Article 4. Fees

(1) The fee for a mooring licence is set each season by the harbour board.

(2) A fee paid for a licence that is later refused is returned, and any challenge under Article 3 is free of charge.
"""


@pytest.fixture(scope="module")
def bylaw(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    path = Path(tmp_path_factory.mktemp("bylaw")) / "bylaw.md"
    path.write_text(BYLAW, encoding="utf-8")
    return load_statute(path)


@pytest.fixture(scope="module")
def writer() -> LocalWriter:
    return LocalWriter()


# ---------------------------------------------------------------- a cited paragraph is the first evidence
def test_cited_first_puts_the_cited_paragraph_first_and_marks_it(bylaw):
    paragraphs = paragraphs_of(bylaw)
    ordered = cited_first(paragraphs, "What does Art. 3(2) say?")
    assert [p.metadata["id"] for p in ordered][:1] == ["art-3(2)"] and ordered[0].metadata["cited"]
    assert sorted(p.metadata["id"] for p in ordered) == sorted(p.metadata["id"] for p in paragraphs)  # nothing lost
    whole = cited_first(paragraphs, "What does section 3 say about challenges?")
    assert [p.metadata["id"] for p in whole if p.metadata.get("cited")] == ["art-3(1)", "art-3(2)", "art-3(3)"]
    assert not any(p.metadata.get("cited") for p in cited_first(paragraphs, "What does Article 3(9) say?"))


def test_the_writer_opens_with_the_cited_document_even_below_its_bars(writer, bylaw):
    question = "What does Article 3(2) (Challenges) say?"
    paragraphs = paragraphs_of(bylaw)
    plain = writer.write(question, paragraphs)  # without the mark: the mentions of Article 3 win
    assert plain.text.split("[")[1].split("]")[0] != str(1 + [p.metadata["id"] for p in paragraphs].index("art-3(2)"))
    ordered = cited_first(paragraphs, question)
    answer = writer.write(question, ordered)
    assert answer.answered and answer.text.startswith("The Panel hears the owner") and answer.text.index("[1]") < 120


@pytest.mark.parametrize("question, first", [
    ("What does Article 3(2) say?", "Article 3(2)"),
    ("What does Art. 3(3) say?", "Article 3(3)"),
    ("What does Article 2(2) say?", "Article 2(2)"),
])
def test_a_question_citing_a_paragraph_is_answered_from_it_first(bylaw, question, first):
    out = build_statute_qa_graph(bylaw, strategies=strategy_searches(bylaw), domain=STATUTE).invoke({"question": question})
    assert out["outcome"] == "answered", out["answer"]
    assert out["cited_labels"][0] == first, out["answer"]
    assert out["answer"].index(f"[{first}]") == out["answer"].index("[")  # the first citation of the text too


# ---------------------------------------------------------------- two asks, a sentence for each
def test_a_condition_is_context_and_the_asks_are_read_with_their_types():
    question = "If my licence is refused, how long do I have to challenge it and who hears the challenge?"
    assert asked_part(question) == "how long do I have to challenge it and who hears the challenge?"
    assert question_asks(question) == [("quantity", ["challeng"]), ("person", ["hear", "challeng"])]
    assert question_asks("How long is a licence valid?") == [("quantity", ["licenc", "valid"])]


def test_a_condition_does_not_crowd_out_the_answer_to_what_is_asked(writer):
    # Three sentences about the condition (withdrawing a licence) share more words with the whole question
    # than the one sentence that answers both asks.
    docs = [Document("The Director may withdraw a fishing licence when the holder breaks a condition of the licence."),
            Document("Before a fishing licence is withdrawn, the holder is told in writing of the reasons for withdrawing it."),
            Document("A withdrawn fishing licence may not be renewed for a year after it was withdrawn."),
            Document("Any person affected by a decision of the Director under these rules may object to the Licensing "
                     "Tribunal within 21 days of being told of the decision.")]
    answer = writer.write("If my fishing licence is withdrawn, how long do I have to object and who hears the objection?", docs)
    assert "21 days" in answer.text and "Licensing Tribunal" in answer.text, answer.text


def test_each_ask_is_answered_when_the_evidence_answers_only_one_per_sentence(writer):
    docs = [Document("A licence may be refused when the berth is taken or when the boat is unsafe."),
            Document("A refused licence may be refused again the next season."),
            Document("An objection to a refused licence must be lodged within 14 days."),
            Document("Objections to a refused licence are heard by Ms Okafor, the harbour ombudsman.")]
    answer = LocalWriter(writer.embedder, max_sentences=2).write(
        "If my licence is refused, how long do I have to object and who hears objections?", docs).text
    assert "14 days" in answer and "Okafor" in answer, answer


def test_a_citation_after_a_two_sentence_quote_covers_both_sentences() -> None:
    from ragkit.domains.statute.paragraphs import check_answer_citations
    from ragkit.offline.claims import LocalHallucinationGrader

    article = Document("Article 5. Berths\n\n(1) A berth is let for one season.\n\n(2) The Harbourmaster assigns "
                       "berths in March. He may move a boat to another berth in a storm.",
                       metadata={"article": 5, "id": "art-5"})
    quoted = "The Harbourmaster assigns berths in March. He may move a boat to another berth in a storm [Article 5(2)]."
    report = check_answer_citations(quoted, {5: article}, LocalHallucinationGrader())
    assert report.valid == ("Article 5(2)",) and report.unsupported == ()
    trailing = "A berth is let for one season [Article 5(1)]. Berths are free of charge."
    report = check_answer_citations(trailing, {5: article}, LocalHallucinationGrader())
    assert report.unsupported == ("Berths are free of charge.",)  # a sentence after the last citation stays uncited
