"""The bandit contract: a policy picks one arm per round and learns from a reward in [0, 1].

A *policy* holds a fixed list of named arms (for ragkit, retrieval strategies such as ``"dense"``,
``"bm25"``, ``"hybrid"``). Each round the caller asks ``select(context)`` for an arm, runs it, measures a
reward (the grader's relevant share of the top documents, say) and calls ``update(arm, reward, context)``.
``stats()`` returns a JSON-ready summary for monitoring, and ``to_dict`` / ``from_dict`` carry the whole
state (including the random generator's) so ``ragkit.bandit.store`` can save and reload it.

``Policy`` is an abstract base class rather than a bare Protocol because every policy shares the same
checks (arm names, rewards, seeds) and the same pull counters; a subclass writes only its decision rule.
This module holds that contract and the policy the advanced pipeline plays, :class:`ThompsonSampling`;
the classic policies it is compared with are in ``ragkit.bandit.baselines``, the contextual ones in
``ragkit.bandit.contextual``.

Simplifications: rewards are bounded in [0, 1] (the Beta posterior of Thompson sampling and the analysis
of UCB1 in ``ragkit.bandit.baselines`` both rely on it), arms are fixed at construction, and a policy
object is not thread-safe on its own: share one between threads through ``ragkit.bandit.store.SharedBandit``.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

Seed = int | random.Random | np.random.Generator
BIT_GENERATORS = frozenset({"PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"})


def make_rng(seed: Seed) -> np.random.Generator:
    """A numpy Generator from an int, a ``random.Random`` (one 64-bit draw from it) or a Generator (kept).

    >>> float(make_rng(7).random()) == float(np.random.default_rng(7).random())
    True
    >>> make_rng(random.Random(1)).random() == make_rng(random.Random(1)).random()
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, random.Random):
        return np.random.default_rng(seed.getrandbits(64))
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return np.random.default_rng(int(seed))
    raise TypeError(f"seed must be an int, a random.Random or a numpy Generator, got {type(seed).__name__}")


def check_arms(arms: Sequence[str]) -> tuple[str, ...]:
    """The arm names as a tuple; reject an empty list, non-strings and duplicates.

    >>> check_arms(["dense", "bm25"])
    ('dense', 'bm25')
    """
    if isinstance(arms, str):
        raise ValueError(f"arms must be a list of names, got the single string {arms!r}: pass [{arms!r}]")
    arms = tuple(arms)
    if not arms:
        raise ValueError("arms is empty: pass at least one arm name, e.g. ['dense', 'bm25', 'hybrid']")
    for arm in arms:
        if not isinstance(arm, str) or not arm:
            raise ValueError(f"every arm must be a non-empty string, got {arm!r}")
    duplicates = sorted({a for a in arms if arms.count(a) > 1})
    if duplicates:
        raise ValueError(f"arm names must be unique; repeated: {duplicates}")
    return arms


def check_reward(reward: float) -> float:
    """The reward as a float; reject NaN, infinities and anything outside [0, 1].

    >>> check_reward(0.75)
    0.75
    """
    if isinstance(reward, bool) or not isinstance(reward, (int, float, np.integer, np.floating)):
        raise ValueError(f"reward must be a number in [0, 1], got {type(reward).__name__} {reward!r}")
    value = float(reward)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"reward must be a finite number in [0, 1] (e.g. the share of relevant documents), got {reward!r}")
    return value


class Policy(ABC):
    """Base class: arm bookkeeping, checks and persistence; subclasses implement ``select`` and ``_learn``."""

    kind: str = "policy"  # a stable name written into saved state files
    contextual: bool = False  # True for a policy that chooses from query features (``select(context)``)

    def __init__(self, arms: Sequence[str], seed: Seed = 0):
        self.arms = check_arms(arms)
        self.rng = make_rng(seed)
        self.pulls = np.zeros(len(self.arms), dtype=np.int64)
        self.reward_sum = np.zeros(len(self.arms), dtype=np.float64)

    def index(self, arm: str) -> int:
        """Position of ``arm`` in ``self.arms``; a ValueError listing the known arms otherwise."""
        try:
            return self.arms.index(arm)
        except ValueError:
            raise ValueError(f"unknown arm {arm!r}: this bandit's arms are {list(self.arms)}") from None

    @abstractmethod
    def select(self, context: Any = None) -> str:
        """The arm to play this round. Context-free policies accept a context and ignore it, so a caller
        (a graph node, a server) can always pass one."""

    def update(self, arm: str, reward: float, context: Any = None) -> None:
        """Record ``reward`` (in [0, 1]) for playing ``arm``."""
        i, value = self.index(arm), check_reward(reward)
        self._learn(i, value, context)
        self.pulls[i] += 1
        self.reward_sum[i] += value

    @abstractmethod
    def _learn(self, i: int, reward: float, context: Any) -> None:
        """Policy-specific update for arm number ``i`` (inputs already checked)."""

    def means(self) -> np.ndarray:
        """Mean observed reward per arm (NaN for an arm never pulled)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.pulls > 0, self.reward_sum / np.maximum(self.pulls, 1), np.nan)

    def stats(self) -> dict[str, Any]:
        """JSON-ready monitoring summary: per arm pulls and mean reward, plus the policy's own numbers."""
        arms = {}
        for i, arm in enumerate(self.arms):
            mean = float(self.reward_sum[i] / self.pulls[i]) if self.pulls[i] else None
            arms[arm] = {"pulls": int(self.pulls[i]), "mean_reward": mean, **self._arm_stats(i)}
        return {"policy": self.kind, "params": self.params(), "total_pulls": int(self.pulls.sum()), "arms": arms}

    def _arm_stats(self, i: int) -> dict[str, Any]:
        return {}

    # ------------------------------------------------------------ persistence
    def params(self) -> dict[str, Any]:
        """Constructor keywords other than ``arms`` and ``seed`` (JSON-ready)."""
        return {}

    def state(self) -> dict[str, Any]:
        """Learned numbers (JSON-ready); subclasses add their own to the counters."""
        return {"pulls": self.pulls.tolist(), "reward_sum": self.reward_sum.tolist()}

    def set_state(self, state: dict[str, Any]) -> None:
        self.pulls = _vector(state, "pulls", len(self.arms), np.int64)
        self.reward_sum = _vector(state, "reward_sum", len(self.arms), np.float64)

    counts_only: bool = False  # True: per-arm pulls and reward sums are all the policy learns

    def set_counts(self, pulls: Sequence[int], reward_sum: Sequence[float]) -> None:
        """Set what was learned from per-arm pulls and reward sums alone (all a database row keeps, so many
        processes can share one bandit). A policy that learns more (the contextual ones) raises TypeError."""
        if not self.counts_only:
            raise TypeError(f"{type(self).__name__} learns more than per-arm counts, so it cannot be set from them")
        self.pulls = _vector({"pulls": pulls}, "pulls", len(self.arms), np.int64)
        self.reward_sum = _vector({"reward_sum": reward_sum}, "reward_sum", len(self.arms), np.float64)

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this policy exactly, random generator included."""
        return {"kind": self.kind, "arms": list(self.arms), "params": self.params(), "state": self.state(),
                "rng": self.rng.bit_generator.state}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Policy:
        """Rebuild a policy saved by ``to_dict`` (KeyError/ValueError/TypeError on malformed data)."""
        policy = cls(data["arms"], seed=0, **data["params"])
        policy.set_state(data["state"])
        name = data["rng"]["bit_generator"]
        if name not in BIT_GENERATORS:
            raise ValueError(f"unknown random bit generator {name!r} (known: {sorted(BIT_GENERATORS)})")
        bit_generator = getattr(np.random, name)()
        bit_generator.state = data["rng"]
        policy.rng = np.random.Generator(bit_generator)
        return policy

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}(arms={list(self.arms)}{', ' if params else ''}{params})"


def _vector(state: dict[str, Any], key: str, length: int, dtype: type) -> np.ndarray:
    """``state[key]`` as a 1-d array of ``length`` values (ValueError naming the key otherwise)."""
    value = np.asarray(state[key], dtype=dtype)
    if value.shape != (length,):
        raise ValueError(f"state field {key!r} has shape {value.shape}, expected ({length},)")
    return value


class ThompsonSampling(Policy):
    """Beta-Bernoulli Thompson sampling with fractional rewards and a Beta(1, 1) prior.

    Each arm has a Beta(alpha, beta) belief about its success rate; a reward r adds r to alpha and 1 - r to
    beta, and each round one sample is drawn per arm and the largest plays. What it cannot do: every arm
    has one fixed reward rate (no drift, no dependence on the query: ``ragkit.bandit.contextual``), and the
    posterior is exact only for 0/1 rewards: with fractional ones it centres on the mean reward but is
    over-confident about how spread out the rewards are.

    >>> ts = ThompsonSampling(["dense", "bm25"], seed=0)
    >>> ts.update("bm25", 0.75); ts.update("bm25", 0.5)
    >>> ts.stats()["arms"]["bm25"]["alpha"], ts.stats()["arms"]["bm25"]["beta"]
    (2.25, 1.75)
    """

    kind = "thompson_sampling"
    counts_only = True  # alpha = 1 + reward sum, beta = 1 + pulls - reward sum

    def __init__(self, arms: Sequence[str], seed: Seed = 0):
        super().__init__(arms, seed)
        self.alpha = np.ones(len(self.arms))
        self.beta = np.ones(len(self.arms))

    def set_counts(self, pulls: Sequence[int], reward_sum: Sequence[float]) -> None:
        """The Beta posteriors that these counts give from the Beta(1, 1) prior.

        >>> ts = ThompsonSampling(["dense", "bm25"]); ts.set_counts([0, 2], [0.0, 1.25])
        >>> ts.stats()["arms"]["bm25"]["alpha"], ts.stats()["arms"]["bm25"]["beta"]
        (2.25, 1.75)
        """
        super().set_counts(pulls, reward_sum)
        self.alpha = 1.0 + self.reward_sum
        self.beta = 1.0 + self.pulls - self.reward_sum

    def select(self, context: Any = None) -> str:
        """Draw one sample per arm from its Beta posterior and play the largest (``context`` is ignored)."""
        return self.arms[int(np.argmax(self.rng.beta(self.alpha, self.beta)))]

    def _learn(self, i: int, reward: float, context: Any) -> None:
        self.alpha[i] += reward
        self.beta[i] += 1.0 - reward

    def _arm_stats(self, i: int) -> dict[str, Any]:
        a, b = float(self.alpha[i]), float(self.beta[i])
        sd = (a * b / ((a + b) ** 2 * (a + b + 1))) ** 0.5
        return {"alpha": a, "beta": b, "posterior_mean": a / (a + b), "posterior_sd": sd}

    def state(self) -> dict[str, Any]:
        return {**super().state(), "alpha": self.alpha.tolist(), "beta": self.beta.tolist()}

    def set_state(self, state: dict[str, Any]) -> None:
        super().set_state(state)
        alpha, beta = (_vector(state, key, len(self.arms), np.float64) for key in ("alpha", "beta"))
        if not (np.all(alpha > 0) and np.all(beta > 0) and np.isfinite(alpha).all() and np.isfinite(beta).all()):
            raise ValueError("state fields 'alpha' and 'beta' must be finite and > 0 (they are Beta parameters)")
        self.alpha, self.beta = alpha, beta


class BanditStateError(ValueError):
    """A state file that cannot be used; the message names the file and the problem."""

    def __init__(self, path: str | Path, problem: str):
        self.path = Path(path)
        super().__init__(f"bandit state file {self.path}: {problem}")
