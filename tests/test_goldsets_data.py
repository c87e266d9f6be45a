"""The frozen gold sets in data/eval: hashes match the manifest, the schema holds, answers come from the data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ragkit.goldsets import check_frozen
from tests.conftest import benchmark_script

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "data" / "eval"
ROUTING = EVAL / "routing_blind.json"
FRESH = EVAL / "routing_fresh.json"
ROUTING_SETS = pytest.mark.parametrize("routing", [ROUTING, FRESH], ids=["routing_blind", "routing_fresh"])
MENU_GOLD = EVAL / "menu_structured.json"
ROUTES = ("search_menu", "search_wine", "search_web", "llm_fallback")
CATEGORIES = ("superlative", "exclusion", "allergen", "comparison", "price_bound", "combined")
KINDS = ("set", "single", "yes_no", "comparison")
MENU_FIELDS = {"id", "question", "category", "corpus", "kind", "required", "excluded", "answer_bool", "note", "split"}


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _maker():
    """benchmarks/query_analysis/make_menu_gold.py as a module (benchmarks/ is not a package)."""
    return benchmark_script("query_analysis/make_menu_gold.py")


def _data_ids() -> dict[str, str]:
    dishes = _load(ROOT / "data" / "menu.json")["dishes"]
    wines = _load(ROOT / "data" / "wines.json")["wines"]
    return {**{d["id"]: "menu" for d in dishes}, **{w["id"]: "wine" for w in wines}}


@pytest.mark.parametrize("path", [ROUTING, FRESH, MENU_GOLD], ids=["routing_blind", "routing_fresh", "menu_structured"])
def test_frozen_hash_matches_manifest(path: Path) -> None:
    assert len(check_frozen(path)) == 64


@ROUTING_SETS
def test_routing_sets_schema_and_counts(routing: Path) -> None:
    items = _load(routing)
    assert isinstance(items, list) and len(items) >= 80
    for item in items:
        assert set(item) == {"question", "route", "why"}, item
        assert item["route"] in ROUTES, item
        assert item["question"].strip() and item["why"].strip(), item
    counts = Counter(item["route"] for item in items)
    assert all(counts[route] >= 20 for route in ROUTES), counts
    questions = [" ".join(item["question"].lower().split()) for item in items]
    assert len(set(questions)) == len(questions), "duplicate questions"


@ROUTING_SETS
def test_routing_sets_have_no_exact_overlap_with_other_sets(routing: Path) -> None:
    from ragkit.domains.menu.routes import ROUTES as SPECS

    def norm(text: str) -> str:
        return " ".join(text.lower().split())

    others = {norm(q["question"]) for name in ("routing_questions.json", "routing_dev.json")
              for q in _load(ROOT / "data" / name)}
    others |= {norm(q) for spec in SPECS for q in spec.examples}
    others |= {norm(q["question"]) for path in (ROUTING, FRESH) if path != routing for q in _load(path)}
    assert not {norm(item["question"]) for item in _load(routing)} & others


def test_menu_structured_schema_and_counts() -> None:
    items = _load(MENU_GOLD)
    ids = _data_ids()
    assert len(items) >= 60
    assert len({item["id"] for item in items}) == len(items), "duplicate ids"
    for item in items:
        assert set(item) == MENU_FIELDS, item["id"]
        assert item["category"] in CATEGORIES and item["kind"] in KINDS, item["id"]
        assert item["corpus"] in ("menu", "wine") and item["split"] in ("dev", "test"), item["id"]
        required, excluded = item["required"], item["excluded"]
        assert all(i in ids for i in required + excluded), item["id"]
        assert all(ids[i] == item["corpus"] for i in required + excluded), item["id"]
        assert not set(required) & set(excluded), item["id"]
        assert len(set(required)) == len(required) and len(set(excluded)) == len(excluded), item["id"]
        if item["kind"] == "yes_no":
            assert item["answer_bool"] is bool(required), item["id"]
        elif item["kind"] == "comparison":
            assert item["answer_bool"] in (True, False, None) and required and not excluded, item["id"]
        else:
            assert item["answer_bool"] is None, item["id"]
        if item["kind"] == "single":
            assert required, item["id"]
        assert item["note"].strip(), item["id"]
    per_category = Counter(item["category"] for item in items)
    assert all(per_category[c] >= 8 for c in CATEGORIES), per_category
    for category in CATEGORIES:
        splits = Counter(item["split"] for item in items if item["category"] == category)
        assert splits["dev"] == round(per_category[category] / 3), (category, splits)
    assert any(item["kind"] == "yes_no" and item["answer_bool"] for item in items)
    assert any(not item["required"] for item in items), "no question with an empty answer"


def test_menu_structured_is_exactly_what_the_script_computes() -> None:
    assert _maker().build_items() == _load(MENU_GOLD)


def test_maker_vocabulary_check_fails_on_an_unknown_allergen() -> None:
    maker = _maker()
    data = maker.load_data()
    data.dishes[0] = {**data.dishes[0], "allergens": data.dishes[0]["allergens"] + ["kiwi"]}
    with pytest.raises(ValueError, match="kiwi"):
        maker.check_vocabulary(data)
