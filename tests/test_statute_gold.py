"""The statute gold sets are frozen, well formed, grounded in data/statute.md, and rebuilt exactly by their script."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ragkit.domains.statute.corpus import load_statute
from ragkit.goldsets import check_frozen, eval_dir
from tests.conftest import benchmark_script

QA_KEYS = {"id", "question", "type", "gold_articles", "gold_paragraphs", "answer", "split"}
GOLDEN_KEYS = {"question", "reference_answer", "reference_context_ids", "category"}


def _load_script():
    return benchmark_script("statute/make_statute_gold.py")


gold = _load_script()


@pytest.fixture(scope="module")
def qa() -> list[dict]:
    return json.loads((eval_dir() / gold.QA_FILE).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def golden() -> list[dict]:
    lines = (eval_dir() / gold.GOLDEN_FILE).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def articles() -> dict[int, str]:
    return {d.metadata["article"]: d.page_content for d in load_statute()}


@pytest.mark.parametrize("name", [gold.QA_FILE, gold.GOLDEN_FILE])
def test_hash_matches_manifest(name):
    assert len(check_frozen(eval_dir() / name)) == 64


def test_qa_schema_counts_and_unique_ids(qa):
    for item in qa:
        assert QA_KEYS <= set(item) <= QA_KEYS | {"note"}, item
        assert item["type"] in gold.TYPES and item["split"] in ("dev", "test") and item["answer"].strip()
        assert all(isinstance(n, int) for n in item["gold_articles"])
    counts = Counter(item["type"] for item in qa)
    for kind, minimum in gold.MIN_COUNTS.items():
        assert counts[kind] >= minimum, (kind, counts[kind])
    assert len(qa) >= 160
    ids = [item["id"] for item in qa]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"sq-\d{3}", i) for i in ids)


def test_gold_articles_and_paragraphs_exist(qa, articles):
    for item in qa:
        if item["type"] == "unanswerable":
            assert item["gold_articles"] == [] and item["gold_paragraphs"] == [] and item.get("note"), item["id"]
            continue
        assert item["gold_articles"] and item["gold_paragraphs"], item["id"]
        for n in item["gold_articles"]:
            assert n in articles, (item["id"], n)
        for p in item["gold_paragraphs"]:
            m = re.fullmatch(r"(\d+)(?:\((\d+)\))?", p)
            assert m and int(m.group(1)) in item["gold_articles"], (item["id"], p)
            if m.group(2):
                assert re.search(rf"^\({m.group(2)}\)", articles[int(m.group(1))], re.MULTILINE), (item["id"], p)


def test_type_specific_rules(qa):
    korean = 0
    for item in qa:
        cited = gold.cited_articles(item["question"])
        if item["type"] == "citation":
            assert cited and set(item["gold_articles"][:len(cited)]) == set(cited), item["id"]
            korean += bool(re.search(r"제\s*\d+\s*조", item["question"]))
        else:
            assert not cited, item["id"]
        if item["type"] == "single":
            assert len(item["gold_articles"]) == 1, item["id"]
        if item["type"] == "multihop":
            assert len(item["gold_articles"]) >= 2, item["id"]
    assert 3 <= korean <= 6
    hard = [i for i in qa if i["type"] == "unanswerable" and i["note"].startswith("hard")]
    assert 3 * len(hard) >= sum(i["type"] == "unanswerable" for i in qa)


def test_golden_schema_and_counts(golden, articles):
    assert len(golden) == 40
    assert Counter(row["category"] for row in golden) == {c: 10 for c in gold.CATEGORIES}
    for row in golden:
        assert set(row) == GOLDEN_KEYS and row["reference_answer"].strip()
        assert (row["category"] == "unanswerable") == (row["reference_context_ids"] == [])
        for doc_id in row["reference_context_ids"]:
            assert re.fullmatch(r"art-\d+", doc_id) and int(doc_id[4:]) in articles, doc_id


def test_no_question_in_both_files(qa, golden):
    qa_questions = {gold.normalise(item["question"]) for item in qa}
    assert len(qa_questions) == len(qa)
    golden_questions = {gold.normalise(row["question"]) for row in golden}
    assert len(golden_questions) == len(golden)
    assert not qa_questions & golden_questions


def test_each_type_has_dev_and_test(qa):
    for kind in gold.TYPES:
        splits = Counter(item["split"] for item in qa if item["type"] == kind)
        n = sum(splits.values())
        assert splits["dev"] and splits["test"], kind
        assert splits["dev"] == round(gold.DEV_FRACTION * n), (kind, splits)


def test_build_reproduces_the_frozen_files(qa, golden):
    items, rows = gold.build()
    assert items == qa and rows == golden
    assert gold.qa_bytes(items) == (eval_dir() / gold.QA_FILE).read_bytes()
    assert gold.golden_bytes(rows) == (eval_dir() / gold.GOLDEN_FILE).read_bytes()
    gold.validate(items, rows)
