"""Checkers for notebook 04 (Self-RAG): a grader threshold for a recall target, its precision and recall, the
budget rule ``can_rewrite``, and the graph wired by hand.

>>> check_can_rewrite(lambda attempts, max_attempts: attempts + 2 <= max_attempts, quiet=True).passed
True
>>> "room for the answer" in check_can_rewrite(lambda attempts, max_attempts: attempts < max_attempts, quiet=True).message
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ragkit.evaluation.tuning import threshold_for_recall
from ragkit.exercises.core import CheckResult, Variant, check_wiring, close, rewired, run_checker, short
from ragkit.graphs.self_rag import can_rewrite, self_rag_graph


@dataclass(frozen=True)
class ScoredLabels:
    scores: tuple[float, ...]
    labels: tuple[int, ...]
    target: float = 0.8
    threshold: float = 0.5

    def label(self) -> str:
        return (f"scores={list(self.scores)}, labels={list(self.labels)}, recall target {self.target}, "
                f"threshold {self.threshold}")


def scored_label_cases(seed: int, n: int = 30) -> list[ScoredLabels]:
    """6-14 grader probabilities (2 decimals, with ties) with 0/1 labels, at least one relevant pair."""
    rng = random.Random(seed)
    cases = [ScoredLabels((0.9, 0.8, 0.3, 0.1), (1, 0, 1, 0), 1.0, 0.3)]
    while len(cases) < n:
        size = rng.randint(6, 14)
        labels = [rng.random() < 0.4 for _ in range(size)]
        labels[rng.randrange(size)] = True
        scores = [round(min(0.99, max(0.0, rng.gauss(0.35 if y else 0.1, 0.15))), 2) for y in labels]
        target = rng.choice([0.5, 0.8, 0.9, 1.0, 0.75])
        cut = rng.choice(scores)
        cases.append(ScoredLabels(tuple(scores), tuple(int(y) for y in labels), target, cut))
    return cases


# ---------------------------------------------------------------- threshold for a recall target
def _threshold_variant(rounding: Callable[[float], int], offset: int = 1, all_scores: bool = False,
                       ascending: bool = False) -> Callable[..., float]:
    def pick(scores: Sequence[float], labels: Sequence[int], target: float) -> float:
        pool = list(scores) if all_scores else [s for s, y in zip(scores, labels) if y == 1]
        pool.sort(reverse=not ascending)
        needed = max(1, rounding(target * sum(1 for y in labels if y == 1)))
        return float(pool[min(needed - offset, len(pool) - 1)])

    return pick


THRESHOLD_VARIANTS = [
    Variant(_threshold_variant(math.ceil, all_scores=True),
            "you count down all scores; count down the scores of the *relevant* pairs only (labels == 1)"),
    Variant(_threshold_variant(int),
            "you round target * (number of relevant pairs) down; round it up (math.ceil), or the threshold "
            "keeps less than the target"),
    Variant(_threshold_variant(math.ceil, offset=0),
            "you take one score too many (an off-by-one: the n-th best is index n - 1)"),
    Variant(_threshold_variant(math.ceil, ascending=True),
            "you sort from lowest to highest; sort the relevant scores from highest to lowest"),
]


def check_threshold_for_recall(fn: Callable[..., float], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(scores, labels, target) -> threshold`` against ragkit's ``threshold_for_recall`` (which chose
    the LocalGrader threshold in ``ragkit.defaults.GRADER``)."""
    cases = scored_label_cases(seed)

    def describe(case: ScoredLabels, got: Any, expected: float) -> str:
        relevant = sorted((s for s, y in zip(case.scores, case.labels) if y), reverse=True)
        return (f"for scores={list(case.scores)}, labels={list(case.labels)} and target {case.target} your "
                f"threshold is {short(got)}; the reference is {expected} (relevant scores, best first: {relevant})")

    return run_checker("threshold_for_recall", fn, cases,
                       lambda s, y, t: threshold_for_recall(np.array(s), np.array(y), t),
                       call=lambda f, c: f(list(c.scores), list(c.labels), c.target),
                       same=lambda got, expected: close(got, expected, 1e-9), describe=describe,
                       variants=THRESHOLD_VARIANTS, quiet=quiet,
                       passed_message=f"your threshold equals ragkit's threshold_for_recall on {len(cases)} generated "
                                      "score lists (recall targets 0.5 to 1.0, ties included).")


# ---------------------------------------------------------------- precision and recall at a threshold
def reference_precision_recall(scores: Sequence[float], labels: Sequence[int], threshold: float) -> tuple[float, float]:
    """LocalGrader's decision (relevant when ``score >= threshold``), scored by scikit-learn (installed with
    sentence-transformers, so imported only here)."""
    from sklearn.metrics import precision_score, recall_score

    predicted = [int(s >= threshold) for s in scores]
    return (float(precision_score(labels, predicted, zero_division=0.0)),
            float(recall_score(labels, predicted, zero_division=0.0)))


def _pr(decide: Callable[[float, float], bool], swap: bool = False, recall_over_all: bool = False,
        empty: float | None = 0.0):
    def pr(scores: Sequence[float], labels: Sequence[int], threshold: float) -> tuple[float, float]:
        kept = [decide(s, threshold) for s in scores]
        tp = sum(k and y == 1 for k, y in zip(kept, labels))
        precision = tp / sum(kept) if sum(kept) or empty is None else empty  # empty=None: divide by zero
        recall = tp / (len(labels) if recall_over_all else sum(labels)) if sum(labels) else 0.0
        return (recall, precision) if swap else (precision, recall)

    return pr


PR_VARIANTS = [
    Variant(lambda scores, labels, threshold: (_pr(lambda s, t: s >= t)(scores, labels, threshold)[0], 0.0),
            "your precision is right but recall is always 0: divide the kept relevant pairs by all relevant pairs"),
    Variant(_pr(lambda s, t: s > t),
            "you keep a document when score > threshold; LocalGrader keeps it when score >= threshold"),
    Variant(_pr(lambda s, t: s >= t, swap=True),
            "precision and recall are swapped: precision = kept and relevant / kept, recall = kept and relevant / relevant"),
    Variant(_pr(lambda s, t: s >= t, recall_over_all=True),
            "recall divides by every pair; divide by the relevant pairs (labels == 1)"),
    Variant(_pr(lambda s, t: s < t),
            "you keep the documents *below* the threshold; the grader keeps score >= threshold"),
    Variant(_pr(lambda s, t: s >= t, empty=None),
            "when nothing is kept (every score below the threshold) precision has nothing to divide by: return 0.0 "
            "for it, as scikit-learn's zero_division=0 does"),
    Variant(_pr(lambda s, t: s >= t, empty=1.0),
            "when nothing is kept, precision is 0.0 here (scikit-learn's zero_division=0), not 1.0"),
]


def check_precision_recall(fn: Callable[..., tuple[float, float]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(scores, labels, threshold) -> (precision, recall)``; kept = ``score >= threshold``, as in
    ``LocalGrader``; precision of an empty selection is 0 (scikit-learn's ``zero_division=0``)."""
    cases = scored_label_cases(seed + 1, n=29) + [ScoredLabels((0.4, 0.2, 0.1), (1, 0, 1), threshold=0.5)]  # none kept

    def same(got: Any, expected: tuple[float, float]) -> bool:
        try:
            return len(got) == 2 and close([float(x) for x in got], list(expected), 1e-9)
        except (TypeError, ValueError):
            return False

    def describe(case: ScoredLabels, got: Any, expected: tuple[float, float]) -> str:
        return (f"for scores={list(case.scores)}, labels={list(case.labels)} at threshold {case.threshold} you "
                f"return {short(got)}; the reference (precision, recall) is ({expected[0]:.3f}, {expected[1]:.3f})")

    return run_checker("precision_recall", fn, cases, reference_precision_recall,
                       call=lambda f, c: f(list(c.scores), list(c.labels), c.threshold), same=same, describe=describe,
                       variants=PR_VARIANTS, quiet=quiet,
                       passed_message=f"your precision and recall equal scikit-learn's, with LocalGrader's decision "
                                      f"rule (score >= threshold), on {len(cases)} generated cases.")


# ---------------------------------------------------------------- the budget rule
@dataclass(frozen=True)
class BudgetCase:
    attempts: int
    max_attempts: int

    def label(self) -> str:
        return f"attempts={self.attempts}, max_attempts={self.max_attempts}"


def budget_cases(seed: int, n: int = 30) -> list[BudgetCase]:
    """Every (attempts, max_attempts) with max_attempts 1..6 around the boundary, in a seeded order."""
    grid = [BudgetCase(a, m) for m in range(1, 7) for a in range(0, m + 1)]
    rng = random.Random(seed)
    rng.shuffle(grid)
    return [BudgetCase(1, 3), BudgetCase(2, 3)] + grid[:n]


BUDGET_VARIANTS = [
    Variant(lambda a, m: a + 1 <= m,
            "you allow a rewrite whenever one more attempt fits (attempts < max_attempts); a rewrite needs room "
            "for the answer after it too (attempts + 2 <= max_attempts), or the run ends on a search with "
            "nothing written"),
    Variant(lambda a, m: a + 2 < m,
            "you use < where <= is right: with attempts + 2 == max_attempts the rewrite and its answer fit exactly"),
    Variant(lambda a, m: True, "you always allow a rewrite, so the rewrite loop has no cap"),
]


def check_can_rewrite(fn: Callable[[int, int], bool], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(attempts, max_attempts) -> bool`` against ragkit's ``can_rewrite``."""
    cases = budget_cases(seed)

    def describe(case: BudgetCase, got: Any, expected: bool) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {expected}"

    return run_checker("can_rewrite", fn, cases,
                       lambda a, m: can_rewrite({"attempts": a, "max_attempts": m}),
                       call=lambda f, c: f(c.attempts, c.max_attempts),
                       same=lambda got, expected: isinstance(got, (bool, int, np.bool_)) and bool(got) == expected,
                       describe=describe, variants=BUDGET_VARIANTS, quiet=quiet,
                       passed_message=f"your rule equals ragkit's can_rewrite on {len(cases)} budgets around the "
                                      "boundary (max_attempts 1 to 6).")


# ---------------------------------------------------------------- the graph, wired by hand
def _reference() -> Any:
    return self_rag_graph(retriever=lambda q: [])


def _fixed(node: str, target: str) -> Callable[[], Any]:
    """The builder's graph with the router after ``node`` replaced by a fixed edge to ``target``."""
    return lambda: rewired(_reference(), routers=(node,), add=((node, target),))


WIRING_VARIANTS = [
    Variant(_fixed("grade_generation", "finish"),
            "after grade_generation the checks decide where the run goes (finish, write again, search again or give "
            "up): in ragkit's graph that is add_conditional_edges('grade_generation', route_after_grade_generation), "
            "not a fixed edge to finish"),
    Variant(_fixed("transform_query", "retrieve"),
            "a rewrite the run already searched goes straight to generate: in ragkit's graph transform_query is "
            "followed by route_after_transform_query, not a fixed edge to retrieve"),
    Variant(_fixed("grade_documents", "generate"),
            "with no relevant document the run should rewrite the query: in ragkit's graph grade_documents is "
            "followed by route_after_grade_documents, not a fixed edge to generate"),
]


def check_self_rag_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` returns the Self-RAG graph: the nodes and edges of ragkit's ``self_rag_graph``."""
    return check_wiring(build, _reference(), "self_rag_wiring", quiet, WIRING_VARIANTS)
