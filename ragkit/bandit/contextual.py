"""Contextual bandits: the best arm depends on features of the query known before retrieval.

Both policies here keep one ridge regression per arm ("disjoint" models, Li et al. 2010): for arm a,
``A_a = l2 * I + sum x x^T`` and ``b_a = sum r x`` over the rounds it was played, so the estimated reward
of playing a on context x is ``x . theta_a`` with ``theta_a = A_a^-1 b_a``.

- ``LinUCB`` plays the arm with the largest ``x . theta_a + alpha * sqrt(x^T A_a^-1 x)``: the estimate plus
  a bonus that is large where the arm has seen few similar contexts.
- ``LinearThompsonSampling`` draws ``theta ~ Normal(theta_a, alpha^2 A_a^-1)`` per arm and plays the
  largest ``x . theta`` (Agrawal and Goyal 2013, with ``alpha`` as the posterior scale).

What they simplify: the reward is assumed linear in the features (feature crosses must be added by
hand), arms share nothing (a lesson learned for one arm does not transfer), and the features should be
on comparable scales, since one ``l2`` penalises every coefficient alike. A bias feature (a constant 1)
is what lets an arm have a base rate; without it the model is forced through zero. Estimates start at 0
(the ridge prior), so an arm never played has the bound ``alpha * |x| / sqrt(l2)``: with ``alpha`` well
below the reward scale, LinUCB may never try an arm that started behind (it is then nearly greedy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ragkit.bandit.base import Policy, Seed


def check_context(context: Any, n_features: int, who: str = "this policy") -> np.ndarray:
    """The context as a float vector of length ``n_features``; a ValueError saying what to pass otherwise.

    >>> check_context([1, 0.5], 2).tolist()
    [1.0, 0.5]
    """
    hint = f"{who} needs a context: a vector of {n_features} finite floats, e.g. ragkit.bandit.query_features(query, idf)"
    if context is None:
        raise ValueError(f"{hint}; got None")
    try:
        x = np.asarray(context, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{hint}; got {type(context).__name__} {context!r}") from None
    if x.shape != (n_features,):
        raise ValueError(f"{hint}; got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError(f"{hint}; got non-finite values {x.tolist()}")
    return x


class _LinearArms(Policy):
    """Shared ridge bookkeeping for LinUCB and linear Thompson sampling."""

    def __init__(self, arms: Sequence[str], seed: Seed = 0, n_features: int = 1, alpha: float = 1.0,
                 l2: float = 1.0, feature_names: Sequence[str] | None = None):
        super().__init__(arms, seed)
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise ValueError(f"n_features must be a positive int (the length of the context vector), got {n_features!r}")
        for name, value, low in (("alpha", alpha, 0.0), ("l2", l2, 0.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value) or value < low:
                raise ValueError(f"{name} must be a finite number >= {low}, got {value!r}")
        if l2 == 0:
            raise ValueError("l2 must be > 0: the ridge penalty keeps A invertible before any update")
        names = list(feature_names) if feature_names is not None else [f"x{j}" for j in range(n_features)]
        if len(names) != n_features:
            raise ValueError(f"{len(names)} feature_names for n_features={n_features}: give one name per feature")
        self.n_features, self.alpha, self.l2, self.feature_names = n_features, float(alpha), float(l2), names
        self.A = np.stack([self.l2 * np.eye(n_features)] * len(self.arms))
        self.b = np.zeros((len(self.arms), n_features))
        self._refresh()

    def _refresh(self, i: int | None = None) -> None:
        """Recompute ``A^-1`` and ``theta`` for arm ``i`` (or every arm, one by one, so a reload is bit-identical)."""
        if i is None:
            self.A_inv, self.theta = np.empty_like(self.A), np.empty_like(self.b)
            for j in range(len(self.arms)):
                self._refresh(j)
            return
        self.A_inv[i] = np.linalg.inv(self.A[i])
        self.theta[i] = self.A_inv[i] @ self.b[i]

    def context(self, context: Any) -> np.ndarray:
        return check_context(context, self.n_features, type(self).__name__)

    def estimates(self, context: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per arm: the ridge estimate ``x . theta`` and the width ``sqrt(x^T A^-1 x)``."""
        x = self.context(context)
        width = np.sqrt(np.maximum((self.A_inv @ x) @ x, 0.0))
        return self.theta @ x, width

    def _learn(self, i: int, reward: float, context: Any) -> None:
        x = self.context(context)
        self.A[i] += np.outer(x, x)
        self.b[i] += reward * x
        self._refresh(i)

    def params(self) -> dict[str, Any]:
        return {"n_features": self.n_features, "alpha": self.alpha, "l2": self.l2, "feature_names": self.feature_names}

    def state(self) -> dict[str, Any]:
        return {**super().state(), "A": self.A.tolist(), "b": self.b.tolist()}

    def set_state(self, state: dict[str, Any]) -> None:
        super().set_state(state)
        k, d = len(self.arms), self.n_features
        A, b = np.asarray(state["A"], dtype=np.float64), np.asarray(state["b"], dtype=np.float64)
        if A.shape != (k, d, d) or b.shape != (k, d) or not (np.isfinite(A).all() and np.isfinite(b).all()):
            raise ValueError(f"state fields 'A' and 'b' must be finite with shapes ({k}, {d}, {d}) and ({k}, {d})")
        self.A, self.b = A, b
        self._refresh()

    def stats(self, context: Any = None) -> dict[str, Any]:
        """Per arm pulls, mean reward and ridge coefficients; with a ``context``, also estimate and bound."""
        summary = super().stats()
        if context is not None:
            estimate, width = self.estimates(context)
        for i, arm in enumerate(self.arms):
            summary["arms"][arm]["coefficients"] = dict(zip(self.feature_names, map(float, self.theta[i])))
            if context is not None:
                summary["arms"][arm].update(estimate=float(estimate[i]), bound=float(estimate[i] + self.alpha * width[i]))
        return summary


class LinUCB(_LinearArms):
    """Disjoint LinUCB: play the arm with the highest ``x . theta_a + alpha * sqrt(x^T A_a^-1 x)``.

    >>> bandit = LinUCB(["bm25", "dense"], n_features=2, alpha=0.0)
    >>> for _ in range(5): bandit.update("bm25", 1.0, [1, 0]); bandit.update("dense", 1.0, [0, 1])
    >>> bandit.select([1, 0]), bandit.select([0, 1])
    ('bm25', 'dense')
    """

    kind = "linucb"

    def select(self, context: Any = None) -> str:
        estimate, width = self.estimates(context)
        return self.arms[int(np.argmax(estimate + self.alpha * width))]


class LinearThompsonSampling(_LinearArms):
    """Linear Thompson sampling: draw ``theta ~ N(theta_a, alpha^2 A_a^-1)`` per arm, play the best ``x . theta``."""

    kind = "linear_thompson_sampling"

    def select(self, context: Any = None) -> str:
        x = self.context(context)
        samples = [self.rng.multivariate_normal(self.theta[i], self.alpha**2 * self.A_inv[i], method="cholesky")
                   for i in range(len(self.arms))]
        return self.arms[int(np.argmax([s @ x for s in samples]))]
