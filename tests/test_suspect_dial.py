"""The rule of ``benchmarks/statute/suspect_dial.py``: which bar it keeps, and that its dev pool holds no report set."""

from __future__ import annotations

from ragkit.goldsets import load_goldset
from tests.conftest import benchmark_script


def _script():
    return benchmark_script("statute/suspect_dial.py")


def test_the_rule_keeps_the_shipped_bar_unless_another_wins_by_the_margin() -> None:
    choose = _script().choose
    assert choose({None: 0.5, 0.01: 0.62, 0.02: 0.6}, 0.02) == 0.01
    assert choose({0.01: 0.605, 0.02: 0.6}, 0.02) == 0.02  # a gain under MIN_GAIN keeps the shipped bar
    assert choose({None: 0.7, 0.01: 0.7, 0.02: 0.6}, 0.02) is None  # ties go to the higher bar; None refuses most
    assert choose({0.01: 0.7, 0.03: 0.7, 0.02: 0.6}, 0.02) == 0.03


def test_the_dev_pool_is_every_dev_set_and_no_report_set() -> None:
    pool = _script().dev_pool()
    ids = {i["id"] for i in pool}
    assert len(pool) == 226 and sum(not i["answerable"] for i in pool) == 34
    for report in ("statute_refusal_report.json", "statute_multihop_report6.json", "statute_multihop_report7.json"):
        assert not ids & {i["id"] for i in load_goldset(report)[0]["items"]}, report
    test_split = {i["id"] for i in load_goldset("statute_qa.json")[0] if i["split"] == "test"}
    assert not ids & test_split
