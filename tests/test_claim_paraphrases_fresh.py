"""The fresh claim-paraphrase report sets (data/eval/claim_paraphrases_fresh.json, ..._fresh2.json, ..._fresh3.json,
..._fresh4.json) and their builder scripts.

Checks, for each set: the file matches its manifest hash; every case is a report case and the loader refuses a
tune split; its passages are none of the earlier claim sets' (drawn by seed with them excluded); every source
sentence occurs in its passage and no answer is a copy; and the builder reproduces the frozen bytes. The
source-dependent tests skip when ../shared/datasets is missing.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ragkit.goldsets import check_frozen, read_manifest, sha256_file
from tests.frozen_sets import ROOT, load_builder, load_set, needs_sources, norm

EVAL = ROOT / "data" / "eval"
# set suffix -> (id prefix, cases, minimum faithful paraphrases); each set excludes every set before it
SETS = {"": ("cpf", 92, 35), "2": ("cpf2", 178, 60), "3": ("cpf3", 196, 80), "4": ("cpf4", 213, 80)}
EARLIER = ["claim_cases.json", "claim_paraphrases.json", *(f"claim_paraphrases_fresh{s}.json" for s in SETS)]


@pytest.fixture(scope="module", params=list(SETS), ids=[f"fresh{s}" for s in SETS])
def which(request) -> str:
    return request.param


def path(which: str):
    return EVAL / f"claim_paraphrases_fresh{which}.json"


def test_hash_matches_manifest(which):
    entry = read_manifest()[path(which).name]
    assert sha256_file(path(which)) == entry["sha256"] == check_frozen(path(which))
    assert "blind" in entry["note"]


def test_every_case_is_a_report_case_of_a_known_type(which):
    data, (prefix, n, faithful_minimum) = load_set(path(which)), SETS[which]
    types = Counter(case["type"] for case in data["cases"])
    assert set(types) == set(data["types"]) and types["paraphrased_faithful"] >= faithful_minimum
    assert sum(types.values()) == n
    for case in data["cases"]:
        assert re.fullmatch(rf"{prefix}-\d{{4}}", case["id"]) and case["split"] == "report"
        faithful = case["type"] == "paraphrased_faithful"
        assert case["label"] == ("supported" if faithful else "unsupported")
        assert bool(case["moves"]) is faithful and bool(case["changed"]) is not faithful


def test_no_passage_of_an_earlier_claim_set(which):
    def key(source):
        return json.dumps(source, sort_keys=True)

    before = EARLIER[:EARLIER.index(path(which).name)]
    earlier = {key(c["source"]) for name in before for c in load_set(EVAL / name)["cases"]}
    assert not {key(c["source"]) for c in load_set(path(which))["cases"]} & earlier


@needs_sources
def test_source_sentences_in_passages_no_copies_and_no_tune_split(which):
    script = load_builder(f"make_claim_paraphrases_fresh{which}")
    load = getattr(script, f"load_claim_paraphrases_fresh{which}")
    for case in load("report"):
        text = norm(case["document"].page_content)
        assert all(norm(part) in text for part in case["source_sentence"].split(" ... ")), case["id"]
        assert norm(case["answer"]).rstrip(".") not in text, case["id"]
    with pytest.raises(ValueError, match="no tune split"):
        load("tune")


@needs_sources
def test_build_reproduces_the_frozen_file(which):
    script = load_builder(f"make_claim_paraphrases_fresh{which}")
    render = load_builder("make_claim_cases").render
    assert render(script.build()) == path(which).read_text(encoding="utf-8")
    assert list(script.CASES) == script.drawn_passages()


@needs_sources
def test_fresh4_validates_and_draws_no_earlier_passage():
    """The fourth set's rows pass ``validate`` with its minimums (every error type at least 14 times), and its draw
    (seed 89) excludes every passage of the claim cases, the paraphrases and the three earlier fresh sets."""
    script = load_builder("make_claim_paraphrases_fresh4")
    data = script.build()  # validates: draw order, types, sentences, moves, changed, minimum counts
    assert data["seeds"] == {"draw": 89} and data["passages"] == 16
    assert all(data["counts"][kind] >= least for kind, least in script.MINIMUM.items())
    earlier = set()
    for name in ("make_claim_paraphrases", *(f"make_claim_paraphrases_fresh{s}" for s in ("", "2", "3"))):
        earlier |= set(load_builder(name).CASES)
    assert not set(script.CASES) & earlier
