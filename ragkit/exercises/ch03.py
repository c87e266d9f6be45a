"""Checkers for notebook 03 (Adaptive RAG): the route table with its fallback, nearest-prototype scores, and the
graph's wiring.

>>> check_route_table(lambda proposed, routes, fallback: proposed if proposed in routes else fallback,
...                   quiet=True).passed
True
>>> "unknown" in check_route_table(lambda proposed, routes, fallback: proposed, quiet=True).message
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

from ragkit.domains.menu.routes import ROUTES, menu_sources
from ragkit.exercises.core import CheckResult, Variant, check_wiring, close, rewired, run_checker, short
from ragkit.graphs.adaptive_rag import (
    adaptive_rag_graph,
    adaptive_rag_nodes,
    route_after_route_question,
    route_question_node,
)
from ragkit.offline.router import LocalRouter
from ragkit.roles.router_protocols import RouteDecision, RouteSpec


# ---------------------------------------------------------------- the route table
class ProposingRouter:
    """A router double that always proposes the same route (possibly one the graph does not have)."""

    def __init__(self, proposed: Any, routes: Sequence[RouteSpec] = ()) -> None:
        self.proposed, self.routes = proposed, tuple(routes)

    def route(self, question: str) -> RouteDecision:
        return RouteDecision(self.proposed, 0.5, "proposed by a test double")


def reference_next_node(proposed: Any, route_names: Sequence[str], fallback: str) -> str:
    """The node ragkit's adaptive graph goes to when the router proposes ``proposed``."""
    node = route_question_node(ProposingRouter(proposed), list(route_names), fallback)
    return route_after_route_question(node({"question": "any question"}))


@dataclass(frozen=True)
class TableCase:
    proposed: Any
    routes: tuple[str, ...]
    fallback: str

    def label(self) -> str:
        return f"proposed={self.proposed!r}, routes={list(self.routes)}, fallback={self.fallback!r}"


# Route names and the fallback among them (not always the last one listed).
ROUTE_SETS = [(("search_menu", "search_wine", "search_web", "llm_fallback"), "llm_fallback"),
              (("human", "faq", "orders", "returns"), "human"),
              (("statutes", "cases", "nothing_found"), "nothing_found")]


def table_cases(seed: int, n: int = 30) -> list[TableCase]:
    """Known routes, unknown ones, near misses (case, spaces, a typo), empty and non-string proposals."""
    rng = random.Random(seed)
    menu, fallback = ROUTE_SETS[0]
    cases = [TableCase("search_wine", menu, fallback), TableCase("search_beer", menu, fallback)]
    while len(cases) < n:
        routes, fallback = rng.choice(ROUTE_SETS)
        name = rng.choice(routes)
        proposed = rng.choice([name, name, name.upper(), f" {name} ", name[:-1], "", None, "weather", "SELECT *"])
        cases.append(TableCase(proposed, routes, fallback))
    return cases


def _lenient(proposed: Any, routes: Sequence[str], fallback: str) -> str:
    wanted = str(proposed).strip().lower()
    return next((r for r in routes if r.lower() == wanted), fallback)


TABLE_VARIANTS = [
    Variant(lambda proposed, routes, fallback: proposed,
            "you pass the proposal straight through, so an unknown route name would become a node that does "
            "not exist; anything that is not one of the routes must go to the fallback"),
    Variant(lambda proposed, routes, fallback: proposed if proposed in routes else routes[0],
            "an unknown route goes to the first route; it must go to the fallback"),
    Variant(lambda proposed, routes, fallback: fallback,
            "you always return the fallback; a known route name goes to its own node"),
    Variant(_lenient,
            "you repair near misses (case, spaces); ragkit only accepts an exact route name and sends "
            "everything else to the fallback (a guess could pick the wrong source)"),
    Variant(lambda proposed, routes, fallback: proposed if proposed in routes else routes[-1],
            "an unknown route goes to the last route listed; it must go to the fallback you are given, which is "
            "not always last"),
]


def check_route_table(fn: Callable[[Any, Sequence[str], str], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(proposed, route_names, fallback) -> node`` against ragkit's ``route_question`` node."""
    cases = table_cases(seed)

    def describe(case: TableCase, got: Any, expected: str) -> str:
        return f"for {case.label()} you go to {short(got)}; ragkit's graph goes to {expected!r}"

    return run_checker("route_table", fn, cases, reference_next_node,
                       call=lambda f, c: f(c.proposed, list(c.routes), c.fallback),
                       same=lambda got, expected: got == expected, describe=describe, variants=TABLE_VARIANTS,
                       quiet=quiet,
                       passed_message=f"your table sends all {len(cases)} generated proposals (known, unknown, "
                                      "near misses, empty) where ragkit's route_question node sends them.")


# ---------------------------------------------------------------- nearest-prototype scores
class LookupEmbeddings(Embeddings):
    """Embeddings double: each text is a key into a table of fixed vectors."""

    def __init__(self, table: Mapping[str, np.ndarray]) -> None:
        self.table = dict(table)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.table[t].tolist() for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.table[text].tolist()


@dataclass(frozen=True)
class PrototypeCase:
    question: tuple[float, ...]
    prototypes: tuple[tuple[str, tuple[tuple[float, ...], ...]], ...]
    k: int

    def arrays(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        return np.array(self.question), {name: np.array(rows) for name, rows in self.prototypes}

    def label(self) -> str:
        q, protos = self.arrays()
        sims = {name: [round(float(s), 2) for s in rows @ q] for name, rows in protos.items()}
        return f"k={self.k} and prototype similarities {sims}"


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def prototype_cases(seed: int, n: int = 20) -> list[PrototypeCase]:
    """3 routes with 1-5 unit prototype vectors each (some fewer than k), one question vector, k in 1..3."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        protos = tuple((name, tuple(tuple(_unit(rng.normal(size=5)).tolist()) for _ in range(int(rng.integers(1, 6)))))
                       for name in ("menu", "wine", "other"))
        cases.append(PrototypeCase(tuple(_unit(rng.normal(size=5)).tolist()), protos, [3, 1, 2][i % 3]))
    return cases


def reference_prototype_scores(question_vec: np.ndarray, prototypes: Mapping[str, np.ndarray], k: int) -> dict[str, float]:
    """The ``prototypes`` part of ragkit's ``LocalRouter.explain``, on these vectors."""
    table = {"the question": np.asarray(question_vec, dtype=float)}
    specs = []
    for name, rows in prototypes.items():
        texts = [f"{name} example {j}" for j in range(len(rows))]
        table.update(zip(texts, np.asarray(rows, dtype=float)))
        specs.append(RouteSpec(name, texts[0], tuple(texts[1:])))
    router = LocalRouter(specs, embedder=LookupEmbeddings(table), k=k)
    return {name: parts["prototypes"] for name, parts in router.explain("the question").items()}


def _proto_variant(pick: Callable[[np.ndarray, int], float]) -> Callable[..., dict[str, float]]:
    def scores(question_vec: np.ndarray, prototypes: Mapping[str, np.ndarray], k: int) -> dict[str, float]:
        return {name: float(pick(np.asarray(rows) @ question_vec, k)) for name, rows in prototypes.items()}

    return scores


PROTOTYPE_VARIANTS = [
    Variant(_proto_variant(lambda sims, k: sims.max()),
            "you take the single best similarity (that is k=1); average the k best instead"),
    Variant(_proto_variant(lambda sims, k: sims.mean()),
            "you average every prototype of the route; average only its k most similar ones"),
    Variant(_proto_variant(lambda sims, k: np.sort(sims)[:k].mean()),
            "you average the k *least* similar prototypes: sort from most to least similar first"),
    Variant(_proto_variant(lambda sims, k: np.sort(sims)[::-1][:k].sum()),
            "you add the k best similarities; take their mean, so routes with many examples are not favoured"),
    Variant(_proto_variant(lambda sims, k: np.sort(sims)[::-1][:k].sum() / k),
            "you divide by k even when a route has fewer than k prototypes; average the ones there are"),
]


def check_prototype_scores(fn: Callable[..., Mapping[str, float]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(question_vec, prototypes, k) -> {route: score}`` against ``LocalRouter``'s prototype part."""
    cases = prototype_cases(seed)

    def same(got: Any, expected: dict[str, float]) -> bool:
        try:
            return set(got) == set(expected) and all(close(float(got[r]), expected[r], 1e-5) for r in expected)
        except (TypeError, ValueError, KeyError):
            return False

    def describe(case: PrototypeCase, got: Any, expected: dict[str, float]) -> str:
        if not isinstance(got, Mapping) or set(got) != set(expected):
            return f"with {case.label()} you return {short(got)}; return one score per route: {sorted(expected)}"
        route = next(r for r in expected if not same({**expected, r: got[r]}, expected))
        try:
            mine = float(got[route])
        except (TypeError, ValueError):
            return (f"with {case.label()} route {route!r} scores {short(got[route])} in yours, not a number: give each "
                    "route one float, the mean of its k best similarities")
        return (f"with {case.label()} route {route!r} scores {mine:.4f} in yours and {expected[route]:.4f} in ragkit's "
                "LocalRouter")

    return run_checker("prototype_scores", fn, cases, reference_prototype_scores,
                       call=lambda f, c: f(*c.arrays(), c.k), same=same, describe=describe,
                       variants=PROTOTYPE_VARIANTS, quiet=quiet,
                       passed_message=f"your scores equal LocalRouter's prototype scores on {len(cases)} generated "
                                      "cases (k = 1, 2, 3; some routes with fewer than k prototypes).")


# ---------------------------------------------------------------- the graph's wiring
def menu_graph() -> Any:
    """The reference: ragkit's Adaptive RAG graph (uncompiled) over the restaurant's sources and routes."""
    return adaptive_rag_graph(menu_sources(), routes=ROUTES)


def _searches_wired(fixed_to: str) -> Callable[[], Any]:
    """The builder's graph with each search's router replaced by a fixed edge to ``fixed_to``."""
    def build() -> Any:
        parts = adaptive_rag_nodes(menu_sources(), routes=ROUTES)
        target = parts.fallback if fixed_to == "fallback" else fixed_to
        return rewired(menu_graph(), routers=parts.searches, add=[(name, target) for name in parts.searches])
    return build


WIRING_VARIANTS = [
    Variant(_searches_wired("generate"),
            "after each search ragkit's graph decides with a router: add_conditional_edges(name, "
            "route_after_search_to(parts.fallback), ['generate', parts.fallback]) sends found documents to generate "
            "and an empty or failed search to the fallback; a fixed edge to generate hands the writer nothing"),
    Variant(_searches_wired("fallback"),
            "a search that found documents must reach generate: after each search, route_after_search_to(parts.fallback) "
            "chooses between generate and the fallback, as ragkit's graph does"),
    Variant(lambda: rewired(menu_graph(), routers=["check_question"], add=[("check_question", "route_question")]),
            "check_question is followed by a router, route_after_check_question: a question the offline roles cannot "
            "read goes to unsupported_language, every other one to route_question (a fixed edge never reaches "
            "unsupported_language)"),
]


def check_adaptive_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the Adaptive RAG graph as :func:`ragkit.graphs.adaptive_rag.adaptive_rag_graph`
    does over the restaurant (``adaptive_rag_graph(menu_sources(), routes=ROUTES)``: the same nodes and edges,
    each conditional edge from the module's routers)."""
    return check_wiring(build, menu_graph(), "adaptive_wiring", quiet, WIRING_VARIANTS)
