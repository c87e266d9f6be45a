"""Pictures of the statute: its article graph, and the statute QA measurements read from
``benchmarks/results/statute_qa.json``.

- :func:`draw_article_graph` (positions from :func:`graph_layout`), :func:`graph_elements` (plain node and
  edge lists for a widget) and :func:`articles_within` (a k-hop walk, the crude cousin of PageRank);
- :func:`plot_strategy_table`: the per-strategy, per-type table (hit@1 or recall@5) as heat maps, one
  per split, the best strategy of each type outlined;
- :func:`plot_routing_comparison`: routing hit@1 with oracle types vs classifier types, for the starting
  table and the dev-chosen one, next to the original system's two figures.

Like :mod:`ragkit.plots`, each function draws on a new figure of a fixed size (nbval compares the
``<Figure size ...>`` text, not the pixels) and returns it; call ``plt.show()`` after it in a notebook.
The functions only draw what the results file holds: they compute nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx
import numpy as np

from ragkit.domains.statute.article_graph import EDGE_KINDS
from ragkit.domains.statute.questions import ROUTED_KINDS
from ragkit.domains.statute.strategies import STRATEGIES

STRATEGY_TABLE_SIZE = (10.0, 3.4)
ROUTING_SIZE = (9.0, 3.6)
TYPES = (*ROUTED_KINDS, "all_answerable")


def graph_elements(graph: nx.DiGraph) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Plain node and edge lists (JSON-ready) for a table, a widget or a custom drawing.

    >>> from langchain_core.documents import Document
    >>> from ragkit.domains.statute.article_graph import build_article_graph
    >>> g = build_article_graph([Document("Article 1. A\\n\\nSee Article 2.", metadata={"id": "art-1", "article": 1}),
    ...                          Document("Article 2. B\\n\\nText.", metadata={"id": "art-2", "article": 2})])
    >>> graph_elements(g)[1]
    [{'source': 'art-1', 'target': 'art-2', 'kinds': ['reference'], 'terms': [], 'weight': 1.0}]
    """
    nodes = [{"id": n, "article": d.get("article"), "title": d.get("title", ""), "part": d.get("part")} for n, d in graph.nodes(data=True)]
    edges = [{"source": u, "target": v, "kinds": list(d.get("kinds", ())), "terms": list(d.get("terms", ())), "weight": d.get("weight", 1.0)}
             for u, v, d in graph.edges(data=True)]
    return nodes, edges


def graph_layout(graph: nx.DiGraph, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Node positions from networkx's spring layout with a fixed ``seed`` (same seed, same picture)."""
    pos = nx.spring_layout(graph, seed=seed, k=1.2 / max(graph.number_of_nodes(), 1) ** 0.5)
    return {node: (float(x), float(y)) for node, (x, y) in pos.items()}


def draw_article_graph(graph: nx.DiGraph, seed: int = 0, highlight: Sequence[str] = (), kinds: Sequence[str] = EDGE_KINDS,
                       figsize: tuple[float, float] = (10.0, 8.0)) -> Any:
    """A matplotlib Figure of the graph (:func:`graph_layout`): references solid grey, term uses dashed green.

    ``highlight`` lists node ids to draw in orange (say, what a retriever returned). Nothing is shown,
    saved or fetched; in a notebook the returned figure displays itself.
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    fig = Figure(figsize=figsize)
    ax = fig.add_subplot()
    pos = graph_layout(graph, seed)
    marked = set(highlight)
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_color=["tab:orange" if n in marked else "tab:blue" for n in graph.nodes],
                           node_size=260, alpha=0.9)
    labels = {n: str(d.get("article", n)) for n, d in graph.nodes(data=True)}
    nx.draw_networkx_labels(graph, pos, labels=labels, ax=ax, font_size=7, font_color="white")
    handles = []
    for kind, style, color in (("reference", "solid", "tab:gray"), ("defined_term", "dashed", "tab:green")):
        if kind in kinds:
            edgelist = [(u, v) for u, v, d in graph.edges(data=True) if kind in d.get("kinds", ())]
            nx.draw_networkx_edges(graph, pos, edgelist=edgelist, ax=ax, style=style, alpha=0.4, arrowsize=8, edge_color=color)
            handles.append(Line2D([], [], linestyle=style, color=color, label=kind))
    ax.legend(handles=handles, loc="lower left", fontsize=8)
    ax.set_axis_off()
    return fig


def articles_within(graph: nx.DiGraph, start: str, hops: int) -> dict[str, int]:
    """Every article ``start`` reaches in at most ``hops`` steps along the edges (what it needs, what those
    need, ...), with its distance in steps; ``start`` itself is at 0.

    The crude cousin of personalized PageRank: a k-hop neighbourhood treats every reachable article alike,
    so with the definitions article one step from nearly everything, two hops reach most of the statute.

    >>> g = nx.DiGraph([("art-1", "art-2"), ("art-2", "art-3"), ("art-4", "art-1")])
    >>> articles_within(g, "art-1", 1)
    {'art-1': 0, 'art-2': 1}
    >>> articles_within(g, "art-1", 5)
    {'art-1': 0, 'art-2': 1, 'art-3': 2}
    """
    if start not in graph:
        raise KeyError(f"{start!r} is not an article of the graph")
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 0:
        raise ValueError(f"hops must be a non-negative integer, got {hops!r}")
    return dict(sorted(nx.single_source_shortest_path_length(graph, start, cutoff=hops).items(), key=lambda kv: (kv[1], kv[0])))


def strategy_matrix(results: Mapping[str, Any], split: str, metric: str = "hit@1",
                    types: Sequence[str] = TYPES) -> np.ndarray:
    """Rows: strategies; columns: question types; cells: ``metric`` on ``split`` (NaN where missing).

    >>> r = {"per_strategy": {"dev": {"vector": {"single": {"hit@1": 0.5}}, "hybrid": {}, "graph": {}}}}
    >>> strategy_matrix(r, "dev", types=("single",)).tolist()
    [[0.5], [nan], [nan]]
    """
    table = results["per_strategy"][split]
    return np.array([[float(table.get(s, {}).get(t, {}).get(metric, np.nan)) for t in types] for s in STRATEGIES])


def plot_strategy_table(results: Mapping[str, Any], metric: str = "hit@1", splits: Sequence[str] = ("dev", "test"),
                        types: Sequence[str] = TYPES) -> Any:
    """Heat maps of ``metric`` per strategy (rows) and question type (columns), one panel per split.

    The citation column is plain retrieval (no pin): with the pin every strategy reaches hit@1 1.0.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(splits), figsize=STRATEGY_TABLE_SIZE, squeeze=False)
    for ax, split in zip(axes[0], splits):
        values = strategy_matrix(results, split, metric, types)
        image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap="viridis", aspect="auto")
        for row in range(values.shape[0]):
            for col in range(values.shape[1]):
                best = np.nanmax(values[:, col])
                ax.text(col, row, f"{values[row, col]:.2f}", ha="center", va="center", fontsize=8,
                        color="black" if values[row, col] > 0.6 else "white",
                        fontweight="bold" if values[row, col] == best else "normal")
        n = [results["per_strategy"][split]["hybrid"].get(t, {}).get("n", 0) for t in types]
        ax.set_xticks(range(len(types)), [f"{t.replace('all_answerable', 'all')}\n(n={k})" for t, k in zip(types, n)], fontsize=8)
        ax.set_yticks(range(len(STRATEGIES)), STRATEGIES if ax is axes[0][0] else [])
        ax.set_title(f"{metric}, {split} split (best per type in bold)", fontsize=9)
    fig.subplots_adjust(left=0.07, right=0.9, wspace=0.08, bottom=0.2)
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8)
    return fig


def routing_rows(results: Mapping[str, Any], splits: Sequence[str] = ("dev", "test")) -> list[tuple[str, str, float, float]]:
    """``(split, table, oracle hit@1, classifier hit@1)`` over all answerable questions, from the results."""
    rows = []
    for split in splits:
        for table in ("starting_table", "dev_chosen_table"):
            entry = results["routing"][split][table]
            rows.append((split, table, entry["oracle"]["all_answerable"]["hit@1"], entry["classifier"]["all_answerable"]["hit@1"]))
    return rows


def plot_routing_comparison(results: Mapping[str, Any], splits: Sequence[str] = ("dev", "test")) -> Any:
    """Bars: routing hit@1 with the true (oracle) types and with the classifier's, per split and table,
    and the original system's two figures (``results["original_system"]``) on the left."""
    import matplotlib.pyplot as plt

    original = results["original_system"]
    labels = ["original\nsystem"] + [f"{split}\n{table.replace('_table', '').replace('_', ' ')}" for split, table, _, _ in
                                     routing_rows(results, splits)]
    oracle = [original["oracle_hit@1"]] + [o for _, _, o, _ in routing_rows(results, splits)]
    classifier = [original["classifier_hit@1"]] + [c for _, _, _, c in routing_rows(results, splits)]
    fig, ax = plt.subplots(figsize=ROUTING_SIZE)
    x = np.arange(len(labels))
    for offset, values, name, colour in ((-0.2, oracle, "oracle types", "#4c72b0"), (0.2, classifier, "classifier types", "#dd8452")):
        bars = ax.bar(x + offset, values, width=0.4, label=name, color=colour)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("routing hit@1 (answerable)")
    ax.set_title("route by the true type or by the classifier's guess?", fontsize=9)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


__all__ = ["ROUTING_SIZE", "STRATEGY_TABLE_SIZE", "articles_within", "draw_article_graph", "graph_elements", "graph_layout",
           "plot_routing_comparison", "plot_strategy_table", "routing_rows", "strategy_matrix"]
