"""Checkers for notebook 12 (serving): the Self-RAG graph the server streams, wired by hand; reading an NDJSON
stream; and the p95 of latency samples.

>>> from ragkit.server.client import read_ndjson
>>> from ragkit.server.metrics import percentile
>>> check_read_ndjson(lambda lines: list(read_ndjson(lines)), quiet=True).passed
True
>>> check_percentile(percentile, quiet=True).passed
True
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from langgraph.graph import StateGraph

from ragkit.domains.handbook.corpus import handbook_search
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.self_rag import (
    self_rag_graph,
)
from ragkit.server.client import read_ndjson
from ragkit.server.metrics import percentile

NODES = ["check_question", "retrieve", "grade_documents", "generate", "grade_generation"]


# ---------------------------------------------------------------- reading NDJSON
@dataclass(frozen=True)
class StreamCase:
    lines: tuple[str, ...]

    def label(self) -> str:
        return f"the stream lines {short(list(self.lines), 120)}"


def stream_cases(seed: int, n: int = 20) -> list[StreamCase]:
    """Streams as a server sends them: one JSON object per line, with blank lines and trailing spaces between."""
    rng = random.Random(seed)
    cases = [StreamCase(('{"event": "metadata"}', "", '{"event": "end"}')), StreamCase(())]
    while len(cases) < n:
        events = [{"event": "metadata", "graph": "self_rag"}]
        events += [{"event": "updates", "node": node, "keys": ["x"]} for node in rng.sample(NODES, rng.randint(1, 4))]
        events.append({"event": "end", "paused": rng.random() < 0.3})
        lines: list[str] = []
        for e in events:
            lines.append(json.dumps(e) + rng.choice(["", " ", "\r"]))
            if rng.random() < 0.3:
                lines.append(rng.choice(["", "   "]))
        cases.append(StreamCase(tuple(lines)))
    return cases


def _reader(skip_blank: bool = True, strip: bool = True) -> Callable[[Sequence[str]], list]:
    def read(lines: Sequence[str]) -> list:
        out = []
        for line in lines:
            if skip_blank and not line.strip():
                continue
            out.append(json.loads(line.strip() if strip else line))
        return out

    return read


READER_VARIANTS = [
    Variant(_reader(skip_blank=False), "a blank line between events is not an event: skip lines that are empty or "
                                       "only spaces (json.loads('') raises)"),
    Variant(lambda lines: [json.loads(line) for line in lines if line], "a line of only spaces is blank too: test "
                                                                        "line.strip(), not just line"),
]


def check_read_ndjson(fn: Callable[[Sequence[str]], list], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(lines) -> list of event dicts`` against :func:`ragkit.server.client.read_ndjson`."""
    cases = stream_cases(seed)

    def describe(case: StreamCase, got: Any, expected: list) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {short(expected)}"

    return run_checker("read_ndjson", fn, cases, lambda lines: list(read_ndjson(lines)),
                       call=lambda f, c: f(list(c.lines)), same=lambda got, expected: list(got) == expected,
                       describe=describe, variants=READER_VARIANTS, quiet=quiet,
                       passed_message=f"your reader agrees with ragkit's read_ndjson on {len(cases)} generated streams.")


# ---------------------------------------------------------------- the p95 of latencies
@dataclass(frozen=True)
class LatencyCase:
    values: tuple[float, ...]
    q: float

    def label(self) -> str:
        return f"q={self.q} of {len(self.values)} latencies {short(list(self.values), 90)}"


def latency_cases(seed: int, n: int = 24) -> list[LatencyCase]:
    """Latency samples (seconds, a long tail) of several sizes, unsorted, and q in {0.5, 0.9, 0.95, 0.99}."""
    rng = random.Random(seed)
    cases = [LatencyCase((1.0, 2.0, 3.0, 4.0), 0.5), LatencyCase((5.0,), 0.95), LatencyCase((3.0, 1.0, 2.0), 0.95),
             LatencyCase((1.0, 2.0, 3.0), 0.25), LatencyCase((1.0, 2.0, 3.0), 0.3)]  # tell the rounding methods apart
    while len(cases) < n:
        size = rng.choice([2, 5, 10, 21, 50])
        values = tuple(round(rng.lognormvariate(-2.0, 0.8), 4) for _ in range(size))
        cases.append(LatencyCase(values, rng.choice([0.5, 0.9, 0.95, 0.99])))
    return cases


PERCENTILE_VARIANTS = [
    Variant(lambda values, q: float(list(values)[int(q * (len(values) - 1))]),
            "you index the samples as they came; sort them first (a percentile is about the sorted order)"),
    Variant(lambda values, q: float(sorted(values)[int(q * (len(values) - 1))]),
            "you take the sample just below the position instead of interpolating between the two neighbours: "
            "with sorted values v and position p = q * (n - 1), return v[i] + (p - i) * (v[i + 1] - v[i])"),
    Variant(lambda values, q: float(sorted(values)[min(len(values) - 1, math.ceil(q * len(values)) - 1)]),
            "that is the 'nearest rank' percentile; ragkit (like numpy's default) interpolates linearly at "
            "position q * (n - 1) of the sorted values"),
    Variant(lambda values, q: float(sorted(values)[min(len(values) - 1, int(q * len(values)))]),
            "you take position q * n of the sorted values; with n values the positions run 0 .. n - 1, so the "
            "q-quantile sits at q * (n - 1), between two values to interpolate"),
    Variant(lambda values, q: float(sorted(values)[math.ceil(q * (len(values) - 1))]),
            "you round the position q * (n - 1) up to the next sample (numpy's method='higher'); ragkit uses "
            "numpy's default, 'linear': interpolate between the two neighbouring samples"),
    Variant(lambda values, q: float(sorted(values)[round(q * (len(values) - 1))]),
            "you round the position q * (n - 1) to the nearest sample (numpy's method='nearest'); ragkit uses "
            "numpy's default, 'linear': interpolate between the two neighbouring samples"),
    Variant(lambda values, q: float(np.mean(values)), "the mean is not a percentile: sort and take position "
                                                      "q * (n - 1)"),
]


def how(values: Sequence[float], q: float) -> str:
    """How the reference computes it, in words: the position in the sorted values and the interpolation.

    >>> how([4.0, 1.0, 3.0, 2.0], 0.5)
    'sorted, position q * (n - 1) = 1.5, between 2 and 3: 2 + 0.5 * (3 - 2) = 2.5'
    """
    v = sorted(values)
    p = q * (len(v) - 1)
    i = int(p)
    if i + 1 >= len(v) or p == i:
        return f"sorted, position q * (n - 1) = {p:g}: the sample there, {v[i]:g}"
    return f"sorted, position q * (n - 1) = {p:g}, between {v[i]:g} and {v[i + 1]:g}: " \
           f"{v[i]:g} + {p - i:g} * ({v[i + 1]:g} - {v[i]:g}) = {v[i] + (p - i) * (v[i + 1] - v[i]):g}"


def check_percentile(fn: Callable[[Sequence[float], float], float], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(values, q) -> float`` against :func:`ragkit.server.metrics.percentile` (linear interpolation)."""
    cases = latency_cases(seed)

    def describe(case: LatencyCase, got: Any, expected: float) -> str:
        return (f"for {case.label()} you return {short(got)}; the reference returns {expected:.6g} "
                f"({how(case.values, case.q)})")

    def same(got: Any, expected: float) -> bool:
        return isinstance(got, (int, float, np.floating)) and math.isclose(float(got), expected, rel_tol=1e-9, abs_tol=1e-12)

    return run_checker("percentile", fn, cases, percentile, call=lambda f, c: f(list(c.values), c.q), same=same,
                       describe=describe, variants=PERCENTILE_VARIANTS, quiet=quiet,
                       passed_message=f"your percentile agrees with ragkit's on {len(cases)} generated latency samples.")



# ---------------------------------------------------------------- wiring the served graph (Self-RAG)
def _self_rag(after_transform: str = "router", after_answer_check: str = "router") -> Callable[[], StateGraph]:
    """The builder's Self-RAG graph rewired: after transform_query ``router`` (route_after_transform_query, as
    built), ``retrieve`` (a fixed edge) or ``none``; after grade_generation ``router``
    (route_after_grade_generation, as built), ``finish`` (a fixed edge) or ``none``."""

    def build() -> StateGraph:
        routers, fixed = [], []
        for node, choice in (("transform_query", after_transform), ("grade_generation", after_answer_check)):
            if choice != "router":
                routers.append(node)
                if choice != "none":
                    fixed.append((node, choice))
        return rewired(self_rag_graph(handbook_search()), routers=routers, add=fixed)

    return build


WIRING_VARIANTS = [
    Variant(_self_rag(after_transform="none", after_answer_check="none"),
            "the two loops are not wired yet: add_conditional_edges('grade_generation', route_after_grade_generation) "
            "(finish, write again, rewrite, or give up) and add_conditional_edges('transform_query', "
            "route_after_transform_query) (search again, or write), as ragkit's builder does"),
    Variant(_self_rag(after_transform="none", after_answer_check="finish"),
            "a fixed edge grade_generation -> finish delivers every answer, grounded or not, and never reaches "
            "give_up: ragkit's builder lets route_after_grade_generation write again, rewrite the question or give "
            "up within max_attempts"),
    Variant(_self_rag(after_answer_check="finish"),
            "a fixed edge grade_generation -> finish delivers every answer, grounded or not: ragkit's builder lets "
            "route_after_grade_generation write again, rewrite the question or give up within max_attempts"),
    Variant(_self_rag(after_transform="none"),
            "transform_query has no way out, so a rewritten question is never searched: "
            "add_conditional_edges('transform_query', route_after_transform_query), as ragkit's builder does"),
    Variant(_self_rag(after_transform="retrieve"),
            "a fixed edge transform_query -> retrieve searches again even when the rewrite is a query this run "
            "already searched (same search, same documents): ragkit's builder uses route_after_transform_query, "
            "which then goes straight to generate"),
]


def check_served_graph_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires Self-RAG, the graph notebook 12 streams from the server, as
    ``ragkit.graphs.self_rag.self_rag_graph`` does (the same nodes and edges, each conditional edge from the
    module's router)."""
    return check_wiring(build, self_rag_graph(handbook_search()), "served_graph_wiring", quiet, WIRING_VARIANTS)


__all__ = ["PERCENTILE_VARIANTS", "READER_VARIANTS", "WIRING_VARIANTS", "check_percentile", "check_read_ndjson",
           "check_served_graph_wiring"]
