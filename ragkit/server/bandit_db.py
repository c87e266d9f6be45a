"""One retrieval bandit for every worker and replica: its counts live in the server's database.

A context-free policy (Thompson sampling, epsilon-greedy, UCB1) learns two numbers per arm: how often it was
played and the sum of its rewards. :class:`DatabaseBandit` keeps them in the table ``ragkit_bandit_arms`` of
the database the checkpoints use (:mod:`ragkit.server.database`) and changes them with one statement per
update, which the database applies atomically::

    INSERT INTO ragkit_bandit_arms (bandit, arm, pulls, reward_sum) VALUES (?, ?, 1, ?)
    ON CONFLICT (bandit, arm) DO UPDATE SET pulls = ragkit_bandit_arms.pulls + 1,
                                            reward_sum = ragkit_bandit_arms.reward_sum + excluded.reward_sum

So four processes making 250 updates each record exactly 1,000 pulls, where a JSON file per process
(:mod:`ragkit.bandit.store`) keeps only what the last one to save had seen. ``select`` reads the current
counts into the policy (``Policy.set_counts``) and lets it choose; ``stats`` does the same for ``/metrics``.

>>> import tempfile
>>> from ragkit.bandit import ThompsonSampling
>>> from ragkit.server.database import StateDatabase
>>> db = StateDatabase(None, Path(tempfile.mkdtemp()))
>>> one, two = (DatabaseBandit(ThompsonSampling(["bm25", "dense"]), db, "demo") for _ in range(2))
>>> one.update("bm25", 0.75); two.update("bm25", 0.5)
>>> one.stats()["arms"]["bm25"]["pulls"], one.stats()["arms"]["bm25"]["alpha"]
(2, 2.25)

The JSON file stays the notebook-level persistence. A server that finds ``advanced_bandit.json`` in its state
folder (written by ragkit before the counts moved into the database) imports it once, when the rows are first
created; after that the file is not read again. Simplifications: each process draws from its own random
generator, all seeded alike; a contextual policy (LinUCB) learns matrices, not counts, and is refused;
``select`` reads the counts on every call (one small query).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragkit.bandit import BanditStateError, Policy, SharedBandit, check_reward
from ragkit.server.database import StateDatabase

TABLE = """CREATE TABLE IF NOT EXISTS ragkit_bandit_arms (
    bandit TEXT NOT NULL, arm TEXT NOT NULL, pulls BIGINT NOT NULL, reward_sum DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (bandit, arm))"""
CREATE_ARM = ("INSERT INTO ragkit_bandit_arms (bandit, arm, pulls, reward_sum) VALUES (?, ?, ?, ?) "
              "ON CONFLICT (bandit, arm) DO NOTHING")
ADD_REWARD = ("INSERT INTO ragkit_bandit_arms (bandit, arm, pulls, reward_sum) VALUES (?, ?, 1, ?) "
              "ON CONFLICT (bandit, arm) DO UPDATE SET pulls = ragkit_bandit_arms.pulls + 1, "
              "reward_sum = ragkit_bandit_arms.reward_sum + excluded.reward_sum")
READ_ARMS = "SELECT arm, pulls, reward_sum FROM ragkit_bandit_arms WHERE bandit = ?"


class DatabaseBandit(SharedBandit):
    """A context-free ``policy`` whose counts are rows of bandit ``name`` in ``database``.

    ``start`` (a policy of the same arms, e.g. loaded from an old JSON file) gives the counts the rows start
    from when they do not exist yet; rows that exist are never overwritten.
    """

    def __init__(self, policy: Policy, database: StateDatabase, name: str, start: Policy | None = None):
        if not policy.counts_only:
            raise TypeError(f"a {type(policy).__name__} learns more than per-arm counts; a database bandit needs "
                            "ThompsonSampling, EpsilonGreedy or UCB1")
        if start is not None and list(start.arms) != list(policy.arms):
            raise ValueError(f"start has arms {list(start.arms)}, expected {list(policy.arms)}")
        super().__init__(policy)
        self.database, self.name = database, name
        database.setup([TABLE])
        for i, arm in enumerate(policy.arms):
            pulls, total = (int(start.pulls[i]), float(start.reward_sum[i])) if start is not None else (0, 0.0)
            database.execute(CREATE_ARM, (name, arm, pulls, total))

    def _refresh(self) -> None:
        """Read the shared counts into the policy (called with the lock held)."""
        rows = {arm: (pulls, total) for arm, pulls, total in self.database.execute(READ_ARMS, (self.name,))}
        counts = [rows.get(arm, (0, 0.0)) for arm in self.policy.arms]
        self.policy.set_counts([int(p) for p, _ in counts], [float(t) for _, t in counts])

    def select(self, context: Any = None) -> str:
        with self._lock:
            self._refresh()
            return self.policy.select(context)

    def update(self, arm: str, reward: float, context: Any = None) -> None:
        """Add one pull and ``reward`` to ``arm``'s row in one statement (BanditStateError if the database fails)."""
        self.policy.index(arm)  # ValueError naming the known arms
        value = check_reward(reward)
        try:
            self.database.execute(ADD_REWARD, (self.name, arm, value))
        except self.database.errors() as err:
            raise BanditStateError(self.database.label, f"the update of arm {arm!r} was not saved: {err}") from err

    def stats(self, **kwargs: Any) -> dict[str, Any]:
        with self._lock:
            self._refresh()
            return self.policy.stats(**kwargs)

    def save(self, path: str | Path | None = None) -> Path:
        """Export the shared counts to a JSON state file (``ragkit.bandit.load`` reads it in a notebook)."""
        if path is None:
            raise ValueError("a database bandit is saved on every update; give a path to export it to JSON")
        with self._lock:
            self._refresh()
            return self._save(path)


__all__ = ["DatabaseBandit"]
