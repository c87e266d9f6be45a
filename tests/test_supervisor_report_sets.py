"""The blind supervisor routing sets (``data/eval/supervisor_routing_test{2,3,4,5}.json``): frozen, rebuilt byte
for byte by their builders, and well formed (every sequence of known agents, at most three, chitchat only alone).
No supervisor runs here: each set is scored by ``benchmarks/supervisor/routing_accuracy.py``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragkit.goldsets import load_goldset
from ragkit.roles.agent_protocols import AGENTS
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]


def builder(number: int):
    return goldset_builder(f"make_supervisor_test{number}")


@pytest.mark.parametrize("number", [2, 3, 4, 5])
def test_each_blind_set_is_frozen_reproduced_and_well_formed(number: int) -> None:
    name = f"supervisor_routing_test{number}.json"
    data, _ = load_goldset(name)  # raises if the bytes no longer match the manifest
    assert builder(number).build() == (ROOT / "data" / "eval" / name).read_text(encoding="utf-8")
    items = data[f"test{number}"]
    assert len(items) == 96 and len({i["id"] for i in items}) == len({i["question"] for i in items}) == 96
    assert all(i["sequence"] and set(i["sequence"]) <= set(AGENTS) and len(i["sequence"]) <= 3 for i in items)
    assert all("chitchat" not in i["sequence"] or i["sequence"] == ["chitchat"] for i in items)
    assert Counter(len(i["sequence"]) for i in items) == {1: 60, 2: 24, 3: 12}
