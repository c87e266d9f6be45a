"""The three blind agent sets: frozen hashes, schema, counts, data checks, and reproduction by the script."""

from __future__ import annotations

import copy
import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS
from ragkit.goldsets import check_frozen, eval_dir
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]
FILES = ("supervisor_routing.json", "planner_messages.json", "handbook_golden.jsonl")


def _load_script() -> Any:
    return goldset_builder("make_agent_sets")


SETS = _load_script()


def _read(name: str) -> Any:
    text = (eval_dir() / name).read_text(encoding="utf-8")
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


@pytest.mark.parametrize("name", FILES)
def test_frozen_hash_matches(name: str) -> None:
    assert len(check_frozen(eval_dir() / name)) == 64


@pytest.mark.parametrize("name", FILES)
def test_script_reproduces_the_frozen_bytes(name: str) -> None:
    assert SETS.build()[name] == (eval_dir() / name).read_text(encoding="utf-8")


def test_script_items_equal_the_files() -> None:
    assert SETS.supervisor_items() == _read("supervisor_routing.json")
    assert SETS.planner_items() == _read("planner_messages.json")
    assert SETS.golden_items() == _read("handbook_golden.jsonl")


def test_script_validation_passes() -> None:
    assert SETS.validate() == []


def test_supervisor_schema_and_counts() -> None:
    data = _read("supervisor_routing.json")
    assert set(data) == {"dev", "test"}
    assert len(data["dev"]) >= 70 and len(data["test"]) >= 90
    all_ids = [i["id"] for split in data.values() for i in split]
    assert len(all_ids) == len(set(all_ids))
    questions = [i["question"].lower().strip() for split in data.values() for i in split]
    assert len(questions) == len(set(questions)), "dev and test must not share a question"
    for split, items in data.items():
        lengths = Counter(len(i["sequence"]) for i in items)
        n = len(items)
        assert 0.38 <= lengths[1] / n <= 0.52, split
        assert 0.28 <= lengths[2] / n <= 0.42, split
        assert 0.14 <= lengths[3] / n <= 0.26, split
        singles = Counter(i["sequence"][0] for i in items if len(i["sequence"]) == 1)
        assert set(singles) == {"rag", "code", "analysis", "chitchat"}
        assert singles["chitchat"] >= 8
        for item in items:
            assert set(item) == {"id", "question", "sequence", "why"}
            seq = item["sequence"]
            assert 1 <= len(seq) <= 3 and set(seq) <= {"rag", "code", "analysis", "chitchat"}
            assert all(a != b for a, b in zip(seq, seq[1:])), item["id"]


def test_planner_schema_and_data() -> None:
    items = _read("planner_messages.json")
    specs = {spec.name: spec for spec in ORDER_TOOL_SPECS}
    with open(ROOT / "data" / "orders.csv", newline="", encoding="utf-8") as f:
        known = {row["order_id"].upper() for row in csv.DictReader(f)}
    counts = Counter(i["category"] for i in items)
    assert len(items) >= 50
    assert counts["negation"] >= 15 and counts["multi_request"] >= 15 and counts["negation_and_multi"] >= 8
    assert counts["missing_argument"] >= 3 and counts["plain"] >= 3
    assert set(counts) <= {"negation", "multi_request", "negation_and_multi", "missing_argument", "plain"}
    for item in items:
        assert set(item) == {"id", "message", "calls", "declined", "ask", "category"}
        assert isinstance(item["ask"], bool)
        assert item["ask"] == (item["category"] == "missing_argument"), item["id"]
        assert set(item["declined"]) <= set(specs)
        assert not set(item["declined"]) & {c["name"] for c in item["calls"]}, item["id"]
        for call in item["calls"]:
            spec = specs[call["name"]]
            assert set(call["args"]) == set(spec.required), item["id"]
            spec.args_schema.model_validate(call["args"])
            oid = call["args"]["order_id"]
            assert oid.upper() in known and oid in item["message"], item["id"]
            if "new_address" in call["args"]:
                address = call["args"]["new_address"]
                assert address in item["message"] and address == address.strip(), item["id"]
                assert address[-1] not in ".,;:!?'\"", item["id"]


def test_golden_schema_and_sections() -> None:
    items = _read("handbook_golden.jsonl")
    sections = {doc.metadata["id"] for doc in load_handbook()}
    assert len(items) == 48
    assert Counter(i["category"] for i in items) == {"factual": 12, "procedural": 12, "comparison": 12, "unanswerable": 12}
    for item in items:
        assert set(item) == {"id", "question", "reference_answer", "reference_context_ids", "category"}
        assert item["reference_answer"].strip()
        assert set(item["reference_context_ids"]) <= sections, item["id"]
        assert (item["category"] == "unanswerable") == (not item["reference_context_ids"]), item["id"]


def test_validators_catch_broken_items() -> None:
    planner = copy.deepcopy(SETS.planner_items())
    planner[0]["calls"][0]["args"]["order_id"] = "A9999"  # not in orders.csv, not in the message
    planner[1]["calls"][0]["name"] = "refund_order"
    moved = next(i for i in planner if any("new_address" in c["args"] for c in i["calls"]))
    next(c for c in moved["calls"] if "new_address" in c["args"])["args"]["new_address"] += " and"
    errors = " | ".join(SETS.validate_planner(planner))
    assert "A9999" in errors and "refund_order" in errors and "joining word" in errors

    sup = copy.deepcopy(SETS.supervisor_items())
    sup["test"][0]["sequence"] = ["rag", "rag"]
    sup["test"][1]["sequence"] = ["rag", "search"]
    errors = " | ".join(SETS.validate_supervisor(sup))
    assert "immediate repeat" in errors and "unknown agent" in errors

    golden = copy.deepcopy(SETS.golden_items())
    golden[0]["reference_context_ids"] = ["HB-99"]
    golden[1]["reference_answer"] += " It was 1234 steps."
    errors = " | ".join(SETS.validate_golden(golden))
    assert "HB-99" in errors and "1234" in errors
