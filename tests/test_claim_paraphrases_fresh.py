"""The fresh claim-paraphrase report set (data/eval/claim_paraphrases_fresh.json) and its builder script.

Checks: the file matches its manifest hash; every case is a report case and the loader refuses a tune split;
its passages are none of the earlier claim sets' (drawn by seed with them excluded); every source sentence
occurs in its passage and no answer is a copy; and the builder reproduces the frozen bytes. The
source-dependent tests skip when ../shared/datasets is missing.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ragkit.goldsets import check_frozen, read_manifest, sha256_file
from tests.frozen_sets import ROOT, load_builder, load_set, needs_sources, norm

SET = ROOT / "data" / "eval" / "claim_paraphrases_fresh.json"


@pytest.fixture(scope="module")
def script():
    return load_builder("make_claim_paraphrases_fresh")


@pytest.fixture(scope="module")
def data() -> dict:
    return load_set(SET)


def test_hash_matches_manifest():
    entry = read_manifest()["claim_paraphrases_fresh.json"]
    assert sha256_file(SET) == entry["sha256"] == check_frozen(SET)
    assert "written blind" in entry["note"]


def test_every_case_is_a_report_case_of_a_known_type(data):
    types = Counter(case["type"] for case in data["cases"])
    assert set(types) == set(data["types"]) and types["paraphrased_faithful"] >= 35 and sum(types.values()) == 92
    for case in data["cases"]:
        assert re.fullmatch(r"cpf-\d{4}", case["id"]) and case["split"] == "report"
        faithful = case["type"] == "paraphrased_faithful"
        assert case["label"] == ("supported" if faithful else "unsupported")
        assert bool(case["moves"]) is faithful and bool(case["changed"]) is not faithful


def test_no_passage_of_an_earlier_claim_set(data):
    def key(source):
        return json.dumps(source, sort_keys=True)

    earlier = {key(c["source"]) for name in ("claim_cases.json", "claim_paraphrases.json")
               for c in load_set(ROOT / "data" / "eval" / name)["cases"]}
    assert not {key(c["source"]) for c in data["cases"]} & earlier


@needs_sources
def test_source_sentences_in_passages_no_copies_and_no_tune_split(script):
    for case in script.load_claim_paraphrases_fresh("report"):
        text = norm(case["document"].page_content)
        assert all(norm(part) in text for part in case["source_sentence"].split(" ... ")), case["id"]
        assert norm(case["answer"]).rstrip(".") not in text, case["id"]
    with pytest.raises(ValueError, match="no tune split"):
        script.load_claim_paraphrases_fresh("tune")


@needs_sources
def test_build_reproduces_the_frozen_file(script):
    assert script.render(script.build()) == SET.read_text(encoding="utf-8")
    assert list(script.CASES) == script.drawn_passages()
