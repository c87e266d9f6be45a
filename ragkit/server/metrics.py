"""What the server counts: queries, errors, per-node latency, relevance, hallucination rate, bandit state.

:class:`Metrics` is updated by the request handlers (from worker threads, so it holds a lock) and read two
ways: :meth:`Metrics.summary` as JSON for people and notebooks, and :meth:`Metrics.prometheus` in the
Prometheus text format (``prometheus-client``) for scrapers.

- *relevance* of a run: the graders' relevant share of the documents they graded (``grades``), or a graph's
  own ``relevance_score``;
- *hallucination*: a run whose answer was checked (``grounded`` in its state) and found not grounded.

Simplification: latency samples are kept in memory (the last ``window`` per node), so percentiles cover
recent traffic only and restart from zero with the process.
"""

from __future__ import annotations

import statistics
import threading
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from prometheus_client import CollectorRegistry, Counter as PromCounter, Gauge, Histogram, generate_latest


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0], 0.95)
    (2.5, 5.0)
    """
    return float(np.percentile(values, q * 100)) if values else float("nan")


def run_relevance(state: Mapping[str, Any]) -> float | None:
    """A run's relevance: its graph's ``relevance_score``, else the share of graded documents found relevant."""
    if isinstance(state.get("relevance_score"), (int, float)):
        return float(state["relevance_score"])
    grades = state.get("grades") or []
    flags = [bool(getattr(g, "relevant", False)) for g in grades]
    return sum(flags) / len(flags) if flags else None


class Metrics:
    """Thread-safe counters and latency samples, exported as JSON or Prometheus text."""

    def __init__(self, window: int = 5_000, bandit_stats: Callable[[], dict] | None = None):
        self._lock = threading.Lock()
        self.window, self.bandit_stats = window, bandit_stats
        self.queries: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.latency: dict[tuple[str, str], deque] = defaultdict(lambda: deque(maxlen=window))
        self.relevance: list[float] = []
        self.checked = self.hallucinated = 0
        self.registry = CollectorRegistry()
        self._queries = PromCounter("ragkit_queries", "Runs started, by graph", ["graph"], registry=self.registry)
        self._errors = PromCounter("ragkit_errors", "Runs that ended in an error, by graph", ["graph"], registry=self.registry)
        self._nodes = Histogram("ragkit_node_seconds", "Time spent in each node", ["graph", "node"], registry=self.registry,
                                buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
        self._halluc = Gauge("ragkit_hallucination_rate", "Checked answers found not grounded", registry=self.registry)
        self._pulls = Gauge("ragkit_bandit_pulls", "Retrieval bandit pulls per arm", ["arm"], registry=self.registry)

    def started(self, graph: str) -> None:
        with self._lock:
            self.queries[graph] += 1
        self._queries.labels(graph).inc()

    def failed(self, graph: str) -> None:
        with self._lock:
            self.errors[graph] += 1
        self._errors.labels(graph).inc()

    def node(self, graph: str, node: str, seconds: float) -> None:
        with self._lock:
            self.latency[(graph, node)].append(float(seconds))
        self._nodes.labels(graph, node).observe(float(seconds))

    def finished(self, state: Mapping[str, Any]) -> None:
        """Record what a finished run's final state says about relevance and grounding."""
        relevance = run_relevance(state)
        with self._lock:
            if relevance is not None:
                self.relevance.append(relevance)
            if isinstance(state.get("grounded"), bool) and (state.get("generation") or state.get("draft") or state.get("answer")):
                self.checked += 1
                self.hallucinated += not state["grounded"]
            rate = self.hallucinated / self.checked if self.checked else 0.0
        self._halluc.set(rate)

    def summary(self) -> dict[str, Any]:
        """The JSON view: counts, mean relevance, hallucination rate, per-node latency mean/p50/p95, bandit."""
        with self._lock:
            nodes = {f"{g}/{n}": {"count": len(v), "mean": round(statistics.fmean(v), 6),
                                  "p50": round(percentile(list(v), 0.5), 6), "p95": round(percentile(list(v), 0.95), 6)}
                     for (g, n), v in sorted(self.latency.items()) if v}
            out = {"queries": dict(sorted(self.queries.items())), "queries_total": sum(self.queries.values()),
                   "errors": dict(sorted(self.errors.items())),
                   "average_relevance": round(statistics.fmean(self.relevance), 4) if self.relevance else None,
                   "hallucination_rate": round(self.hallucinated / self.checked, 4) if self.checked else None,
                   "answers_checked": self.checked, "node_latency_seconds": nodes}
        bandit = self.bandit_stats() if self.bandit_stats else None
        if bandit:
            out["bandit"] = bandit
            for arm, stats in (bandit.get("arms") or {}).items():
                self._pulls.labels(arm).set(stats.get("pulls", 0))
        return out

    def prometheus(self) -> bytes:
        """The Prometheus text exposition of the same counters."""
        self.summary()  # refresh the bandit gauges
        return generate_latest(self.registry)


__all__ = ["Metrics", "percentile", "run_relevance"]
