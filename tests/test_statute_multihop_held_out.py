"""The held-out and report multi-hop statute sets (``data/eval/statute_multihop_{held_out,report}.json``): frozen,
rebuilt exactly by their script, and their labels grounded in ``data/statute.md`` (each penalty paragraph cites its offence article,
each defined term is a paragraph of Article 3). No statute graph runs here: each set is scored once by
``benchmarks/statute/multihop_held_out.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragkit.domains.statute.corpus import load_statute
from ragkit.goldsets import load_goldset
from tests.conftest import goldset_builder

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("statute_multihop_held_out.json", "statute_multihop_report.json")


def _script():
    return goldset_builder("make_statute_multihop_held_out")


@pytest.fixture(scope="module", params=NAMES)
def items(request) -> list[dict]:
    return load_goldset(request.param)[0]["items"]  # raises if the bytes no longer match the manifest


def paragraph(articles: dict[int, str], label: str) -> str:
    """The text of paragraph ``label`` ("35(2)") of the statute: from "(2)" to the next numbered paragraph."""
    number, para = re.fullmatch(r"(\d+)\((\d+)\)", label).groups()
    match = re.search(rf"^\({para}\)(.*?)(?=^\(\d+\)|\Z)", articles[int(number)], re.MULTILINE | re.DOTALL)
    assert match, label
    return match.group(1)


@pytest.mark.parametrize("name", NAMES)
def test_the_set_is_frozen_and_its_script_reproduces_it(name) -> None:
    assert _script().build(name) == (ROOT / "data" / "eval" / name).read_text(encoding="utf-8")


def test_no_question_of_one_set_repeats_one_of_the_other() -> None:
    held_out, report = ({" ".join(i["question"].lower().split()) for i in load_goldset(n)[0]["items"]} for n in NAMES)
    assert not held_out & report


def test_every_item_needs_two_articles_and_names_them_by_paragraph(items) -> None:
    assert len(items) == 14 and len({i["id"] for i in items}) == len({i["question"] for i in items}) == 14
    for item in items:
        assert len(item["gold_articles"]) == len(item["gold_paragraphs"]) == 2, item["id"]
        assert [int(p.split("(")[0]) for p in item["gold_paragraphs"]] == item["gold_articles"], item["id"]
        assert not re.search(r"\barticle\s+\d", item["question"], re.IGNORECASE), item["id"]  # the question names no article


def test_labels_are_grounded_in_the_statute(items) -> None:
    articles = {d.metadata["article"]: d.page_content for d in load_statute()}
    for item in items:
        first, second = item["gold_paragraphs"]
        if item["pattern"] == "penalty->offence":
            assert item["gold_articles"][0] in (35, 36), item["id"]
            assert f"Article {item['gold_articles'][1]}" in paragraph(articles, first), item["id"]
            paragraph(articles, second)
        else:
            assert item["pattern"] == "defined term" and item["gold_articles"][1] == 3, item["id"]
            assert " means " in paragraph(articles, second), item["id"]
            paragraph(articles, first)
