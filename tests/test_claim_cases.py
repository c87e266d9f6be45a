"""The frozen claim-level hallucination set (data/eval/claim_cases.json) and its builder script.

Checks: the file matches its manifest hash; every case has the documented schema; counts per type and
split meet the brief (>= 60 paraphrased, >= 15 copied, >= 30 of each unsupported type, halves balanced);
every source_sentence occurs in the passage that ``load_claim_cases`` attaches; labels agree with types;
and rebuilding from ``benchmarks/roles/make_claim_cases.py`` reproduces the frozen bytes exactly.
The source-dependent tests skip when ../shared/datasets is missing.
"""

from __future__ import annotations

import doctest
import re
from collections import Counter

import pytest
from langchain_core.documents import Document

from ragkit.goldsets import check_frozen, read_manifest, sha256_file
from tests.frozen_sets import ROOT, load_builder, load_set, needs_sources, norm

SET = ROOT / "data" / "eval" / "claim_cases.json"

TYPES = ("copied_faithful", "paraphrased_faithful", "appended_clause", "negation_flip", "quantifier_change",
         "attribute_swap", "entity_swap", "changed_number")
SUPPORTED = {"copied_faithful", "paraphrased_faithful"}
MINIMUM = {"copied_faithful": 15, "paraphrased_faithful": 60, **{t: 30 for t in TYPES[2:]}}


@pytest.fixture(scope="module")
def script():
    return load_builder("make_claim_cases")


@pytest.fixture(scope="module")
def data() -> dict:
    return load_set(SET)


def test_hash_matches_manifest():
    entry = read_manifest()["claim_cases.json"]
    assert sha256_file(SET) == entry["sha256"]
    assert check_frozen(SET) == entry["sha256"]
    assert "written blind" in entry["note"]


def test_schema(data):
    assert list(data["types"]) == list(TYPES)
    ids = [case["id"] for case in data["cases"]]
    assert len(ids) == len(set(ids))
    for case in data["cases"]:
        assert set(case) == {"id", "type", "source", "source_sentence", "answer", "label", "changed", "split"}, case["id"]
        assert re.fullmatch(r"hc-\d{4}", case["id"])
        assert case["type"] in TYPES
        assert case["split"] in ("tune", "report")
        source = case["source"]
        if source["dataset"] == "squad2":
            assert set(source) == {"dataset", "article", "paragraph"}
            assert 0 <= source["article"] < 16 and source["paragraph"] >= 0
        elif source["dataset"] == "scifact":
            assert set(source) == {"dataset", "doc_id"} and source["doc_id"].isdigit()
        else:
            assert source["dataset"] in ("menu", "wine", "handbook", "statute")
            assert set(source) == {"dataset", "id"}
            assert re.fullmatch(r"menu-\d\d|wine-\d\d|HB-\d\d|art-\d+", source["id"])
        assert case["answer"].strip() and case["source_sentence"].strip()
        # source sentences are short quotations, never whole paragraphs
        assert len(case["source_sentence"]) < 700, case["id"]


def test_labels_consistent(data):
    for case in data["cases"]:
        faithful = case["type"] in SUPPORTED
        assert case["label"] == ("supported" if faithful else "unsupported"), case["id"]
        assert bool(case["changed"]) is not faithful, case["id"]
        if case["type"] == "copied_faithful":
            assert norm(case["answer"]) in norm(case["source_sentence"]), case["id"]


def test_counts_per_type_and_split(data):
    counts = Counter((case["type"], case["split"]) for case in data["cases"])
    for kind in TYPES:
        tune, report = counts[(kind, "tune")], counts[(kind, "report")]
        assert tune + report >= MINIMUM[kind], kind
        assert report - tune in (0, 1), kind  # stratified halves; an odd count gives "report" the extra case
        assert data["counts"][kind] == {"tune": tune, "report": report}
    assert len(data["cases"]) >= 285


@needs_sources
def test_every_source_sentence_is_in_its_passage(script):
    cases = script.load_claim_cases()
    assert len(cases) == len(load_set(SET)["cases"])
    for case in cases:
        doc = case["document"]
        assert isinstance(doc, Document) and doc.metadata["id"]
        assert norm(case["source_sentence"]) in norm(doc.page_content), case["id"]
        if case["type"] == "copied_faithful":
            assert norm(case["answer"]) in norm(doc.page_content), case["id"]
        else:
            assert norm(case["answer"]) not in norm(doc.page_content), case["id"]


@needs_sources
def test_load_claim_cases_splits(script):
    tune, report = script.load_claim_cases("tune"), script.load_claim_cases("report")
    assert {c["split"] for c in tune} == {"tune"} and {c["split"] for c in report} == {"report"}
    assert len(tune) + len(report) == len(script.load_claim_cases())
    assert abs(len(tune) - len(report)) <= len(TYPES)
    with pytest.raises(ValueError, match="split must be"):
        script.load_claim_cases("test")


@needs_sources
def test_build_reproduces_the_frozen_file(script):
    data = script.build()
    assert script.render(data) == SET.read_text(encoding="utf-8")
    assert list(script.CASES) == script.draw_passages()


@needs_sources
def test_validate_catches_a_wrong_case(script):
    drawn = script.draw_passages()
    key = drawn[0]
    text = script.passage_document(script.source_of(key)).page_content
    good = {"id": "hc-0001", "type": "changed_number", "passage_key": key, "label": "unsupported",
            "source_sentence": "It is named after William John Macquorn Rankine, a Scottish polymath.",
            "answer": "It is named after Rankine, a Scottish polymath born in 1820.", "changed": "born in 1820"}
    with pytest.raises(ValueError, match="only 1 changed_number cases"):
        script.validate([good], drawn, {key: text})
    for broken, message in [
        ({"label": "supported"}, "does not match type"),
        ({"source_sentence": "Rankine invented the steam engine."}, "source_sentence not found"),
        ({"changed": "90% -> 60%"}, "does not occur in the answer"),
        ({"type": "copied_faithful", "label": "supported", "changed": ""}, "must occur verbatim"),
    ]:
        with pytest.raises(ValueError, match=message):
            script.validate([{**good, **broken}], drawn, {key: text})


def test_script_doctests(script):
    failures, _ = doctest.testmod(script, verbose=False)
    assert failures == 0
