"""The statute refusal sets (``data/eval/statute_refusal_{dev,report}.json``): frozen, rebuilt byte for byte by their
builder (whose checks read the gold labels against ``data/statute.md``), and of the designed shape. No statute graph
runs here; nothing of the report set beyond its shape is read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragkit.goldsets import load_goldset
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("half", ["dev", "report"])
def test_each_refusal_set_is_frozen_rebuilt_and_of_the_designed_shape(half: str) -> None:
    module = goldset_builder("make_statute_refusal_sets")
    items, name, prefix, seed = ((module.DEV_ITEMS, module.DEV_NAME, "srd", module.SEED) if half == "dev" else
                                 (module.REPORT_ITEMS, module.REPORT_NAME, "srr", module.SEED + 1))
    data, _ = load_goldset(name)  # raises if the bytes no longer match the manifest
    assert module.build(items, module.ABOUT[half], prefix, seed) == (ROOT / "data" / "eval" / name).read_text(encoding="utf-8")
    rows = data["items"]
    assert Counter(r["category"] for r in rows) == {"answerable": 20, "near_miss": 5, "other_law": 5, "practical": 5,
                                                   "outside_law": 5}
    assert all(r["answerable"] == bool(r["gold_articles"]) == (r["category"] == "answerable") for r in rows)
    assert len({r["id"] for r in rows}) == len({r["question"] for r in rows}) == 40


def test_the_dev_and_report_refusal_sets_share_no_question() -> None:
    dev, _ = load_goldset("statute_refusal_dev.json")
    report, _ = load_goldset("statute_refusal_report.json")
    assert not {r["question"] for r in dev["items"]} & {r["question"] for r in report["items"]}
