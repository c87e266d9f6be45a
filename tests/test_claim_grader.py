"""The claim-level hallucination grader: each check on hand-made cases, two properties, the benchmark's refusal.

Every check is shown firing on its own kind of error and staying quiet on a faithful rewording of the
same source (real MiniLM, no API key). The properties run on the bundled corpora: a sentence copied from
a document is always grounded in it, and a clause from a document of another corpus appended to it never
is. The last test checks that the claim benchmark refuses to show the report half's mistakes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from ragkit.core.nlp import document_subject, prose_sentences
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.statute.corpus import load_statute
from ragkit.offline.claims import ClaimCheck, LocalHallucinationGrader, content_words, split_claims
from ragkit.offline.writing import LocalWriter

ROOT = Path(__file__).resolve().parents[1]

WINE = Document(page_content="Chablis 2021 is a dry white wine from Burgundy. It pairs well with oysters and grilled "
                             "fish. A bottle costs 38 euros.")
TERRACE = Document(page_content="The terrace opens in May and closes at the end of September. Dogs may sit on the "
                                "terrace. Reservations are usually confirmed by email.")
OCTOPUS = Document(page_content="Grilled octopus (starter, 14.00 EUR). Tender octopus, first braised and then "
                                "charred over the grill, on a warm chickpea purée with smoked paprika oil.")
MUSEUM = Document(page_content="The Museum of Modern Art lends paintings to the National Gallery every spring.")
COMMITTEE = Document(page_content="After a long debate the committee was able to reach a decision.")
HALL = Document(page_content="The old reading room is small and quiet, and it closes early on Fridays.")
MEDAL = Document(page_content="The Royal Society awarded Dorothy Hodgkin its Copley Medal in 1976.")
BILL = Document(page_content="The bill was passed by the United Kingdom Parliament in 1998.")
FINAL = Document(page_content="Both teams scored in the final, and the bridge reopened a decade after the flood.")
BAY = Document(page_content="Oysters and mussels are farmed in the bay. No person shall fish inside the reserve.")
TANDEM = Document(page_content="A tandem is a variant of the bicycle that is built for two riders.")
FLOOD = Document(page_content="The bridge was closed to all traffic during the flood.")
IDF = Document(page_content="Lucene computes idf as log(1 + (N - n + 0.5) / (n + 0.5)), which stays positive.")
REGALIA = Document(page_content="The crown is Byzantine in style and the cloak is of Arab craftsmanship.")


@pytest.fixture(scope="module")
def grader() -> LocalHallucinationGrader:
    return LocalHallucinationGrader()


# (document, an answer with one error, the check that must fire, a faithful rewording that must pass)
CASES = {
    "appended": (WINE, "Chablis 2021 is a dry white wine from Burgundy, and it is aged in new oak barrels by hand.",
                 "Chablis 2021, a dry white wine from Burgundy, goes well with oysters and grilled fish."),
    "negation": (TERRACE, "The terrace does not open in May.", "The terrace opens in May."),
    "negation (a ban lifted)": (BAY, "Fishing inside the reserve is allowed.", "Fishing inside the reserve is forbidden."),
    "negation (un-)": (COMMITTEE, "After a long debate the committee was unable to reach a decision.",
                       "The committee was able to reach a decision after a long debate."),
    "quantifier": (TERRACE, "Reservations are always confirmed by email.", "Reservations are usually confirmed by email."),
    "quantifier (modal)": (TERRACE, "Dogs must sit on the terrace.", "On the terrace, dogs may sit."),
    "attribute": (WINE, "Chablis 2021 is a sweet white wine from Burgundy.",
                  "Chablis 2021 is a dry white wine that comes from Burgundy."),
    "attribute (dish)": (OCTOPUS, "Tender octopus, charred over the grill, on a warm lentil purée with smoked paprika oil.",
                         "The octopus is served on a warm chickpea purée with smoked paprika oil."),
    "attribute (opposite)": (HALL, "The old reading room is large and quiet.", "The old reading room is quiet and small."),
    "name": (WINE, "Chablis 2021 is a dry white wine from Alsace.", "Chablis 2021 is a dry white from Burgundy."),
    "name (initials)": (BILL, "The UK Senate passed the bill in 1998.", "In 1998 the UK Parliament passed the bill."),
    "name (hyphenated)": (REGALIA, "The crown is Roman-style.", "The crown is Byzantine-style."),
    "name (multiword)": (MUSEUM, "The National Museum lends paintings to the Modern Art Gallery every spring.",
                         "Every spring the Museum of Modern Art lends paintings to the National Gallery."),
    "number": (WINE, "A bottle costs 42 euros.", "A bottle of it costs 38 euros."),
    "number (in words)": (FINAL, "The three teams scored in the final.", "The two teams scored in the final."),
}
EXPECTED = {"negation (un-)": "negation", "negation (a ban lifted)": "negation", "quantifier (modal)": "quantifier", "attribute (dish)": "attribute",
            "attribute (opposite)": "attribute", "name (multiword)": "name", "name (hyphenated)": "name",
            "name (initials)": "name", "number (in words)": "number"}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_check_fires_on_its_error(grader: LocalHallucinationGrader, kind: str) -> None:
    doc, wrong, _ = CASES[kind]
    result = grader.check([doc], wrong)
    assert not result.grounded, (kind, result)
    failed = [r for r in grader.explain([doc], wrong) if not r.supported]
    assert failed[0].check == EXPECTED.get(kind, kind), failed
    assert all(r.claim in wrong for r in failed)  # the failing claims are quoted from the answer
    assert failed[0].claim in result.note and failed[0].reason in result.note


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_check_passes_a_faithful_rewording(grader: LocalHallucinationGrader, kind: str) -> None:
    doc, _, faithful = CASES[kind]
    result = grader.check([doc], faithful)
    assert result.grounded, (kind, result.note)
    assert result.score == 1.0 and result.unsupported == ()


# One faithful paraphrase per rewording move of the paraphrase set (written here, not taken from it).
PARAPHRASES = {
    "synonym": (TERRACE, "Bookings are usually confirmed by email."),
    "synonym (two clauses)": (WINE, "Chablis 2021 is a dry white wine from Burgundy, and it goes nicely with oysters "
                                    "and grilled fish."),
    "synonym (WordNet, far apart in MiniLM)": (TANDEM, "A tandem is a form of bicycle built for two riders."),
    "name opened by an adverb, a possessive": (MEDAL, "Famously Dorothy Hodgkin received the Royal Society's Copley "
                                                      "Medal in 1976."),
    "name as initials": (BILL, "The UK Parliament passed the bill in 1998."),
    "number said in words ('both', 'a decade')": (FINAL, "The two teams scored in the final, and the bridge "
                                                         "reopened ten years after the flood."),
    "a pair named as 'both'": (BAY, "Oysters and mussels are both farmed in the bay."),
    "a ban said with a verb": (BAY, "Fishing inside the reserve is prohibited."),
    "a negation of words the document never uses": (FLOOD, "During the flood, the bridge allowed no vehicles to cross."),
    "a bound said as a negation": (IDF, "Lucene's idf, log(1 + (N - n + 0.5) / (n + 0.5)), never goes below zero."),
    "voice": (MUSEUM, "Paintings are lent to the National Gallery by the Museum of Modern Art every spring."),
    "reorder": (TERRACE, "From May to the end of September the terrace is open."),
    "merge": (WINE, "Chablis 2021, a dry white wine from Burgundy, costs 38 euros a bottle."),
    "nominal": (TERRACE, "The opening of the terrace is in May."),
    "drop": (COMMITTEE, "After a long debate the committee reached a decision."),
    "pronoun": pytest.param(WINE, "Chablis 2021 is a dry white wine from Burgundy. It goes well with oysters.",
                            marks=pytest.mark.xfail(strict=True, reason="a verb after a pronoun ('It goes') is read "
                                                                        "as a noun, so the attribute check takes "
                                                                        "'goes' for a swap of 'pairs'")),
}


@pytest.mark.parametrize(("doc", "answer"), list(PARAPHRASES.values()), ids=list(PARAPHRASES))
def test_a_faithful_paraphrase_passes(grader: LocalHallucinationGrader, doc: Document, answer: str) -> None:
    result = grader.check([doc], answer)
    assert result.grounded, result.note


def test_an_appended_clause_sharing_a_repeated_word_by_accident_is_unsupported(grader: LocalHallucinationGrader) -> None:
    # found by the appended-clause property below: "fine" (in "fine-tuned") counted twice made 3 of 4 words supported
    doc = Document('A question such as "how long does a permit appeal take?" is short. HyDE helps most where no '
                   "fine-tuned retriever exists.")
    answer = ("HyDE helps most where no fine-tuned retriever exists, and an appeal against a fine does suspend the "
              "duty to pay the fine.")
    assert not grader.check([doc], answer).grounded


def test_only_the_appended_clause_is_unsupported(grader: LocalHallucinationGrader) -> None:
    answer = "The terrace opens in May [1], and it is heated by gas lamps from a local foundry."
    result = grader.check([TERRACE], answer)
    assert result.unsupported == ("it is heated by gas lamps from a local foundry.",)
    assert result.score == 0.5 and "no source span supports it" in result.note
    assert [r.check for r in grader.explain([TERRACE], answer)] == ["", "appended"]
    # the sentence-level grader (the old behaviour) passes the sentence: it is close to the source as a whole
    assert LocalHallucinationGrader(check_claims=False).check([TERRACE], "The terrace opens in May and closes "
                                                              "at the end of September, and it is heated.").grounded


def test_explain_lists_every_claim_with_its_source(grader: LocalHallucinationGrader) -> None:
    checks = grader.explain([WINE], "Chablis 2021 is a dry white wine from Burgundy; a bottle costs 40 euros.")
    assert [type(c) for c in checks] == [ClaimCheck, ClaimCheck]
    assert [c.supported for c in checks] == [True, False] and checks[1].check == "number"
    assert "38 euros" in checks[1].source
    assert grader.explain([WINE], "") == []


def test_sentence_level_mode_keeps_its_old_contract() -> None:
    old = LocalHallucinationGrader(check_claims=False)
    result = old.check([WINE], "Chablis 2021 is a dry white wine from Burgundy. A bottle costs 42 euros [1].")
    assert result.unsupported == ("A bottle costs 42 euros.",) and result.score == 0.5
    assert old.check([TERRACE], "The terrace does not open in May.").grounded  # blind to negation, as documented


def test_single_checks_can_be_switched_off(grader: LocalHallucinationGrader) -> None:
    doc, wrong, _ = CASES["negation"]
    no_negation = LocalHallucinationGrader(embedder=grader.embedder, checks={"appended", "quantifier", "name", "attribute"})
    assert no_negation.check([doc], wrong).grounded and not grader.check([doc], wrong).grounded
    with pytest.raises(ValueError, match="unknown claim checks"):
        LocalHallucinationGrader(embedder=grader.embedder, checks={"spelling"})


def test_claims_borrow_an_elided_subject() -> None:
    claims = split_claims("The tenderstem broccoli is charred on the grill; served with chilli and almonds.")
    assert [c.own for c in claims] == ["The tenderstem broccoli is charred on the grill", "served with chilli and almonds."]
    assert claims[1].text == "The tenderstem broccoli served with chilli and almonds."


# ---------------------------------------------------------------- properties on the bundled corpora
CORPORA = {"menu": load_menu(), "wines": load_wines(), "handbook": load_handbook(), "statute": load_statute()}
COPIED = [(d, s.text) for docs in CORPORA.values() for d in docs for s in prose_sentences([d])]
CLAUSES = {name: [(d, s.text) for d in docs for s in prose_sentences([d]) if len(content_words(s.text)) >= 5]
           for name, docs in CORPORA.items()}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(pick=st.sampled_from(COPIED))
def test_a_copied_source_sentence_is_always_grounded(grader: LocalHallucinationGrader, pick) -> None:
    doc, sentence = pick
    result = grader.check([doc], f"{sentence} [1]")
    assert result.grounded, (sentence, result.note)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(pick=st.sampled_from([(d, s) for d, s in COPIED if document_subject(d)]))
def test_a_quote_under_its_documents_title_is_grounded(grader: LocalHallucinationGrader, pick) -> None:
    doc, sentence = pick  # the local writer quotes like this: "Title: sentence [n]."
    result = grader.check([doc], f"{document_subject(doc)}: {sentence} [1]")
    assert result.grounded, (sentence, result.note)


@pytest.mark.parametrize("question", ["What does a checkpointer give a LangGraph graph?", "Which desserts contain nuts?",
                                      "my loop never stops, what setting saves me?", "What is a no-take zone?"])
def test_the_local_writers_answers_are_grounded(grader: LocalHallucinationGrader, question: str) -> None:
    docs = [d for corpus in CORPORA.values() for d in corpus]
    picked = LocalWriter(embedder=grader.embedder).write(question, docs)
    assert grader.check(docs, picked.text).grounded, picked.text


@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_an_unrelated_appended_clause_is_never_grounded(grader: LocalHallucinationGrader, data) -> None:
    first, other = data.draw(st.permutations(sorted(CORPORA)))[:2]
    doc, sentence = data.draw(st.sampled_from(CLAUSES[first]))
    _, extra = data.draw(st.sampled_from(CLAUSES[other]))
    answer = f"{sentence.rstrip(' .')}, and {extra[0].lower()}{extra[1:]}"
    result = grader.check([doc], answer)
    assert not result.grounded, (answer, result.note)


# ---------------------------------------------------------------- the benchmark keeps the report half hidden
def test_claim_benchmark_refuses_to_show_report_errors(capsys) -> None:
    folder = ROOT / "benchmarks" / "roles"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("claim_grader_under_test", folder / "claim_grader.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        with pytest.raises(SystemExit) as stop:
            module.main(["--split", "report", "--show-errors"])
    finally:
        sys.path.remove(str(folder))
    assert stop.value.code == 2
    assert "tune split only" in capsys.readouterr().err


def test_the_dev_pool_reads_every_split_of_its_sets_and_pools_them(monkeypatch) -> None:
    folder = ROOT / "benchmarks" / "roles"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("claim_grader_pool_under_test", folder / "claim_grader.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    read = []

    def fake_set(name):
        def load(split):
            read.append((name, split))
            kind = "paraphrased_faithful" if split == "tune" or name == "fresh" else "negation_flip"
            label = "supported" if kind == "paraphrased_faithful" else "unsupported"
            return [{"id": f"{name}-{split}", "type": kind, "label": label, "document": TERRACE, "answer": "x"}]
        return ("", load, lambda: "")

    monkeypatch.setattr(module, "SETS", {"cases": fake_set("cases"), "fresh": fake_set("fresh")})

    class FlagsEverything:
        def explain(self, documents, answer):
            return [ClaimCheck(answer, answer, False, "negation", "made up")]

    pooled = module.dev_pool(FlagsEverything(), ["cases", "fresh"])
    assert read == [("cases", "tune"), ("cases", "report"), ("fresh", "report")]  # a fresh set has no tune split
    assert pooled["cases"] == 3 and pooled["false_alarms_paraphrased"] == 1.0  # 2 faithful, both flagged
    assert pooled["per_type"]["negation_flip"] == {"n": 1, "recall": 1.0}


# A made-up price list: a claim that compares two records is read against both records it names.
KETTLE = Document(page_content="Copper kettle (kitchen, 42.00 EUR). A hand-hammered kettle for gas and induction.",
                  metadata={"title": "Copper kettle"})
TEAPOT = Document(page_content="Stoneware teapot (kitchen, 29.50 EUR). A glazed teapot that holds four cups.",
                  metadata={"title": "Stoneware teapot"})


def test_a_comparison_of_two_named_records_is_supported_by_the_two_together(grader) -> None:
    claim = "Yes: Copper kettle (kitchen, 42.00 EUR) has a higher price than Stoneware teapot (kitchen, 29.50 EUR)."
    assert grader.check([KETTLE, TEAPOT], claim).grounded
    wrong = "Yes: Copper kettle (kitchen, 42.00 EUR) has a higher price than Stoneware teapot (kitchen, 24.50 EUR)."
    assert not grader.check([KETTLE, TEAPOT], wrong).grounded  # a changed number is still caught
    unnamed = "The Copper kettle (kitchen, 42.00 EUR) costs more than a 29.50 EUR item."
    assert not grader.check([KETTLE, TEAPOT], unnamed).grounded  # only the records a claim names are read with it


def test_wordnet_tables_are_read_and_a_missing_one_names_the_fix(tmp_path, monkeypatch) -> None:
    from ragkit.core import nlp

    assert "sweet" in nlp.antonyms("dry") and "pronounced" in nlp.synonyms("marked")
    assert nlp.antonyms("dry") == nlp.antonyms("DRY") and nlp.antonyms("table") == frozenset()
    monkeypatch.setattr(nlp, "__file__", str(tmp_path / "nlp.py"))  # a broken install: the tables are not beside it
    with pytest.raises(FileNotFoundError, match="reinstall ragkit"):
        nlp._wordnet_lines("antonyms.tsv")
