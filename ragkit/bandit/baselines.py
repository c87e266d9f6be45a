"""The classic policies Thompson sampling is compared with: epsilon-greedy and UCB1.

Both keep only what the :class:`~ragkit.bandit.policies.Policy` base class counts (pulls and reward sums
per arm) and differ in how they explore:

- ``EpsilonGreedy`` plays the arm with the best mean so far, except with probability ``epsilon`` a
  uniformly random arm. Untried arms are tried first; ties go to the arm listed first.
- ``UCB1`` (Auer, Cesa-Bianchi and Fischer 2002) plays each arm once, then the arm maximising
  ``mean + c * sqrt(2 ln t / n)`` (t rounds so far, n pulls of that arm; c = 1 is the textbook rule).

Notebook 09 and ``benchmarks/bandit`` run them next to :class:`~ragkit.bandit.policies.ThompsonSampling`;
no graph uses them. What they simplify: like Thompson sampling here, each arm is assumed to have one fixed
reward rate (no drift, no dependence on the query; see ``ragkit.bandit.contextual`` for that).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ragkit.bandit.policies import Policy, Seed


def first_unpulled(pulls: np.ndarray) -> int | None:
    """Index of the first arm never pulled, or None.

    >>> first_unpulled(np.array([3, 0, 0])), first_unpulled(np.array([1, 2]))
    (1, None)
    """
    unpulled = np.flatnonzero(pulls == 0)
    return int(unpulled[0]) if len(unpulled) else None


class EpsilonGreedy(Policy):
    """Best mean so far, or with probability ``epsilon`` a random arm; untried arms are tried first.

    >>> eg = EpsilonGreedy(["a", "b"], epsilon=0.0)
    >>> eg.select()  # untried arms first, in order
    'a'
    >>> eg.update("a", 0.2); eg.update("b", 0.9); eg.select()
    'b'
    """

    kind = "epsilon_greedy"
    counts_only = True

    def __init__(self, arms: Sequence[str], seed: Seed = 0, epsilon: float = 0.1):
        super().__init__(arms, seed)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a number between 0 and 1 (the share of random pulls), got {epsilon!r}")
        self.epsilon = float(epsilon)

    def params(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon}

    def greedy(self) -> int:
        """The exploiting choice: first untried arm, else the best mean (ties: the arm listed first)."""
        untried = first_unpulled(self.pulls)
        return untried if untried is not None else int(np.argmax(self.reward_sum / self.pulls))

    def select(self, context: Any = None) -> str:
        explore = self.rng.random() < self.epsilon  # drawn every round, so the stream does not depend on state
        return self.arms[int(self.rng.integers(len(self.arms))) if explore else self.greedy()]

    def _learn(self, i: int, reward: float, context: Any) -> None:
        pass  # the base class keeps pulls and reward sums, which is all epsilon-greedy needs


class UCB1(Policy):
    """Optimism in the face of uncertainty: each arm once, then the highest ``mean + c sqrt(2 ln t / n)``.

    >>> ucb = UCB1(["a", "b"])
    >>> for arm, r in [("a", 1.0), ("b", 0.0)]: ucb.update(arm, r)
    >>> ucb.select(), round(float(ucb.bounds()[1]), 4)   # b: 0 + sqrt(2 ln 2 / 1)
    ('a', 1.1774)
    """

    kind = "ucb1"
    counts_only = True

    def __init__(self, arms: Sequence[str], seed: Seed = 0, c: float = 1.0):
        super().__init__(arms, seed)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not np.isfinite(c) or c < 0:
            raise ValueError(f"c (the exploration scale) must be a finite number >= 0, got {c!r}")
        self.c = float(c)

    def params(self) -> dict[str, Any]:
        return {"c": self.c}

    def bounds(self) -> np.ndarray:
        """Upper confidence bound per arm (``inf`` for an arm never pulled)."""
        t = max(int(self.pulls.sum()), 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            bonus = self.c * np.sqrt(2.0 * np.log(t) / self.pulls)
            return np.where(self.pulls > 0, self.reward_sum / np.maximum(self.pulls, 1) + bonus, np.inf)

    def select(self, context: Any = None) -> str:
        untried = first_unpulled(self.pulls)
        return self.arms[untried if untried is not None else int(np.argmax(self.bounds()))]

    def _learn(self, i: int, reward: float, context: Any) -> None:
        pass

    def _arm_stats(self, i: int) -> dict[str, Any]:
        bound = float(self.bounds()[i])
        estimate = float(self.reward_sum[i] / self.pulls[i]) if self.pulls[i] else None
        return {"estimate": estimate, "bound": bound if np.isfinite(bound) else None}
