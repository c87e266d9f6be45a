"""The blind multi-hop statute report sets (``data/eval/statute_multihop_report{2,3,4,5,6,7}.json``): frozen, and each
rebuilt byte for byte by its builder from its items (whose labels ``statute_multihop_sets.validate`` checks against
``data/statute.md`` on every build). No statute graph runs here: each set is scored by
``benchmarks/statute/multihop_held_out.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ragkit.goldsets import load_goldset
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]


def builder(number: int):
    return goldset_builder(f"make_statute_multihop_report{number}")


@pytest.mark.parametrize("number", [2, 3, 4, 5, 6, 7])
def test_each_report_set_is_frozen_and_its_builder_reproduces_it(number: int) -> None:
    module = builder(number)
    data, _ = load_goldset(module.NAME)  # raises if the bytes no longer match the manifest
    sets = sys.modules["statute_multihop_sets"]
    text = sets.build(module.ITEMS, module.ABOUT, f"mh{number}", module.penalty_problem)
    assert text == (ROOT / "data" / "eval" / module.NAME).read_text(encoding="utf-8")
    patterns = [item["pattern"] for item in data["items"]]
    assert len(patterns) == 18 and patterns.count("penalty->offence") == patterns.count("defined term") == 9
