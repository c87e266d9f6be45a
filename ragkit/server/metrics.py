"""What the server counts: queries, errors, per-node latency, relevance, hallucination rate, bandit state.

:class:`Metrics` is updated by the request handlers (from worker threads) through ``prometheus-client``'s
counters and histograms, and read two ways: :meth:`Metrics.summary` as JSON for people and notebooks, and
:meth:`Metrics.prometheus` in the Prometheus text format for scrapers. Both are computed from the same
samples, so they always agree.

Several worker processes (``ragkit serve --workers N``) use Prometheus' multiprocess mode: ``ragkit serve``
sets ``PROMETHEUS_MULTIPROC_DIR`` to a fresh folder before any worker starts, each worker writes its numbers
to its own memory-mapped files there, and whichever worker answers ``/metrics`` sums them all
(``MultiProcessCollector``). Values that are not sums (the hallucination rate, the bandit's pulls) are
computed when read, from the summed counters and from the bandit's database rows.

- *relevance* of a run: the graders' relevant share of the documents they graded (``grades``), or a graph's
  own ``relevance_score``;
- *hallucination*: a run whose answer was checked (``grounded`` in its state) and found not grounded.

Simplifications: the numbers start from zero with each start of the server; node latency p50/p95 are
estimated from the histogram's buckets (linear within a bucket, as Prometheus' ``histogram_quantile``
does), so they are as fine as the buckets, ``BUCKETS``.

>>> round(bucket_quantile([(0.1, 2.0), (0.2, 4.0), (float("inf"), 4.0)], 0.5), 3)
0.1
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
from prometheus_client import CollectorRegistry, Counter, Histogram, Summary, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from ragkit.server.settings import MULTIPROC_VARIABLE

BUCKETS = (0.001, 0.002, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75,
           1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0, 20.0, 30.0, 60.0)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of samples by linear interpolation (numpy's default).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0], 0.95)
    (2.5, 5.0)
    """
    return float(np.percentile(values, q * 100)) if values else float("nan")


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """The q-quantile estimated from cumulative histogram buckets ``[(upper bound, count <= bound), ...]``,
    sorted, ending with ``+inf``: linear within the bucket it falls in, from 0 for the first one."""
    total = buckets[-1][1]
    if total == 0:
        return float("nan")
    rank, lower, below = q * total, 0.0, 0.0
    for upper, cumulative in buckets:
        if cumulative >= rank:
            if upper == float("inf"):
                return lower  # beyond the last finite bound: the best the buckets can say
            return lower + (upper - lower) * ((rank - below) / (cumulative - below) if cumulative > below else 0.0)
        lower, below = upper, cumulative
    return lower


def run_relevance(state: Mapping[str, Any]) -> float | None:
    """A run's relevance: its graph's ``relevance_score``, else the share of graded documents found relevant."""
    if isinstance(state.get("relevance_score"), (int, float)):
        return float(state["relevance_score"])
    grades = state.get("grades") or []
    flags = [bool(getattr(g, "relevant", False)) for g in grades]
    return sum(flags) / len(flags) if flags else None


class _Families:
    """What ``generate_latest`` reads: anything with ``collect()``."""

    def __init__(self, families: list[Metric]):
        self.families = families

    def collect(self) -> Iterable[Metric]:
        return self.families


class Metrics:
    """Counters and latency histograms of one server (all its worker processes), as JSON or Prometheus text."""

    def __init__(self, bandit_stats: Callable[[], dict] | None = None):
        self.bandit_stats = bandit_stats
        self.registry = CollectorRegistry()
        self._queries = Counter("ragkit_queries", "Runs started, by graph", ["graph"], registry=self.registry)
        self._errors = Counter("ragkit_errors", "Runs that ended in an error, by graph", ["graph"], registry=self.registry)
        self._nodes = Histogram("ragkit_node_seconds", "Time spent in each node", ["graph", "node"],
                                registry=self.registry, buckets=BUCKETS)
        self._relevance = Summary("ragkit_run_relevance", "Relevance of finished runs (graded share found relevant)",
                                  registry=self.registry)
        self._checked = Counter("ragkit_answers_checked", "Answers checked for grounding", registry=self.registry)
        self._ungrounded = Counter("ragkit_answers_not_grounded", "Checked answers found not grounded",
                                   registry=self.registry)
        self._order = ["ragkit_queries", "ragkit_errors", "ragkit_node_seconds", "ragkit_run_relevance",
                       "ragkit_answers_checked", "ragkit_answers_not_grounded"]  # the families above, as defined

    def started(self, graph: str) -> None:
        self._queries.labels(graph).inc()

    def failed(self, graph: str) -> None:
        self._errors.labels(graph).inc()

    def node(self, graph: str, node: str, seconds: float) -> None:
        self._nodes.labels(graph, node).observe(float(seconds))

    def finished(self, state: Mapping[str, Any]) -> None:
        """Record what a finished run's final state says about relevance and grounding."""
        relevance = run_relevance(state)
        if relevance is not None:
            self._relevance.observe(relevance)
        if isinstance(state.get("grounded"), bool) and (state.get("generation") or state.get("draft") or state.get("answer")):
            self._checked.inc()
            if not state["grounded"]:
                self._ungrounded.inc()

    # ------------------------------------------------------------ reading
    def families(self) -> list[Metric]:
        """Every metric family: this process's, or in multiprocess mode every worker's summed; then the rates."""
        if os.environ.get(MULTIPROC_VARIABLE):
            source = CollectorRegistry()
            MultiProcessCollector(source)
        else:
            source = self.registry
        found = {family.name: family for family in source.collect()}
        families = [found[name] for name in self._order if name in found]
        checked, ungrounded = (_total(found.get(name)) for name in ("ragkit_answers_checked", "ragkit_answers_not_grounded"))
        families.append(GaugeMetricFamily("ragkit_hallucination_rate", "Checked answers found not grounded",
                                          value=ungrounded / checked if checked else 0.0))
        bandit = self.bandit_stats() if self.bandit_stats else None
        if bandit:
            pulls = GaugeMetricFamily("ragkit_bandit_pulls", "Retrieval bandit pulls per arm", labels=["arm"])
            for arm, stats in (bandit.get("arms") or {}).items():
                pulls.add_metric([arm], stats.get("pulls", 0))
            families.append(pulls)
        return families

    def summary(self) -> dict[str, Any]:
        """The JSON view: counts, mean relevance, hallucination rate, per-node latency count/mean/p50/p95, bandit."""
        families = self.families()
        found = {family.name: family for family in families}
        queries = _by_label(found.get("ragkit_queries"), "graph")
        checked, ungrounded = (_total(found.get(name)) for name in ("ragkit_answers_checked", "ragkit_answers_not_grounded"))
        relevance = found.get("ragkit_run_relevance")
        runs = _sample(relevance, "ragkit_run_relevance_count")
        out = {"queries": queries, "queries_total": int(sum(queries.values())),
               "errors": _by_label(found.get("ragkit_errors"), "graph"),
               "average_relevance": round(_sample(relevance, "ragkit_run_relevance_sum") / runs, 4) if runs else None,
               "hallucination_rate": round(ungrounded / checked, 4) if checked else None,
               "answers_checked": int(checked), "node_latency_seconds": _latency(found.get("ragkit_node_seconds"))}
        bandit = self.bandit_stats() if self.bandit_stats else None
        if bandit:
            out["bandit"] = bandit
        return out

    def prometheus(self) -> bytes:
        """The Prometheus text exposition of the same numbers."""
        return generate_latest(_Families(self.families()))


def _samples(family: Metric | None, suffix: str) -> list[Any]:
    return [s for s in (family.samples if family else []) if s.name == f"{family.name}{suffix}"]


def _total(family: Metric | None) -> float:
    return float(sum(s.value for s in _samples(family, "_total")))


def _sample(family: Metric | None, name: str) -> float:
    return float(sum(s.value for s in (family.samples if family else []) if s.name == name))


def _by_label(family: Metric | None, label: str) -> dict[str, int]:
    counts: dict[str, float] = {}
    for s in _samples(family, "_total"):
        counts[s.labels[label]] = counts.get(s.labels[label], 0.0) + s.value
    return {key: int(value) for key, value in sorted(counts.items()) if value}


def _latency(family: Metric | None) -> dict[str, dict[str, float]]:
    """``{"graph/node": {"count", "mean", "p50", "p95"}}`` from the node histogram's samples."""
    series: dict[tuple[str, str], dict[str, Any]] = {}
    for s in family.samples if family else []:
        entry = series.setdefault((s.labels["graph"], s.labels["node"]), {"buckets": []})
        if s.name.endswith("_bucket"):
            entry["buckets"].append((float(s.labels["le"]), s.value))
        elif s.name.endswith("_count"):
            entry["count"] = s.value
        elif s.name.endswith("_sum"):
            entry["sum"] = s.value
    out = {}
    for (graph, node), entry in sorted(series.items()):
        count = int(entry.get("count", 0))
        if count:
            buckets = sorted(entry["buckets"])
            out[f"{graph}/{node}"] = {"count": count, "mean": round(entry["sum"] / count, 6),
                                      "p50": round(bucket_quantile(buckets, 0.5), 6),
                                      "p95": round(bucket_quantile(buckets, 0.95), 6)}
    return out


__all__ = ["BUCKETS", "Metrics", "bucket_quantile", "percentile", "run_relevance"]
