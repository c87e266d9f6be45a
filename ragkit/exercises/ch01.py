"""Checkers for notebook 01 (retrieval): BM25 scores, reciprocal rank fusion, and MMR selection.

>>> from ragkit.core.hybrid import reciprocal_rank_fusion
>>> check_rrf(reciprocal_rank_fusion, quiet=True).passed
True
>>> def zero_based(rankings, k=60):
...     scores = {}
...     for ranking in rankings:
...         for rank, key in enumerate(ranking):
...             scores[key] = scores.get(key, 0.0) + 1 / (k + rank)
...     return sorted(scores.items(), key=lambda item: -item[1])
>>> "rank starting at 1" in check_rrf(zero_based, quiet=True).message
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ragkit.core.bm25 import LuceneIdfBM25
from ragkit.core.dense import mmr_select
from ragkit.core.hybrid import reciprocal_rank_fusion
from ragkit.exercises.core import CheckResult, Variant, close, run_checker, short

# ---------------------------------------------------------------- BM25
TERMS = ["wine", "red", "white", "fish", "grill", "oyster", "ferri", "beach", "lamb", "saffron", "bread", "harbour"]


@dataclass(frozen=True)
class BM25Case:
    query: tuple[str, ...]
    docs: tuple[tuple[str, ...], ...]
    k1: float
    b: float

    def label(self) -> str:
        return f"query={list(self.query)}, docs={[list(d) for d in self.docs]}, k1={self.k1}, b={self.b}"


def bm25_cases(seed: int, n: int = 20) -> list[BM25Case]:
    """Tiny token-list corpora (3-6 documents of 2-9 terms, some repeated) and 1-3 term queries."""
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        docs = tuple(tuple(rng.choices(TERMS[:8], k=rng.randint(2, 9))) for _ in range(rng.randint(3, 6)))
        query = tuple(rng.sample(TERMS, rng.randint(1, 3)))
        k1, b = [(1.2, 0.5), (1.2, 0.75), (0.9, 0.4), (2.0, 1.0), (1.5, 0.0)][i % 5]
        cases.append(BM25Case(query, docs, k1, b))
    return cases


def reference_bm25(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float, b: float) -> list[float]:
    return [float(s) for s in LuceneIdfBM25([list(d) for d in docs], k1=k1, b=b).get_scores(list(query))]


def _bm25_variant(idf: Callable[[int, int], float], saturate: bool = True, plus_one: bool = True, length: bool = True,
                  fixed_b: float | None = None, df_per_doc: bool = True) -> Callable[..., list[float]]:
    def score(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float, b: float) -> list[float]:
        b = b if fixed_b is None else fixed_b
        n_docs, avg = len(docs), sum(map(len, docs)) / len(docs)
        df = Counter(t for d in docs for t in (set(d) if df_per_doc else d))
        out = []
        for d in docs:
            tf, total = Counter(d), 0.0
            for t in query:
                if not df[t]:
                    continue
                weight = idf(n_docs, df[t])
                if not saturate:
                    total += weight * tf[t]
                    continue
                norm = k1 * ((1 - b + b * len(d) / avg) if length else 1.0)
                total += weight * tf[t] * ((k1 + 1) if plus_one else 1.0) / (tf[t] + norm)
            out.append(total)
        return out

    return score


def _lucene(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


BM25_VARIANTS = [
    Variant(_bm25_variant(lambda n, df: math.log((n - df + 0.5) / (df + 0.5))),
            "you use the classic Robertson idf log((N - n + 0.5) / (n + 0.5)), which is negative for a term in "
            "more than half the documents; ragkit uses Lucene's log(1 + (N - n + 0.5) / (n + 0.5))"),
    Variant(_bm25_variant(lambda n, df: math.log(n / df)),
            "you use idf = log(N / n); ragkit uses Lucene's log(1 + (N - n + 0.5) / (n + 0.5))"),
    Variant(_bm25_variant(_lucene, plus_one=False),
            "the term part is missing its (k1 + 1) factor: idf * tf * (k1 + 1) / (tf + k1 * (...))"),
    Variant(_bm25_variant(_lucene, length=False),
            "there is no length normalisation: the k1 in the denominator must be multiplied by "
            "(1 - b + b * len(doc) / average length)"),
    Variant(_bm25_variant(_lucene, fixed_b=0.75),
            "you always use b = 0.75 (Lucene's default); use the b you are given"),
    Variant(_bm25_variant(_lucene, saturate=False),
            "you add idf * tf, so repeating a term helps without limit; BM25 saturates with "
            "tf * (k1 + 1) / (tf + k1 * (...))"),
    Variant(_bm25_variant(_lucene, df_per_doc=False),
            "your document frequency counts every occurrence of a term; df is the number of documents that contain "
            "it: count each term once per document (set(doc))"),
]


def check_bm25(fn: Callable[..., Sequence[float]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(query_terms, docs, k1, b) -> one score per doc`` against ragkit's ``LuceneIdfBM25``."""
    cases = bm25_cases(seed)

    def same(got: Any, expected: list[float]) -> bool:
        try:
            return not isinstance(got, Mapping) and close([float(x) for x in got], expected, 1e-6)
        except (TypeError, ValueError):
            return False

    def describe(case: BM25Case, got: Any, expected: list[float]) -> str:
        if isinstance(got, Mapping):  # looping over a dict gives its keys, not its scores
            return (f"for {case.label()} you return a dict, {short(got)}; return a list with one score per document, "
                    "in the order of docs")
        try:
            values = [float(x) for x in got]
        except (TypeError, ValueError):
            return f"for {case.label()} you return {short(got)}, not one number per document"
        if len(values) != len(expected):
            return f"for {case.label()} you return {len(values)} scores for {len(expected)} documents"
        i = next(j for j, (a, e) in enumerate(zip(values, expected)) if not close(a, e, 1e-6))
        return (f"for {case.label()} document {i} scores {values[i]:.4f} in yours and {expected[i]:.4f} in the "
                "reference")

    return run_checker("bm25", fn, cases, reference_bm25, call=lambda f, c: f(list(c.query), [list(d) for d in c.docs], c.k1, c.b),
                       same=same, describe=describe, variants=BM25_VARIANTS, quiet=quiet,
                       passed_message=f"your BM25 equals ragkit's LuceneIdfBM25 on {len(cases)} generated corpora "
                                      "(several k1 and b values).")


# ---------------------------------------------------------------- RRF
DOC_IDS = list("ABCDEFGH")


@dataclass(frozen=True)
class RRFCase:
    rankings: tuple[tuple[str, ...], ...]
    k: int

    def label(self) -> str:
        return f"rankings={[list(r) for r in self.rankings]}, k={self.k}"


def rrf_cases(seed: int, n: int = 30) -> list[RRFCase]:
    """2-3 ranked lists of doc ids (overlapping, different lengths), with k = 60, 1, 0 or 10."""
    rng = random.Random(seed)
    cases = [RRFCase((("A", "B", "C"), ("B", "C", "D")), 1)]
    while len(cases) < n:
        lists = tuple(tuple(rng.sample(DOC_IDS, rng.randint(1, 5))) for _ in range(rng.randint(2, 3)))
        cases.append(RRFCase(lists, rng.choice([60, 1, 0, 10])))
    return cases


def _rrf_variant(contribution: Callable[[int, int], float], combine: str = "sum",
                 ascending: bool = False) -> Callable[..., list[tuple[str, float]]]:
    def fuse(rankings: Sequence[Sequence[str]], k: int = 60) -> list[tuple[str, float]]:
        scores: dict[str, float] = {}
        for ranking in rankings:
            for rank, key in enumerate(ranking, start=1):
                value = contribution(rank, k)
                if combine == "max":
                    scores[key] = max(scores.get(key, 0.0), value)
                else:
                    scores[key] = scores.get(key, 0.0) + value
        return sorted(scores.items(), key=lambda item: item[1] if ascending else -item[1])

    return fuse


RRF_VARIANTS = [
    Variant(_rrf_variant(lambda rank, k: 0.0),
            "every score is 0: each list should add 1 / (k + rank) to each document it contains"),
    Variant(_rrf_variant(lambda rank, k: 1 / (k + rank - 1) if k + rank - 1 else math.inf),
            "did you add 1/(k + rank) with rank starting at 1? Yours looks like rank starts at 0 "
            "(enumerate(ranking, start=1) fixes it)"),
    Variant(_rrf_variant(lambda rank, k: 1 / rank),
            "you add 1 / rank and ignore k; the contribution is 1 / (k + rank)"),
    Variant(_rrf_variant(lambda rank, k: 1 / (k + rank), combine="max"),
            "you keep each document's best contribution; RRF *adds* the contributions of every list"),
    Variant(_rrf_variant(lambda rank, k: 1 / (k + rank), ascending=True),
            "your scores are right but sorted worst first; sort by score, highest first"),
    Variant(_rrf_variant(lambda rank, k: float(rank)),
            "you add the ranks themselves; RRF adds 1 / (k + rank), so a better (smaller) rank earns more"),
    Variant(_rrf_variant(lambda rank, k: 1 / k if k else math.inf),
            "every list adds 1/k whatever the rank; the contribution is 1 / (k + rank)"),
]


def _rrf_same(got: Any, expected: list[tuple[str, float]]) -> bool:
    """Same documents with the same scores, sorted best first (any order among exact ties)."""
    try:
        pairs = [(str(key), float(score)) for key, score in got]
    except (TypeError, ValueError):
        return False
    mine, theirs = dict(pairs), dict(expected)
    if len(pairs) != len(mine) or set(mine) != set(theirs):
        return False
    if not all(close(mine[key], theirs[key], 1e-9) for key in theirs):
        return False
    return all(a[1] >= b[1] - 1e-12 for a, b in zip(pairs, pairs[1:]))


def _rrf_describe(case: RRFCase, got: Any, expected: list[tuple[str, float]]) -> str:
    try:
        pairs = [(str(key), float(score)) for key, score in got]
    except (TypeError, ValueError):
        return f"for {case.label()} you return {short(got)}; return a list of (doc id, score) pairs, best first"
    where = f"for {case.label()}"
    if not pairs:
        return f"{where} you return an empty list; the reference ranks {len(expected)} documents"
    if pairs[0][0] != expected[0][0] and not close(dict(pairs).get(expected[0][0], math.nan), expected[0][1], 1e-9):
        return (f"{where} your rrf gives doc {pairs[0][0]} rank 1 (score {pairs[0][1]:.4f}); the reference gives "
                f"doc {expected[0][0]} (score {expected[0][1]:.4f})")
    missing = sorted(set(dict(expected)) - set(dict(pairs)))
    extra = sorted(set(dict(pairs)) - set(dict(expected)))
    if missing or extra:
        return f"{where} you leave out {missing} and add {extra}; every document of every list gets a score"
    theirs = dict(expected)
    for key, score in pairs:
        if not close(score, theirs[key], 1e-9):
            return f"{where} doc {key} scores {score:.4f} in yours and {theirs[key]:.4f} in the reference"
    return f"{where} your scores are right but not sorted best first: {short(pairs)}"


def check_rrf(fn: Callable[..., Any], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(rankings, k=60) -> [(doc id, score), ...]`` against ragkit's ``reciprocal_rank_fusion``."""
    cases = rrf_cases(seed)
    return run_checker("rrf", fn, cases, reciprocal_rank_fusion, call=lambda f, c: f([list(r) for r in c.rankings], k=c.k),
                       same=_rrf_same, describe=_rrf_describe, variants=RRF_VARIANTS, quiet=quiet,
                       equal=lambda got, variant: close([tuple(p) for p in got], [tuple(p) for p in variant], 1e-9),
                       passed_message=f"your rrf equals ragkit's reciprocal_rank_fusion on {len(cases)} generated "
                                      "sets of rankings (k = 0, 1, 10 and 60).")


# ---------------------------------------------------------------- MMR
@dataclass(frozen=True)
class MMRCase:
    query: tuple[float, ...]
    candidates: tuple[tuple[float, ...], ...]
    k: int
    lambda_mult: float

    def label(self) -> str:
        return (f"{len(self.candidates)} candidates, k={self.k}, lambda_mult={self.lambda_mult} "
                f"(relevance {[round(float(np.dot(c, self.query)), 2) for c in self.candidates]})")


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def mmr_cases(seed: int, n: int = 24) -> list[MMRCase]:
    """Random unit vectors (4 dimensions) with near-duplicates of the best candidates mixed in."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        query = _unit(rng.normal(size=4))
        base = [_unit(query + rng.normal(scale=0.8, size=4)) for _ in range(rng.integers(4, 7))]
        base.sort(key=lambda c: -float(c @ query))
        twins = [_unit(base[j] + rng.normal(scale=0.05, size=4)) for j in range(2)]
        cands = base + twins
        order = rng.permutation(len(cands))
        cands = [cands[j] for j in order]
        k = int(rng.integers(2, 5))
        cases.append(MMRCase(tuple(query.tolist()), tuple(tuple(c.tolist()) for c in cands), k,
                             [0.5, 0.3, 0.7, 1.0, 0.2][i % 5]))
    return cases


def reference_mmr(query_vec: np.ndarray, cand_vecs: np.ndarray, k: int, lambda_mult: float = 0.5) -> list[int]:
    return [i for i, _ in mmr_select(query_vec, cand_vecs, k, lambda_mult)]


def _mmr_variant(redundancy: str = "max", swap: bool = False, penalty: bool = True) -> Callable[..., list[int]]:
    def pick(query_vec: np.ndarray, cand_vecs: np.ndarray, k: int, lambda_mult: float = 0.5) -> list[int]:
        relevance = cand_vecs @ query_vec
        chosen: list[int] = []
        while len(chosen) < min(k, len(cand_vecs)):
            best, best_value = -1, -math.inf
            for i in range(len(cand_vecs)):
                if i in chosen:
                    continue
                sims = [float(cand_vecs[i] @ cand_vecs[j]) for j in chosen]
                red = (max(sims) if redundancy == "max" else sum(sims) / len(sims)) if sims else 0.0
                lam = 1 - lambda_mult if swap else lambda_mult
                value = lam * relevance[i] - (1 - lam) * red if penalty else relevance[i]
                if value > best_value:
                    best, best_value = i, value
            chosen.append(best)
        return chosen

    return pick


MMR_VARIANTS = [
    Variant(_mmr_variant(penalty=False),
            "you pick the k most relevant candidates; MMR subtracts (1 - lambda_mult) * (the highest similarity "
            "to an already chosen candidate) from lambda_mult * relevance, so near-duplicates lose"),
    Variant(_mmr_variant(redundancy="mean"),
            "you penalise the *mean* similarity to the chosen candidates; MMR uses the maximum (the closest one)"),
    Variant(_mmr_variant(swap=True),
            "lambda_mult weighs the wrong side: it multiplies relevance, and (1 - lambda_mult) the redundancy"),
]


def check_mmr(fn: Callable[..., Sequence[int]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(query_vec, cand_vecs, k, lambda_mult) -> picked indexes, in order`` against ``mmr_select``."""
    cases = mmr_cases(seed)

    def same(got: Any, expected: list[int]) -> bool:
        try:
            return [int(i) for i in got] == expected
        except (TypeError, ValueError):
            return False

    def describe(case: MMRCase, got: Any, expected: list[int]) -> str:
        return f"with {case.label()} you pick {short(got)}; the reference picks {expected}"

    return run_checker("mmr", fn, cases, reference_mmr,
                       call=lambda f, c: f(np.array(c.query), np.array(c.candidates), c.k, c.lambda_mult),
                       same=same, describe=describe, variants=MMR_VARIANTS, quiet=quiet,
                       passed_message=f"your MMR picks the same candidates, in the same order, as ragkit's mmr_select "
                                      f"on {len(cases)} generated cases (lambda_mult from 0 to 1).")
