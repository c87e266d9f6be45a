"""What notebook 11 relies on: the k-hop walk, the plots of the committed results, and questions of its own
(none of them a copy or near-copy of a gold question, so the chapter does not show the test split)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib
import nbformat
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragkit.domains.statute.plots import (
    ROUTING_SIZE,
    STRATEGY_TABLE_SIZE,
    articles_within,
    plot_routing_comparison,
    plot_strategy_table,
    routing_rows,
    strategy_matrix,
)
from ragkit.goldsets import eval_dir

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parent.parent
RESULTS = json.loads((ROOT / "benchmarks" / "results" / "statute_qa.json").read_text(encoding="utf-8"))
NOTEBOOK = ROOT / "notebooks" / "11_statute_qa.ipynb"


# ---------------------------------------------------------------- articles_within
def test_articles_within_follows_edges_forward_with_shortest_distances():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("e", "a")])
    assert articles_within(g, "a", 0) == {"a": 0}
    assert articles_within(g, "a", 1) == {"a": 0, "b": 1, "c": 1}
    assert articles_within(g, "a", 9) == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert "e" not in articles_within(g, "a", 9)  # e cites a; a does not reach e


def test_articles_within_rejects_bad_input_in_words():
    g = nx.DiGraph([("a", "b")])
    with pytest.raises(KeyError, match="not an article"):
        articles_within(g, "z", 1)
    for hops in (-1, 1.5, True):
        with pytest.raises(ValueError, match="non-negative integer"):
            articles_within(g, "a", hops)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20), st.integers(0, 7), st.integers(0, 4))
def test_articles_within_equals_the_shortest_paths_within_the_cutoff(edges, start, hops):
    g = nx.DiGraph()
    g.add_nodes_from(range(8))
    g.add_edges_from((u, v) for u, v in edges if u != v)
    lengths = nx.single_source_shortest_path_length(g, start, cutoff=hops)
    assert articles_within(g, start, hops) == dict(lengths)


# ---------------------------------------------------------------- the plots read the committed results
def test_the_plots_read_the_committed_results_at_fixed_sizes():
    import matplotlib.pyplot as plt

    table = plot_strategy_table(RESULTS)
    bars = plot_routing_comparison(RESULTS)
    assert tuple(table.get_size_inches()) == STRATEGY_TABLE_SIZE and tuple(bars.get_size_inches()) == ROUTING_SIZE
    plt.close("all")
    matrix = strategy_matrix(RESULTS, "test", "recall@5")
    assert matrix.shape == (3, 5) and ((matrix >= 0) & (matrix <= 1)).all()
    assert matrix[1, 0] == RESULTS["per_strategy"]["test"]["hybrid"]["single"]["recall@5"]
    rows = routing_rows(RESULTS)
    assert [(split, table) for split, table, _, _ in rows] == [("dev", "starting_table"), ("dev", "dev_chosen_table"),
                                                              ("test", "starting_table"), ("test", "dev_chosen_table")]


def test_the_results_file_says_which_gold_set_it_scored():
    from ragkit.goldsets import load_goldset

    _, sha = load_goldset("statute_qa.json")
    assert RESULTS["gold_set"]["sha256"] == sha


# ---------------------------------------------------------------- the notebook's own questions
def notebook_questions() -> list[str]:
    cells = nbformat.read(NOTEBOOK, as_version=4).cells
    found = set()
    for cell in cells:
        if cell.cell_type == "code":
            found |= set(re.findall(r'"([A-Z제][^"\n]{12,}\?)"', cell.source))
            found |= set(re.findall(r"'([A-Z제][^'\n]{12,}\?)'", cell.source))
    return sorted(found)


def test_the_notebook_asks_its_own_questions_not_the_gold_sets():
    from ragkit.core.embeddings import embed, load_embedder

    questions = notebook_questions()
    assert len(questions) >= 15
    gold = [i["question"] for i in json.loads((eval_dir() / "statute_qa.json").read_text(encoding="utf-8"))]
    folded = {" ".join(q.lower().split()) for q in gold}
    assert sum(" ".join(q.lower().split()) in folded for q in questions) == 0, "a notebook question repeats a gold question"
    # MiniLM reads English only (Korean strings all look alike to it), so the near-copy check is for English questions.
    english = [q for q in questions if not re.search(r"[\uac00-\ud7a3]", q)]
    embedder = load_embedder()
    sims = embed(embedder, english) @ embed(embedder, gold).T
    assert int((sims > 0.85).sum()) == 0, "a notebook question nearly repeats a gold question: rewrite it (do not look at which)"
