"""Pictures for the notebooks: a run's timeline, router scores, MMR's trade-off, reranker contributions,
grouped bars for a benchmark's per-category results, per-node latency from a server's metrics, a
bandit's Beta posteriors and its curves over a replay (arm shares, cumulative regret), the
risk-coverage curves of the graphs' refusal dials, and query time and memory against corpus size (the
scaling benchmark).

Every function draws on a new figure of a fixed size (nbval compares the ``<Figure size ...>`` text of a
plot, not its pixels) and returns the figure; call ``plt.show()`` after it in a notebook. matplotlib is
imported lazily, so importing ragkit does not need it.

Simplifications: the timeline lays node runs end to end in the order of ``timings`` (parallel branches
would overlap in reality); durations are wall-clock and change from run to run, so notebooks plot them
and never print them.
"""

from __future__ import annotations

import textwrap
import time
from typing import Any, Mapping, Sequence

import numpy as np

TIMELINE_SIZE = (8.0, 3.0)
SCORES_SIZE = (6.5, 3.0)
TRADEOFF_SIZE = (6.0, 3.5)
CONTRIBUTIONS_SIZE = (7.5, 3.5)
GROUPED_SIZE = (8.0, 3.5)
POSTERIORS_SIZE = (9.0, 3.0)
CURVES_SIZE = (7.5, 3.5)
RISK_COVERAGE_SIZE = (7.5, 4.0)
PART_COLOURS = {"prototypes": "#7b6cf6", "passages": "#4c72b0", "terms": "#55a868", "signals": "#dd8452"}


def _pyplot() -> Any:
    import matplotlib.pyplot as plt

    return plt


def timeline_segments(timings: Sequence[tuple[str, float]]) -> list[tuple[str, float, float]]:
    """``(node, start, duration)`` in milliseconds, node runs laid end to end.

    >>> timeline_segments([("retrieve", 0.010), ("grade", 0.002)])
    [('retrieve', 0.0, 10.0), ('grade', 10.0, 2.0)]
    """
    segments, start = [], 0.0
    for name, seconds in timings:
        ms = round(float(seconds) * 1000.0, 6)
        segments.append((str(name), round(start, 6), ms))
        start += ms
    return segments


def stream_timings(graph: Any, inputs: Any, config: Mapping[str, Any] | None = None) -> list[tuple[str, float]]:
    """Run ``graph`` with ``stream_mode="updates"`` and time each node from the updates as they arrive: a
    trace for any graph, including ones whose nodes are not wrapped by ``traced``. Each duration includes
    LangGraph's own bookkeeping between nodes; an interrupt ends the list (resume and call again).

    >>> from ragkit.graphs.basics import build_guess_graph, new_game
    >>> [name for name, _ in stream_timings(build_guess_graph(), new_game(secret=50))]
    ['guess', 'check', 'found']
    """
    timings: list[tuple[str, float]] = []
    last = time.perf_counter()
    for chunk in graph.stream(inputs, config, stream_mode="updates"):
        now = time.perf_counter()
        for name in chunk:
            if not str(name).startswith("__"):
                timings.append((str(name), round(now - last, 6)))
        last = now
    return timings


def plot_timeline(run: Mapping[str, Any] | Sequence[tuple[str, float]], title: str = "node by node") -> Any:
    """A run's timeline from its trace: one row per node, one bar per visit. Pass the final state of a graph
    whose nodes are ``traced`` (its ``timings``), or a ``[(node, seconds), ...]`` list such as
    :func:`stream_timings` returns for any graph."""
    timings = run.get("timings", []) if isinstance(run, Mapping) else list(run)
    if not timings:
        raise ValueError("this run has no 'timings': time it with stream_timings(graph, inputs, config) instead")
    plt = _pyplot()
    segments = timeline_segments(timings)
    nodes = list(dict.fromkeys(name for name, _, _ in segments))
    fig, ax = plt.subplots(figsize=TIMELINE_SIZE)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for name, start, ms in segments:
        row = nodes.index(name)
        ax.barh(row, max(ms, 1e-3), left=start, color=colours[row % len(colours)], edgecolor="white")
    ax.set_yticks(range(len(nodes)), nodes)
    ax.invert_yaxis()
    ax.set_xlabel("milliseconds since the run started (wall clock: changes every run)")
    total = sum(ms for _, _, ms in segments)
    ax.set_title(f"{title}: {len(segments)} node runs, {total:.1f} ms in all")
    fig.tight_layout()
    return fig


def plot_route_scores(explained: Mapping[str, Mapping[str, float]] | Mapping[str, float], chosen: str | None = None,
                      title: str = "router scores per route") -> Any:
    """Router scores as bars: ``LocalRouter.explain(q)`` gives stacked parts (prototypes, passages, terms, signals)
    with the total marked; a plain ``{route: score}`` gives one bar per route. ``chosen`` is outlined."""
    plt = _pyplot()
    routes = list(explained)
    fig, ax = plt.subplots(figsize=SCORES_SIZE)
    first = next(iter(explained.values()), 0.0)
    if isinstance(first, Mapping):
        parts = [p for p in PART_COLOURS if any(p in explained[r] for r in routes)]
        pos, neg = np.zeros(len(routes)), np.zeros(len(routes))
        for part in parts:
            values = np.array([explained[r].get(part, 0.0) for r in routes])
            bottom = np.where(values >= 0, pos, neg)
            ax.barh(routes, values, left=bottom, color=PART_COLOURS[part], label=part)
            pos, neg = pos + np.clip(values, 0, None), neg + np.clip(values, None, 0)
        totals = [explained[r].get("score", sum(explained[r].get(p, 0.0) for p in parts)) for r in routes]
        ax.scatter(totals, routes, marker="|", s=300, color="black", label="score", zorder=3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    else:
        totals = [float(explained[r]) for r in routes]
        ax.barh(routes, totals, color="#7b6cf6")
    if chosen in routes:
        ax.get_yticklabels()[routes.index(chosen)].set_fontweight("bold")
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("score (a sum of cosine similarities, not a probability)")
    ax.set_title(title + (f" (chosen: {chosen})" if chosen else ""))
    fig.tight_layout()
    return fig


def mmr_tradeoff(query_vec: np.ndarray, cand_vecs: np.ndarray, k: int,
                 lambdas: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0)) -> list[tuple[float, float, float]]:
    """For each ``lambda_mult``: ``(lambda, mean relevance of the k picks, diversity = 1 - mean pairwise
    cosine among them)``, with ragkit's ``mmr_select``.

    >>> q = np.array([1.0, 0.0]); c = np.array([[1.0, 0.0], [0.99, 0.141], [0.0, 1.0]])
    >>> [(lam, round(rel, 2), round(div, 2)) for lam, rel, div in mmr_tradeoff(q, c, 2, (0.2, 1.0))]
    [(0.2, 0.5, 1.0), (1.0, 0.99, 0.01)]
    """
    from ragkit.core.dense import mmr_select

    rows = []
    for lam in lambdas:
        picks = [i for i, _ in mmr_select(query_vec, cand_vecs, k, lam)]
        chosen = cand_vecs[picks]
        relevance = float((chosen @ query_vec).mean())
        sims = chosen @ chosen.T
        pairs = sims[np.triu_indices(len(picks), 1)]
        rows.append((float(lam), relevance, float(1.0 - pairs.mean()) if len(pairs) else 0.0))
    return rows


def plot_mmr_tradeoff(query_vec: np.ndarray, cand_vecs: np.ndarray, k: int,
                      lambdas: Sequence[float] = tuple(np.round(np.linspace(0, 1, 11), 2)),
                      title: str = "MMR: relevance against diversity") -> Any:
    """MMR's trade-off curve: each point is one ``lambda_mult`` (labelled), placed by the mean relevance and
    the diversity of its ``k`` picks."""
    plt = _pyplot()
    rows = mmr_tradeoff(query_vec, cand_vecs, k, lambdas)
    fig, ax = plt.subplots(figsize=TRADEOFF_SIZE)
    ax.plot([r[2] for r in rows], [r[1] for r in rows], "o-", color="#7b6cf6")
    groups: list[list[tuple[float, float, float]]] = []  # lambdas that pick the same set share one label
    for row in rows:
        if groups and np.isclose(groups[-1][0][1], row[1]) and np.isclose(groups[-1][0][2], row[2]):
            groups[-1].append(row)
        else:
            groups.append([row])
    for group in groups:
        lams = [g[0] for g in group]
        text = f"{lams[0]:g}" if len(lams) == 1 else f"{lams[0]:g}-{lams[-1]:g}"
        ax.annotate(text, (group[0][2], group[0][1]), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("diversity of the picks (1 - mean cosine between them)")
    ax.set_ylabel("mean cosine with the query")
    ax.set_title(f"{title} (k={k}; labels: lambda_mult)")
    fig.tight_layout()
    return fig


def rerank_contributions(reranker: Any, query: str, docs: Sequence[Any]) -> tuple[list[str], np.ndarray]:
    """``(signal names, weight * scaled feature per candidate)`` for a ``LocalReranker``; the rows sum to its
    scores."""
    from ragkit.core.rerank import FEATURES

    features = reranker.features(query, docs)
    weights = np.array([reranker.weights.get(name, 0.0) for name in FEATURES])
    return list(FEATURES), features * weights


def plot_rerank_contributions(reranker: Any, query: str, docs: Sequence[Any], labels: Sequence[str],
                              title: str = "what each signal adds to the rerank score") -> Any:
    """Stacked bars, one per candidate (in first-stage order): how much each weighted signal adds to the
    ``LocalReranker`` score. A signal with weight 0 adds nothing and is left out of the legend."""
    plt = _pyplot()
    names, parts = rerank_contributions(reranker, query, docs)
    fig, ax = plt.subplots(figsize=CONTRIBUTIONS_SIZE)
    left = np.zeros(len(docs))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for j, name in enumerate(names):
        weight = reranker.weights.get(name, 0.0)
        if weight == 0.0:
            continue
        ax.barh(list(labels), parts[:, j], left=left, color=colours[j % len(colours)], label=f"{name} (weight {weight:g})")
        left += parts[:, j]
    ax.invert_yaxis()
    ax.set_xlabel("contribution to the rerank score (weight x signal scaled to 0..1 over these candidates)")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- bandits
def beta_density(alpha: float, beta: float, x: np.ndarray) -> np.ndarray:
    """The Beta(alpha, beta) density at ``x`` (in the open interval (0, 1)), through log-gamma so large
    counts do not overflow.

    >>> [round(float(v), 3) for v in beta_density(2.0, 2.0, np.array([0.25, 0.5]))]
    [1.125, 1.5]
    """
    from math import lgamma

    if not (alpha > 0 and beta > 0):
        raise ValueError(f"alpha and beta must be > 0 (Beta parameters), got {alpha!r}, {beta!r}")
    x = np.asarray(x, dtype=np.float64)
    log_norm = lgamma(alpha + beta) - lgamma(alpha) - lgamma(beta)
    return np.exp(log_norm + (alpha - 1.0) * np.log(x) + (beta - 1.0) * np.log1p(-x))


def plot_beta_posteriors(panels: Mapping[str, Mapping[str, tuple[float, float]]],
                         title: str = "Beta posteriors of each arm's reward rate") -> Any:
    """One panel per entry of ``panels`` (``{label: {arm: (alpha, beta)}}``, e.g. after 0 / 50 / 200
    queries), each drawing every arm's Beta density; an arm keeps its colour across panels and its
    posterior mean is marked with a dotted line. The figure size is fixed whatever the number of panels."""
    plt = _pyplot()
    if not panels:
        raise ValueError("panels is empty: pass {label: {arm: (alpha, beta)}}")
    fig, axes = plt.subplots(1, len(panels), figsize=POSTERIORS_SIZE, sharey=False, squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    arms = list(dict.fromkeys(arm for panel in panels.values() for arm in panel))
    x = np.linspace(0.001, 0.999, 400)
    for ax, (label, posteriors) in zip(axes[0], panels.items()):
        for arm, (a, b) in posteriors.items():
            colour = colours[arms.index(arm) % len(colours)]
            ax.plot(x, beta_density(a, b, x), color=colour, label=arm)
            ax.axvline(a / (a + b), color=colour, linestyle=":", linewidth=1)
        ax.set_title(label, fontsize=9)
        ax.set_xlim(0, 1)
        ax.set_yticks([])
        ax.set_xlabel("reward rate")
    axes[0][0].set_ylabel("density")
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_curves(points: Sequence[int], curves: Mapping[str, Sequence[float]], ylabel: str, title: str,
                bands: Mapping[str, Sequence[float]] | None = None, marks: Sequence[int] = (),
                hline: float | None = None) -> Any:
    """Lines over a replay: ``curves`` maps a name (an arm, a policy) to one value per entry of ``points``
    (query numbers); ``bands`` gives a +-spread per name (drawn shaded), ``marks`` vertical lines at some
    query numbers (say 50), ``hline`` a horizontal reference line."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=CURVES_SIZE)
    for name, values in curves.items():
        values = np.asarray(values, dtype=np.float64)
        if len(values) != len(points):
            raise ValueError(f"curve {name!r} has {len(values)} values for {len(points)} points")
        (line,) = ax.plot(points, values, label=name)
        if bands and name in bands:
            spread = np.asarray(bands[name], dtype=np.float64)
            ax.fill_between(points, values - spread, values + spread, color=line.get_color(), alpha=0.15, linewidth=0)
    for mark in marks:
        ax.axvline(mark, color="grey", linestyle="--", linewidth=0.8)
        ax.annotate(f"query {mark}", (mark, 1.0), xycoords=("data", "axes fraction"), xytext=(3, -12),
                    textcoords="offset points", fontsize=8, color="grey")
    if hline is not None:
        ax.axhline(hline, color="black", linewidth=0.8)
    ax.set_xlabel("queries seen")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def _field(point: Any, name: str) -> Any:
    return point[name] if isinstance(point, Mapping) else getattr(point, name)


def default_point(points: Sequence[Any], default: Any) -> Any:
    """The point a default marks: the point itself (a mapping or object with ``coverage``), or for a bar, the
    curve's point at that bar (the one with the lowest threshold at or above it: the runs answering there).

    >>> pts = [{"threshold": "inf", "coverage": 0.0}, {"threshold": 0.6, "coverage": 0.4}, {"threshold": 0.2, "coverage": 0.9}]
    >>> default_point(pts, 0.3)["coverage"], default_point(pts, {"coverage": 0.5, "accuracy": 0.7})["coverage"]
    (0.4, 0.5)
    """
    if not isinstance(default, (int, float)):
        return default
    above = [p for p in points if float(_field(p, "threshold")) >= default]
    return min(above, key=lambda p: float(_field(p, "threshold")))


def plot_risk_coverage(curves: Mapping[str, Sequence[Any]], defaults: Mapping[str, Any] | None = None,
                       title: str = "answer or refuse: the refusal dial") -> Any:
    """Risk-coverage curves: share of questions answered (x) against share of those answers that are right
    (y), one line per graph; ``defaults`` marks each graph's default bar (a point, or the bar itself).

    ``curves`` maps a name to its points (:class:`ragkit.evaluation.risk_coverage.Point` objects or their
    ``as_dict()`` mappings, as ``benchmarks/results/refusal_risk_coverage.json`` stores them); points that
    answer nothing have no accuracy and are skipped.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=RISK_COVERAGE_SIZE)
    for name, points in curves.items():
        drawn = sorted((p for p in points if _field(p, "accuracy") is not None), key=lambda p: _field(p, "coverage"))
        (line,) = ax.plot([_field(p, "coverage") for p in drawn], [_field(p, "accuracy") for p in drawn],
                          drawstyle="steps-post", label=name)
        if defaults and name in defaults:
            mark = default_point(points, defaults[name])
            if _field(mark, "accuracy") is not None:
                given = defaults[name]
                bar = given if isinstance(given, (int, float)) else _field(mark, "threshold")
                ax.plot([_field(mark, "coverage")], [_field(mark, "accuracy")], marker="o", markersize=8,
                        color=line.get_color(), markeredgecolor="black", linestyle="none")
                ax.annotate(f"default {float(bar):.2f}" if bar != "inf" else "default", (_field(mark, "coverage"),
                            _field(mark, "accuracy")), xytext=(5, -12), textcoords="offset points", fontsize=8)
    ax.set_xlim(0.0, 1.02)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("coverage: share of questions answered")
    ax.set_ylabel("accuracy of the answers")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


LATENCY_SIZE = (7.5, 3.5)


def latency_rows(summary: Mapping[str, Any], graph: str | None = None) -> list[tuple[str, float, float, int]]:
    """``(graph/node, p50 ms, p95 ms, count)`` from a server's ``GET /metrics`` JSON, slowest p95 first.

    >>> latency_rows({"node_latency_seconds": {"g/a": {"count": 2, "mean": 0.01, "p50": 0.01, "p95": 0.02}}})
    [('g/a', 10.0, 20.0, 2)]
    """
    nodes = summary.get("node_latency_seconds") or {}
    rows = [(name, stats["p50"] * 1000, stats["p95"] * 1000, int(stats["count"])) for name, stats in nodes.items()
            if graph is None or name.startswith(f"{graph}/")]
    return sorted(rows, key=lambda row: -row[2])


def plot_node_latency(summary: Mapping[str, Any], graph: str | None = None, title: str = "per-node latency") -> Any:
    """Per-node p50 and p95 latency (milliseconds) from a server's ``GET /metrics`` JSON: one pair of bars per
    node (of one graph, or of all). Durations are wall-clock: the picture changes from run to run."""
    rows = latency_rows(summary, graph)
    if not rows:
        raise ValueError("these metrics have no node latencies yet: run a graph on the server first")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=LATENCY_SIZE)
    y = np.arange(len(rows))
    ax.barh(y - 0.2, [r[1] for r in rows], height=0.4, label="p50", color="#4c72b0")
    ax.barh(y + 0.2, [r[2] for r in rows], height=0.4, label="p95", color="#dd8452")
    ax.set_yticks(y, [f"{r[0]} (n={r[3]})" for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds (log scale; wall clock, changes every run)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


def plot_grouped_bars(table: Mapping[str, Mapping[str, float | None]], title: str, ylabel: str = "accuracy",
                      ylim: tuple[float, float] = (0.0, 1.0)) -> Any:
    """One group of bars per category, one bar per series, each labelled with its value: ``table`` maps a
    series (say ``"test: LocalSupervisor"``) to ``{category: value}``. A missing or ``None`` value (a
    precision with nothing predicted) is drawn as no bar and labelled ``n/a``. Put the split in the series
    names or the title.

    >>> fig = plot_grouped_bars({"dev": {"a": 0.5, "b": None}, "test": {"a": 0.25}}, "demo")
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['0.50', 'n/a', '0.25', 'n/a']
    """
    plt = _pyplot()
    series = list(table)
    categories = list(dict.fromkeys(c for values in table.values() for c in values))
    fig, ax = plt.subplots(figsize=GROUPED_SIZE)
    width = 0.8 / max(len(series), 1)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for j, name in enumerate(series):
        labelled = False
        for i, category in enumerate(categories):
            value = table[name].get(category)
            x = i - 0.4 + width * (j + 0.5)
            if value is not None:
                ax.bar(x, value, width, color=colours[j % len(colours)], label=None if labelled else name)
                labelled = True
            ax.text(x, (value or 0.0) + 0.01 * (ylim[1] - ylim[0]), "n/a" if value is None else f"{value:.2f}",
                    ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(categories)), categories)
    ax.set_ylim(ylim[0], ylim[1] + 0.08 * (ylim[1] - ylim[0]))  # room for the labels of the tallest bars
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- a graph's shape, drawn offline
def graph_layers(nodes: Sequence[str], edges: Sequence[tuple[str, str, bool]]) -> dict[str, int]:
    """Each node's layer: its longest distance from ``__start__`` along edges that do not close a loop.

    >>> graph_layers(["__start__", "a", "b", "__end__"], [("__start__", "a", False), ("a", "b", True),
    ...              ("b", "a", True), ("b", "__end__", False)])
    {'__start__': 0, 'a': 1, 'b': 2, '__end__': 3}
    """
    import networkx as nx

    forward = nx.DiGraph()
    forward.add_nodes_from(nodes)
    seen: set[str] = set()

    def visit(node: str, stack: set[str]) -> None:  # depth-first: an edge back into the stack closes a loop
        seen.add(node)
        stack.add(node)
        for source, target, _ in edges:
            if source == node and target not in stack:
                forward.add_edge(source, target)
                if target not in seen:
                    visit(target, stack)
        stack.discard(node)

    visit("__start__", set())
    layer = {node: 0 for node in nodes}
    for node in nx.topological_sort(forward):
        for target in forward.successors(node):
            layer[target] = max(layer[target], layer[node] + 1)
    return {node: layer[node] for node in nodes}


def plot_graph(graph: Any, title: str | None = None) -> Any:
    """A LangGraph graph drawn with matplotlib, top-down by layer: solid arrows for fixed edges, dashed for
    a router's choices, curved ones for loops back. The picture behind :func:`ragkit.notebook.show_graph`
    where mermaid does not render (GitHub, nbviewer, exported HTML)."""
    plt = _pyplot()
    drawable = graph.get_graph() if hasattr(graph, "get_graph") else graph.compile().get_graph()
    nodes = list(drawable.nodes)
    edges = [(e.source, e.target, bool(e.conditional)) for e in drawable.edges]
    layer = graph_layers(nodes, edges)
    rows: dict[int, list[str]] = {}
    for node in nodes:
        rows.setdefault(layer[node], []).append(node)
    width = max(len(row) for row in rows.values())

    def place() -> dict[str, tuple[float, float]]:
        return {node: ((i + 1) * (width + 1) / (len(rows[d]) + 1), -d) for d in rows for i, node in enumerate(rows[d])}

    for _ in range(3):  # order each layer by the mean position of its neighbours above (fewer crossings)
        pos = place()
        for depth in sorted(rows)[1:]:
            above = {n: [pos[s][0] for s, t, _ in edges if t == n and layer[s] < depth] for n in rows[depth]}
            rows[depth].sort(key=lambda n: sum(above[n]) / len(above[n]) if above[n] else width / 2)
    pos = place()
    fig, ax = plt.subplots(figsize=(max(6.0, 2.2 * width), max(3.0, 1.0 * len(rows))))
    for source, target, conditional in edges:
        span = layer[target] - layer[source]
        bend = 0.4 if span <= 0 else (0.25 if span > 1 else 0.0)  # a loop back, a long jump, a neighbour
        ax.annotate("", xy=pos[target], xytext=pos[source],
                    arrowprops={"arrowstyle": "-|>", "color": "#555", "linestyle": "--" if conditional else "-",
                                "shrinkA": 14, "shrinkB": 14, "connectionstyle": f"arc3,rad={bend}"})
    for node, (x, y) in pos.items():
        end = node in ("__start__", "__end__")
        ax.text(x, y, node.strip("_") if end else node, ha="center", va="center", fontsize=9,
                bbox={"boxstyle": "round,pad=0.4", "fc": "#ffffff" if end else "#f2f0ff", "ec": "#7b6fd6"})
    ax.set_xlim(0, width + 1)
    ax.set_ylim(-max(rows) - 0.6, 0.6)
    ax.axis("off")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- the chapter map, drawn offline
CHAPTER_MAP_SIZE = (10.0, 4.5)


def plot_chapter_map(rows: Sequence[Sequence[tuple[str, str, bool]]]) -> Any:
    """The workbook's chapters as boxes in rows, read left to right and row after row (the picture of
    :func:`ragkit.notebook.chapter_map`; each chapter is ``(number, title, coming)``, a coming one grey)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=CHAPTER_MAP_SIZE)
    per_row = max((len(row) for row in rows), default=1)
    places: list[tuple[float, float]] = []
    for r, row in enumerate(rows):
        for c, (number, title, coming) in enumerate(row):
            x, y = c + 0.5, -r
            places.append((x, y))
            style = ({"fc": "#f4f4f4", "ec": "#aaaaaa", "linestyle": "--"} if coming
                     else {"fc": "#e8e4ff", "ec": "#7b6cf6"})
            label = f"{number}\n{textwrap.fill(title, 22)}" + ("\n(coming)" if coming else "")
            ax.text(x, y, label, ha="center", va="center", fontsize=9, color="#666666" if coming else "black",
                    bbox={"boxstyle": "round,pad=0.5", **style})
    for (x0, y0), (x1, y1) in zip(places, places[1:]):
        same_row = y0 == y1
        ax.annotate("", xy=(x1 - 0.36, y1) if same_row else (x1, y1 + 0.3), xytext=(x0 + 0.36, y0) if same_row else (x0, y0 - 0.3),
                    arrowprops={"arrowstyle": "-|>", "color": "#7b6cf6",
                                "connectionstyle": "arc3,rad=0" if same_row else "angle3,angleA=0,angleB=90"})
    ax.set_xlim(0, per_row)
    ax.set_ylim(-len(rows) + 0.5, 0.5)
    ax.axis("off")
SCALING_SIZE = (10.0, 3.8)


def plot_scaling(results: Mapping[str, Any] | str | Any, systems: Sequence[str] | None = None) -> Any:
    """Query p50 (ms, query embedding included) and memory held by the index (MB) against corpus size, log-log.

    ``results`` is the record ``benchmarks/scale/run.py`` saves (``{"rows": [...]}``), or the path of its
    JSON file (``benchmarks/results/scale.json``), so a notebook can draw it without re-running anything.
    """
    import json
    from pathlib import Path

    if isinstance(results, (str, Path)):
        results = json.loads(Path(results).read_text(encoding="utf-8"))
    rows = [r for r in results["rows"] if "error" not in r]
    names = list(systems or dict.fromkeys(r["system"] for r in rows))
    plt = _pyplot()
    fig, (time_ax, mem_ax) = plt.subplots(1, 2, figsize=SCALING_SIZE)
    for name in names:
        mine = sorted((r for r in rows if r["system"] == name), key=lambda r: r["size"])
        style = "--" if name.startswith("langchain") else "-"
        sizes = [r["size"] for r in mine]
        time_ax.plot(sizes, [r["query_ms_p50"] for r in mine], style, marker="o", label=name)
        mem_ax.plot(sizes, [max(r["index_mb"], 1) for r in mine], style, marker="o", label=name)
    for ax, label in ((time_ax, "query p50 (ms)"), (mem_ax, "index memory (MB, after - before build)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("documents")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    time_ax.set_title("query time")
    mem_ax.set_title("memory")
    mem_ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    return fig
