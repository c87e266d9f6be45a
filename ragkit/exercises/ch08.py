"""Checkers for notebook 08 (the advanced pipeline): the retry router after ``grade``, fusing the result
lists of several queries into one de-duplicated ranking, and the pipeline's wiring.

>>> from ragkit.graphs.advanced_rag import route_after_grade
>>> check_retry_router(route_after_grade, quiet=True).passed, check_fuse_queries(fuse_query_lists, quiet=True).passed
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from langgraph.graph import END

from ragkit.core.hybrid import DEFAULT_RRF_K, fuse
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.advanced_rag import advanced_rag_graph, route_after_grade


# ---------------------------------------------------------------- the retry router
@dataclass(frozen=True)
class GradeCase:
    relevant: int
    retrieval_retries: int
    max_retrieval_retries: int

    def state(self) -> dict[str, Any]:
        return {"relevant": [f"relevant document {i}" for i in range(self.relevant)],
                "retrieval_retries": self.retrieval_retries, "max_retrieval_retries": self.max_retrieval_retries}

    def label(self) -> str:
        return (f"{self.relevant} relevant document(s), retrieval_retries {self.retrieval_retries} of "
                f"max_retrieval_retries {self.max_retrieval_retries}")


def grade_cases(seed: int, n: int = 30) -> list[GradeCase]:
    """No relevant document below, at and (as a guard) above the cap; relevant documents at every count."""
    rng = random.Random(seed)
    cases = [GradeCase(0, 0, 1), GradeCase(0, 1, 1), GradeCase(2, 0, 1), GradeCase(0, 0, 0), GradeCase(1, 1, 1),
             GradeCase(0, 2, 1), GradeCase(0, 3, 2)]
    while len(cases) < n:
        cap = rng.randint(0, 3)
        cases.append(GradeCase(rng.choice([0, 0, 1, 3]), rng.randint(0, cap), cap))
    return cases


def _retry_variant(cap: bool = True, inclusive: bool = False, retry_when_relevant: bool = False,
                   never_retry: bool = False) -> Callable[[dict], str]:
    def route(state: dict) -> str:
        relevant = bool(state.get("relevant"))
        if never_retry:
            return "generate"
        if retry_when_relevant:
            relevant = not relevant
        if relevant:
            return "generate"
        retries, limit = state.get("retrieval_retries", 0), state.get("max_retrieval_retries", 1)
        if not cap or (retries <= limit if inclusive else retries < limit):
            return "query_transform"
        return "generate"

    return route


RETRY_VARIANTS = [
    Variant(_retry_variant(cap=False),
            "you ignore the cap: with no relevant document you always go back to 'query_transform', even when "
            "state['retrieval_retries'] has reached state['max_retrieval_retries'], so the loop never ends"),
    Variant(_retry_variant(inclusive=True),
            "you allow one retry too many: retry while retrieval_retries < max_retrieval_retries, not <="),
    Variant(_retry_variant(retry_when_relevant=True),
            "the two branches are swapped: relevant documents go to 'generate', none go back to 'query_transform'"),
    Variant(_retry_variant(never_retry=True),
            "you never retry: with no relevant document and a retry left, go back to 'query_transform'"),
]


def check_retry_router(fn: Callable[[dict], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(state) -> "generate" | "query_transform"`` against the advanced graph's ``route_after_grade``."""
    cases = grade_cases(seed)

    def describe(case: GradeCase, got: Any, expected: str) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {expected!r}"

    return run_checker("retry_router", fn, cases, route_after_grade, call=lambda f, c: f(c.state()),
                       same=lambda got, expected: got == expected, describe=describe, variants=RETRY_VARIANTS,
                       quiet=quiet,
                       passed_message=f"your router agrees with ragkit's route_after_grade on {len(cases)} generated "
                                      "states (with and without relevant documents, below, at and above the cap).")


# ---------------------------------------------------------------- fusing the lists of several queries
def fuse_query_lists(lists: Sequence[Sequence[str]], weights: Sequence[float], k: int,
                     rrf_k: int = DEFAULT_RRF_K) -> list[str]:
    """The top ``k`` ids of several queries' result lists by weighted RRF, each id once (the graph's ``retrieve``).

    A list contributes ``weight / (rrf_k + rank)`` to each id in it (ranks from 1); ties keep the order in
    which ids were first met. This is :func:`ragkit.core.hybrid.fuse` as
    :func:`ragkit.graphs.advanced_rag.search_queries` calls it.

    >>> fuse_query_lists([["a", "b"], ["b", "c"]], [2.0, 1.0], k=3, rrf_k=1)
    ['b', 'a', 'c']

    (b: 2/(1+2) + 1/(1+1) = 1.17 beats a: 2/(1+1) = 1.0, found by one list only; c: 1/(1+2).)
    """
    scored = [[(key, 0.0) for key in ranking] for ranking in lists]
    return [key for key, _ in fuse(scored, "rrf", list(weights), rrf_k=rrf_k)[:k]]


@dataclass(frozen=True)
class FuseCase:
    lists: tuple[tuple[str, ...], ...]
    weights: tuple[float, ...]
    k: int
    rrf_k: int = DEFAULT_RRF_K

    def label(self) -> str:
        shown = ", ".join(f"{list(l)} (weight {w:g})" for l, w in zip(self.lists, self.weights))
        return f"lists {shown}, k={self.k} and rrf_k={self.rrf_k}"


DOC_IDS = [f"d{i}" for i in range(12)]


def fuse_cases(seed: int, n: int = 30) -> list[FuseCase]:
    """The question's list (weight 2) plus 1-3 alternatives (weight 1) and maybe a passage (weight 0.5), sharing
    ids; rrf_k 60 (the default) or 1 (where a rank off by one changes the order)."""
    rng = random.Random(seed)
    cases = [FuseCase((("a", "b", "c"),), (2.0,), 2),
             FuseCase((("a", "b"), ("b", "c")), (2.0, 1.0), 3, 1),
             FuseCase((("a", "b", "c"), ("c", "b", "a")), (1.0, 1.0), 3),
             FuseCase((("x", "y"), ("y", "z"), ("z", "y")), (2.0, 1.0, 0.5), 2, 1)]
    while len(cases) < n:
        count = rng.randint(2, 4)
        lists = tuple(tuple(rng.sample(DOC_IDS[: rng.randint(5, 12)], rng.randint(2, 5))) for _ in range(count))
        weights = (2.0, *[1.0] * (count - 2), rng.choice([0.5, 1.0]))
        cases.append(FuseCase(lists, weights, rng.randint(2, 6), rng.choice([1, DEFAULT_RRF_K])))
    return cases


def _unweighted(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    return fuse_query_lists(lists, [1.0] * len(lists), k, rrf_k)


def _rank_from_zero(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    scores: dict[str, float] = {}
    for weight, ranking in zip(weights, lists):
        for rank, key in enumerate(ranking):
            scores[key] = scores.get(key, 0.0) + weight / (rrf_k + rank)
    return [key for key, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:k]]


def _no_dedupe(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    hits = [(weight / (rrf_k + rank), key) for weight, ranking in zip(weights, lists)
            for rank, key in enumerate(ranking, start=1)]
    return [key for _, key in sorted(hits, key=lambda h: -h[0])[:k]]


def _concatenate(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    seen: list[str] = []
    for ranking in lists:
        seen.extend(key for key in ranking if key not in seen)
    return seen[:k]


def _all_of_them(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    return fuse_query_lists(lists, weights, 10_000, rrf_k)


def _max_not_sum(lists, weights, k, rrf_k=DEFAULT_RRF_K):
    scores: dict[str, float] = {}
    for weight, ranking in zip(weights, lists):
        for rank, key in enumerate(ranking, start=1):
            scores[key] = max(scores.get(key, 0.0), weight / (rrf_k + rank))
    return [key for key, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:k]]


FUSE_VARIANTS = [
    Variant(_concatenate, "you put the lists one after the other (each id once); fuse them: an id's score is the "
                          "sum over the lists of weight / (rrf_k + rank), best score first"),
    Variant(_no_dedupe, "the same id appears more than once: add up its scores over the lists, then keep it once"),
    Variant(_unweighted, "you ignore the weights: each list adds weight / (rrf_k + rank), so the question's own "
                         "list (weight 2) counts twice as much as an alternative's"),
    Variant(_rank_from_zero, "your ranks start at 0; the first result of a list has rank 1, so it adds "
                             "weight / (rrf_k + 1)"),
    Variant(_max_not_sum, "you keep an id's best score from one list; add its scores from every list that found it"),
    Variant(_all_of_them, "you return every id; keep only the best k"),
]


def check_fuse_queries(fn: Callable[..., list[str]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(lists, weights, k, rrf_k=60) -> list of ids`` against ragkit's weighted RRF over several queries."""
    cases = fuse_cases(seed)

    def describe(case: FuseCase, got: Any, expected: list[str]) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {expected}"

    def same(got: Any, expected: list[str]) -> bool:
        return isinstance(got, (list, tuple)) and list(got) == expected

    return run_checker("fuse_queries", fn, cases, fuse_query_lists,
                       call=lambda f, c: f([list(l) for l in c.lists], list(c.weights), c.k, rrf_k=c.rrf_k),
                       same=same, describe=describe, variants=FUSE_VARIANTS, quiet=quiet,
                       passed_message=f"your fusion equals ragkit's on {len(cases)} generated sets of query lists "
                                      "(weights 2 / 1 / 0.5, shared ids, different k).")


__all__ = ["FUSE_VARIANTS", "RETRY_VARIANTS", "check_fuse_queries", "check_retry_router", "fuse_query_lists"]


# ---------------------------------------------------------------- wiring the pipeline
def _pipeline_without(drop: tuple[tuple[str, str], ...] = (), routers: tuple[str, ...] = (),
                      add: tuple[tuple[str, str], ...] = ()) -> Callable[[], Any]:
    return lambda: rewired(advanced_rag_graph(load_handbook()), drop=drop, routers=routers, add=add)


WIRING_VARIANTS = [
    Variant(_pipeline_without(drop=(("generate", "hallucination_check"), ("finish", END)), routers=("hallucination_check",)),
            "the answer part is not wired yet: generate -> hallucination_check (add_edge), then "
            "add_conditional_edges('hallucination_check', route_after_hallucination_check) (write again, or "
            "finish), and finish -> END, as ragkit's builder does"),
    Variant(_pipeline_without(routers=("hallucination_check",), add=(("hallucination_check", END),)),
            "a fixed edge hallucination_check -> END skips both the second answer and finish, which writes the "
            "result fields (answer, sources, outcome): ragkit's builder uses route_after_hallucination_check there"),
    Variant(_pipeline_without(routers=("hallucination_check",), add=(("hallucination_check", "finish"),)),
            "a fixed edge hallucination_check -> finish never writes again: ragkit's builder lets "
            "route_after_hallucination_check send an answer that is not grounded back to generate, within the cap"),
    Variant(_pipeline_without(routers=("grade",), add=(("grade", "generate"),)),
            "a fixed edge grade -> generate never retries: ragkit's builder lets route_after_grade send a search that "
            "found nothing relevant back to query_transform for a new formulation, within the cap"),
]


def check_advanced_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the advanced pipeline as ``ragkit.graphs.advanced_rag.advanced_rag_graph``
    does (the same nodes and edges, each conditional edge from the module's router)."""
    return check_wiring(build, advanced_rag_graph(load_handbook()), "advanced_wiring", quiet, WIRING_VARIANTS)
