"""The supervisor's tuning set (``data/eval/supervisor_routing_tune.json``): frozen, reproduced by its script,
well-formed, and no copy of a dev or test question."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ragkit.goldsets import load_goldset
from ragkit.roles.agent_protocols import AGENTS
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return goldset_builder("make_tune_supervisor_set")


def test_the_tune_set_is_frozen_and_its_script_reproduces_it() -> None:
    data, sha = load_goldset("supervisor_routing_tune.json")  # raises if the bytes no longer match the manifest
    assert len(sha) == 64 and list(data) == ["tune"]
    assert _script().build() == (ROOT / "data" / "eval" / "supervisor_routing_tune.json").read_text(encoding="utf-8")


def test_the_tune_set_schema_and_its_mix_of_one_agent_questions_and_chains() -> None:
    items = load_goldset("supervisor_routing_tune.json")[0]["tune"]
    assert all(set(item) == {"id", "question", "sequence", "why"} for item in items)
    assert len({item["id"] for item in items}) == len({item["question"] for item in items}) == len(items) == 92
    assert all(item["sequence"] and set(item["sequence"]) <= set(AGENTS) and len(item["sequence"]) <= 3 for item in items)
    lengths = Counter(len(item["sequence"]) for item in items)
    assert lengths == {1: 49, 2: 34, 3: 9}
    assert all("chitchat" not in item["sequence"] or item["sequence"] == ["chitchat"] for item in items)


def test_no_tune_question_repeats_a_dev_or_test_question() -> None:
    tune = {" ".join(i["question"].lower().split()) for i in load_goldset("supervisor_routing_tune.json")[0]["tune"]}
    routing = json.loads((ROOT / "data" / "eval" / "supervisor_routing.json").read_text(encoding="utf-8"))
    others = {" ".join(i["question"].lower().split()) for split in routing.values() for i in split}
    assert not tune & others
