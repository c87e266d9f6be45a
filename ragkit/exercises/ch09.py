"""Checkers for notebook 09 (the retrieval bandit): the Beta update, the Thompson choice, cumulative regret, and
the bandit's round wired inside the advanced pipeline.

>>> check_beta_update(lambda alpha, beta, reward: (alpha + reward, beta + 1 - reward), quiet=True).passed
True
>>> "1 - r" in check_beta_update(lambda alpha, beta, reward: (alpha + reward, beta), quiet=True).message
True

The first two compare the learner's function with ``ragkit.bandit.ThompsonSampling`` itself (its
``update`` and ``select``, on the same seeded random generator). Regret has no function in the package
(the replay benchmark computes it inline), so :func:`reference_cumulative_regret` here states it once, with
the definition of ``benchmarks/bandit/scifact_replay.py``: against the best fixed arm in hindsight, ties
to the arm listed first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ragkit.bandit import ThompsonSampling
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.exercises.core import (
    CheckResult,
    Outcome,
    Variant,
    agrees,
    check_wiring,
    close,
    matching_variant,
    report,
    rewired,
    run_checker,
    short,
)
from ragkit.graphs.advanced_rag import advanced_rag_graph


# ---------------------------------------------------------------- the Beta update
def reference_beta_update(alpha: float, beta: float, reward: float) -> tuple[float, float]:
    """ragkit's ``ThompsonSampling.update`` on one arm whose posterior is Beta(alpha, beta).

    >>> reference_beta_update(1.0, 1.0, 0.75)
    (1.75, 1.25)
    """
    policy = ThompsonSampling(["arm"], seed=0)
    policy.alpha[0], policy.beta[0] = alpha, beta
    policy.update("arm", reward)
    return float(policy.alpha[0]), float(policy.beta[0])


@dataclass(frozen=True)
class UpdateCase:
    alpha: float
    beta: float
    reward: float

    def label(self) -> str:
        return f"Beta({self.alpha:g}, {self.beta:g}) and reward {self.reward:g}"


def update_cases(seed: int, n: int = 30) -> list[UpdateCase]:
    """Flat and learned posteriors; rewards 0, 1, halves, quarters and other fractions (a grader's share)."""
    rng = random.Random(seed)
    cases = [UpdateCase(1.0, 1.0, 1.0), UpdateCase(1.0, 1.0, 0.0), UpdateCase(3.0, 2.0, 0.25), UpdateCase(2.0, 5.0, 0.5)]
    while len(cases) < n:
        reward = rng.choice([0.0, 1.0, 0.25, 0.5, 0.75, round(rng.random(), 3)])
        cases.append(UpdateCase(round(rng.uniform(0.5, 30.0), 2), round(rng.uniform(0.5, 30.0), 2), reward))
    return cases


UPDATE_VARIANTS = [
    Variant(lambda alpha, beta, reward: (alpha + reward, beta),
            "you add the reward to alpha but leave beta alone; a reward r is also a partial failure: add 1 - r to beta"),
    Variant(lambda alpha, beta, reward: (alpha + reward, beta + 1.0),
            "you add 1 to beta on every pull; beta counts failures, so add 1 - r (a full reward adds nothing to it)"),
    Variant(lambda alpha, beta, reward: (alpha + 1.0 - reward, beta + reward),
            "alpha and beta are swapped: the reward r goes to alpha (successes), 1 - r to beta (failures)"),
    Variant(lambda alpha, beta, reward: (alpha + 1.0, beta) if reward >= 0.5 else (alpha, beta + 1.0),
            "you round the reward to a success or a failure; ragkit keeps the fraction: alpha += r, beta += 1 - r"),
    Variant(lambda alpha, beta, reward: (1.0 + reward, 2.0 - reward),
            "you start again from the Beta(1, 1) prior; add to the alpha and beta you were given"),
]


def check_beta_update(fn: Callable[[float, float, float], tuple[float, float]], seed: int = 0,
                      quiet: bool = False) -> CheckResult:
    """Check ``fn(alpha, beta, reward) -> (new_alpha, new_beta)`` against ``ThompsonSampling.update``."""
    cases = update_cases(seed)

    def same(got: Any, expected: tuple[float, float]) -> bool:
        try:
            return len(got) == 2 and close(float(got[0]), expected[0]) and close(float(got[1]), expected[1])
        except (TypeError, ValueError):
            return False

    def describe(case: UpdateCase, got: Any, expected: tuple[float, float]) -> str:
        try:
            shown = f"Beta({float(got[0]):g}, {float(got[1]):g})"
        except (TypeError, ValueError, IndexError, KeyError):
            return f"for {case.label()} you return {short(got)}; return the pair (new alpha, new beta)"
        if len(got) != 2:
            return (f"for {case.label()} you return {len(got)} values, {short(got)}; return the pair "
                    "(new alpha, new beta)")
        return (f"for {case.label()} you return {shown}; the reference (ragkit's ThompsonSampling.update) "
                f"gives Beta({expected[0]:g}, {expected[1]:g})")

    return run_checker("beta_update", fn, cases, reference_beta_update,
                       call=lambda f, c: f(c.alpha, c.beta, c.reward), same=same, describe=describe,
                       variants=UPDATE_VARIANTS, quiet=quiet,
                       passed_message=f"your update equals ThompsonSampling.update on {len(cases)} generated cases "
                                      "(rewards 0, 1 and fractions, flat and learned posteriors).")


# ---------------------------------------------------------------- the Thompson choice
def reference_thompson_choice(alpha: Sequence[float], beta: Sequence[float], rng: np.random.Generator) -> int:
    """The arm index ragkit's ``ThompsonSampling.select`` plays with these posteriors and this generator.

    >>> reference_thompson_choice([1.0, 50.0], [50.0, 1.0], np.random.default_rng(0))
    1
    """
    policy = ThompsonSampling([f"arm{i}" for i in range(len(alpha))], seed=rng)
    policy.alpha, policy.beta = np.asarray(alpha, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    return policy.index(policy.select())


@dataclass(frozen=True)
class ChoiceCase:
    alpha: tuple[float, ...]
    beta: tuple[float, ...]
    seed: int

    def label(self) -> str:
        arms = ", ".join(f"Beta({a:g}, {b:g})" for a, b in zip(self.alpha, self.beta))
        return f"posteriors [{arms}] and rng seed {self.seed}"


def choice_cases(seed: int, n: int = 40) -> list[ChoiceCase]:
    """2-4 arms with overlapping posteriors (few pulls), so sampling often disagrees with the best mean."""
    rng = random.Random(seed)
    cases = [ChoiceCase((1.0, 1.0), (1.0, 1.0), 0), ChoiceCase((3.0, 2.0, 1.5), (2.0, 3.0, 1.5), 1)]
    while len(cases) < n:
        arms = rng.randint(2, 4)
        cases.append(ChoiceCase(tuple(round(rng.uniform(1.0, 6.0), 2) for _ in range(arms)),
                                tuple(round(rng.uniform(1.0, 6.0), 2) for _ in range(arms)), rng.randint(0, 10_000)))
    return cases


def _means(alpha: Sequence[float], beta: Sequence[float]) -> np.ndarray:
    a, b = np.asarray(alpha, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    return a / (a + b)


CHOICE_VARIANTS = [
    Variant(lambda alpha, beta, rng: int(np.argmax(_means(alpha, beta))),
            "you play the best posterior mean, which never explores; draw one sample per arm from its Beta "
            "posterior (rng.beta(alpha, beta)) and play the largest sample"),
    Variant(lambda alpha, beta, rng: int(np.argmax(rng.beta(beta, alpha))),
            "you sample from Beta(beta, alpha): alpha (successes) comes first"),
    Variant(lambda alpha, beta, rng: int(np.argmin(rng.beta(alpha, beta))),
            "you play the smallest sample; play the largest"),
    Variant(lambda alpha, beta, rng: int(np.argmax(alpha)),
            "you compare alpha alone (successes), not the reward rate; sample from Beta(alpha, beta)"),
    Variant(lambda alpha, beta, rng: int(rng.integers(len(alpha))),
            "you pick an arm uniformly at random; sample each arm's Beta posterior and play the largest sample"),
]


OTHER_GENERATOR = ("your function never draws from rng, the seeded generator it is given, so no one can replay its "
                   "choice (np.random.beta and random.betavariate draw from generators of their own): sample with "
                   "rng.beta(alpha, beta)")


def check_thompson_choice(fn: Callable[[Sequence[float], Sequence[float], np.random.Generator], int], seed: int = 0,
                          quiet: bool = False) -> CheckResult:
    """Check ``fn(alpha, beta, rng) -> arm index`` against ``ThompsonSampling.select`` on the same seeded rng.

    A function that plays a sampled arm but never draws from ``rng`` is told so: no variant can replay samples
    from another generator, and the closest one would name the wrong mistake."""
    cases = choice_cases(seed)
    seen: dict[ChoiceCase, tuple[Any, bool]] = {}  # the learner's answer on each case, and whether it drew from rng

    def call(f: Callable[..., Any], case: ChoiceCase) -> Any:
        rng = np.random.default_rng(case.seed)
        start = rng.bit_generator.state
        value = f(list(case.alpha), list(case.beta), rng)
        if f is fn:
            seen[case] = (value, rng.bit_generator.state != start)
        return value

    def same(got: Any, expected: int) -> bool:
        return isinstance(got, (int, np.integer)) and not isinstance(got, bool) and int(got) == expected

    def describe(case: ChoiceCase, got: Any, expected: int) -> str:
        if not isinstance(got, (int, np.integer)) or isinstance(got, bool):
            return f"for {case.label()} you return {short(got)}; return the index of the arm to play (an int)"
        return (f"for {case.label()} you play arm {int(got)}; the reference (ragkit's ThompsonSampling.select "
                f"with the same generator) plays arm {expected}")

    result = run_checker("thompson_choice", fn, cases, reference_thompson_choice, call=call, same=same,
                         describe=describe, variants=CHOICE_VARIANTS, quiet=True,
                         passed_message=f"your choice equals ThompsonSampling.select on {len(cases)} generated cases "
                                        "(2-4 arms, overlapping posteriors, seeded generators).")
    if (not result.passed and len(seen) == len(cases) and not any(drew for _, drew in seen.values())
            and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v, _ in seen.values())
            and matching_variant([Outcome(seen[c][0]) for c in cases], cases, CHOICE_VARIANTS, call, same) is None):
        case = next(c for c in cases if not agrees(same, seen[c][0], call(reference_thompson_choice, c)))
        difference = describe(case, seen[case][0], call(reference_thompson_choice, case))
        result = CheckResult("thompson_choice", False, f"{difference}: {OTHER_GENERATOR}")
    return report(result, quiet)


# ---------------------------------------------------------------- cumulative regret
def reference_cumulative_regret(rewards: Sequence[Sequence[float]], chosen: Sequence[int]) -> list[float]:
    """Running total of (reward of the best fixed arm in hindsight) - (reward of the arm played), per query.

    ``rewards[t][i]`` is arm i's true reward on query t (every arm's outcome is known in a replay); the best
    fixed arm has the highest total over all queries (ties: the arm listed first, as ``np.argmax``).

    >>> reference_cumulative_regret([[1, 0], [0, 1], [1, 0]], [1, 1, 0])  # arm 0 is best; query 2 wins back 1
    [1.0, 0.0, 0.0]
    """
    table = np.asarray(rewards, dtype=np.float64)
    best = int(np.argmax(table.sum(axis=0)))
    played = table[np.arange(len(chosen)), np.asarray(chosen, dtype=np.int64)]
    return [float(v) for v in np.cumsum(table[:, best] - played)]


@dataclass(frozen=True)
class RegretCase:
    rewards: tuple[tuple[float, ...], ...]
    chosen: tuple[int, ...]

    def label(self) -> str:
        return f"rewards {[list(r) for r in self.rewards]} and chosen arms {list(self.chosen)}"


def regret_cases(seed: int, n: int = 30) -> list[RegretCase]:
    """Short replays: 2-4 arms, 0/1 and fractional rewards, some with two arms tied in hindsight."""
    rng = random.Random(seed)
    cases = [RegretCase(((1, 0), (0, 1), (1, 0)), (1, 1, 0)), RegretCase(((0, 1), (1, 0), (1, 1)), (0, 1, 0))]
    while len(cases) < n:
        arms, steps = rng.randint(2, 4), rng.randint(3, 8)
        fractional = rng.random() < 0.3
        rows = [tuple(round(rng.random(), 2) if fractional else float(rng.random() < 0.5) for _ in range(arms))
                for _ in range(steps)]
        if rng.random() < 0.3:  # two arms tied in hindsight: the first listed is the best
            rows = [(r[1],) + r[1:] for r in rows]
        cases.append(RegretCase(tuple(rows), tuple(rng.randrange(arms) for _ in range(steps))))
    return cases


def _regret_against(pick_best: Callable[[np.ndarray], Any], cumulative: bool = True, sign: float = 1.0) -> Callable[..., list[float]]:
    def regret(rewards: Sequence[Sequence[float]], chosen: Sequence[int]) -> list[float]:
        table = np.asarray(rewards, dtype=np.float64)
        best = pick_best(table)
        reference = table.max(axis=1) if isinstance(best, str) else table[:, best]
        steps = sign * (reference - table[np.arange(len(chosen)), np.asarray(chosen)])
        return [float(v) for v in (np.cumsum(steps) if cumulative else steps)]

    return regret


REGRET_VARIANTS = [
    Variant(_regret_against(lambda t: int(np.argmax(t.sum(axis=0))), cumulative=False),
            "you return each query's regret on its own; return the running total (cumulative regret)"),
    Variant(_regret_against(lambda t: "oracle"),
            "you compare with the best arm of each query (the oracle); regret here is against the one best "
            "fixed arm in hindsight (highest total reward)"),
    Variant(_regret_against(lambda t: int(np.argmax(t.sum(axis=0))), sign=-1.0),
            "the sign is flipped: regret is best arm minus played arm (positive when you did worse)"),
    Variant(_regret_against(lambda t: len(t[0]) - 1 - int(np.argmax(t.sum(axis=0)[::-1]))),
            "when two arms tie in hindsight you take the last; take the first listed (as np.argmax does)"),
    Variant(_regret_against(lambda t: int(np.argmax(t[0]))),
            "you pick the best arm from the first query only; the best fixed arm has the highest total over all queries"),
]


def check_cumulative_regret(fn: Callable[[Sequence[Sequence[float]], Sequence[int]], Sequence[float]], seed: int = 0,
                            quiet: bool = False) -> CheckResult:
    """Check ``fn(rewards, chosen) -> cumulative regret per query`` against the replay benchmark's definition."""
    cases = regret_cases(seed)

    def call(f: Callable[..., Any], case: RegretCase) -> Any:
        return f([list(r) for r in case.rewards], list(case.chosen))

    def same(got: Any, expected: list[float]) -> bool:
        try:
            values = [float(v) for v in got]
        except (TypeError, ValueError):
            return False
        return close(values, expected, 1e-6)

    def describe(case: RegretCase, got: Any, expected: list[float]) -> str:
        try:
            shown = [round(float(v), 4) for v in got]
        except (TypeError, ValueError):
            return f"for {case.label()} you return {short(got)}; return one number per query"
        return (f"for {case.label()} you return {short(shown)}; the reference (the replay benchmark's "
                f"definition) gives {short([round(v, 4) for v in expected])}")

    return run_checker("cumulative_regret", fn, cases, reference_cumulative_regret, call=call, same=same,
                       describe=describe, variants=REGRET_VARIANTS, quiet=quiet,
                       passed_message=f"your regret equals the replay benchmark's on {len(cases)} generated replays "
                                      "(2-4 arms, 0/1 and fractional rewards, ties in hindsight).")


# ---------------------------------------------------------------- the bandit inside the pipeline
def _round_without(drop: tuple[tuple[str, str], ...] = (), routers: tuple[str, ...] = (),
                   add: tuple[tuple[str, str], ...] = ()) -> Callable[[], Any]:
    return lambda: rewired(advanced_rag_graph(load_handbook()), drop=drop, routers=routers, add=add)


ROUND = (("query_transform", "retrieve"), ("retrieve", "rerank"), ("rerank", "grade"))
WIRING_VARIANTS = [
    Variant(_round_without(drop=ROUND, routers=("grade",)),
            "the bandit's round is not wired yet: query_transform -> retrieve (the bandit picks an arm) -> rerank -> "
            "grade (the bandit learns the reward), then add_conditional_edges('grade', route_after_grade), as "
            "ragkit's builder does"),
    Variant(_round_without(routers=("grade",), add=(("grade", "generate"),)),
            "a fixed edge grade -> generate gives every question one pull: ragkit's builder lets route_after_grade "
            "send a search that found nothing relevant back to query_transform, and the bandit picks (and learns) "
            "once more"),
    Variant(_round_without(drop=(("retrieve", "rerank"), ("rerank", "grade")), add=(("retrieve", "grade"),)),
            "retrieve -> grade skips rerank, and grade grades the reranker's top documents: with nothing reranked, "
            "every reward is 0 and the bandit learns nothing (ragkit's builder puts rerank in between)"),
]


def check_bandit_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the advanced pipeline, whose ``retrieve`` and ``grade`` share one bandit, as
    ``ragkit.graphs.advanced_rag.advanced_rag_graph`` does (the same nodes and edges)."""
    return check_wiring(build, advanced_rag_graph(load_handbook()), "bandit_wiring", quiet, WIRING_VARIANTS)
