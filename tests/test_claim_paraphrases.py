"""The frozen paraphrase set (data/eval/claim_paraphrases.json) and its builder script.

Checks: the file matches its manifest hash; the schema and counts the brief asks for (>= 150 paraphrases,
>= 150 unsupported, >= 25 of each error type); the halves are split by passage (no passage in both);
every source sentence occurs in the passage ``load_claim_paraphrases`` attaches, and no answer is a copy;
and rebuilding from ``benchmarks/roles/make_claim_paraphrases.py`` reproduces the frozen bytes exactly.
The source-dependent tests skip when ../shared/datasets is missing.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ragkit.goldsets import check_frozen, read_manifest, sha256_file
from tests.frozen_sets import ROOT, load_builder, load_set, needs_sources, norm

SET = ROOT / "data" / "eval" / "claim_paraphrases.json"
TYPES = ("paraphrased_faithful", "appended_clause", "negation_flip", "quantifier_change", "attribute_swap",
         "entity_swap", "changed_number")


@pytest.fixture(scope="module")
def script():
    return load_builder("make_claim_paraphrases")


@pytest.fixture(scope="module")
def data() -> dict:
    return load_set(SET)


def test_hash_matches_manifest():
    entry = read_manifest()["claim_paraphrases.json"]
    assert sha256_file(SET) == entry["sha256"] == check_frozen(SET)
    assert "written blind" in entry["note"]


def test_schema_counts_and_split_by_passage(data):
    assert list(data["types"]) == list(TYPES)
    counts = Counter(case["type"] for case in data["cases"])
    assert counts["paraphrased_faithful"] >= 150 and sum(counts[t] for t in TYPES[1:]) >= 150
    assert all(counts[t] >= 25 for t in TYPES[1:])
    halves: dict[str, set[str]] = {}
    for case in data["cases"]:
        assert set(case) == {"id", "type", "source", "source_sentence", "answer", "label", "moves", "changed", "split"}
        assert re.fullmatch(r"cp-\d{4}", case["id"]) and case["split"] in ("tune", "report")
        faithful = case["type"] == "paraphrased_faithful"
        assert case["label"] == ("supported" if faithful else "unsupported")
        assert bool(case["moves"]) is faithful and bool(case["changed"]) is not faithful
        halves.setdefault(json.dumps(case["source"], sort_keys=True), set()).add(case["split"])
    assert all(len(splits) == 1 for splits in halves.values())  # no passage in both halves
    assert Counter(next(iter(s)) for s in halves.values()) == Counter(data["passages_per_split"])


@needs_sources
def test_source_sentences_in_passages_and_no_copies(script):
    for case in script.load_claim_paraphrases():
        text = norm(case["document"].page_content)
        assert all(norm(part) in text for part in case["source_sentence"].split(" ... ")), case["id"]
        assert norm(case["answer"]).rstrip(".") not in text, case["id"]
    with pytest.raises(ValueError, match="split must be"):
        script.load_claim_paraphrases("test")


@needs_sources
def test_build_reproduces_the_frozen_file(script):
    assert script.render(script.build()) == SET.read_text(encoding="utf-8")
    assert list(script.CASES) == script.draw_passages()
