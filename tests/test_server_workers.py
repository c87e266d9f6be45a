"""Several processes, one bandit: 4 processes x 250 updates leave exactly 1,000 pulls (and the exact reward sum)
in SQLite and in a real PostgreSQL (when ``RAGKIT_TEST_POSTGRES_URL`` is set; ``.ci/run`` sets it)."""

from __future__ import annotations

import os
import random
import uuid

import pytest

from tests.server_fixtures import bandit_opener, updates_from_processes

POSTGRES_URL = os.environ.get("RAGKIT_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES_URL, reason="no PostgreSQL configured: set RAGKIT_TEST_POSTGRES_URL (CI does)"))]
REWARDS = (0.0, 0.25, 0.5, 0.75, 1.0)  # what tests.server_fixtures._update draws from, seeded by process number


@pytest.mark.parametrize("backend", BACKENDS)
def test_four_processes_making_250_updates_each_leave_1000_pulls(backend, tmp_path):
    location = POSTGRES_URL if backend == "postgres" else str(tmp_path)
    opener = bandit_opener(backend, location, name=f"test-{uuid.uuid4().hex[:12]}")
    updates_from_processes(opener, processes=4, updates=250)
    stats = opener().stats()
    assert stats["total_pulls"] == 1_000
    streams = [random.Random(seed) for seed in range(4)]
    expected = sum(rng.choice(REWARDS) for rng in streams for _ in range(250))
    rewards = sum((s["alpha"] - 1.0) for s in stats["arms"].values())  # alpha = 1 + the arm's reward sum
    assert rewards == pytest.approx(expected, abs=1e-9)


def test_an_old_json_bandit_file_is_imported_once(tmp_path):
    from ragkit.bandit import ThompsonSampling, save
    from ragkit.graphs.advanced_rag import ARMS
    from ragkit.server.database import StateDatabase
    from ragkit.server.registry import advanced_bandit

    old = ThompsonSampling(list(ARMS), seed=0)
    for arm, reward in [(ARMS[0], 1.0), (ARMS[0], 0.5), (ARMS[1], 0.0)]:
        old.update(arm, reward)
    save(old, tmp_path / "advanced_bandit.json")
    database = StateDatabase(None, tmp_path)
    first = advanced_bandit(database, tmp_path)
    assert first.stats()["arms"] == old.stats()["arms"]
    first.update(ARMS[1], 1.0)
    again = advanced_bandit(database, tmp_path)  # a restart: the rows exist, the file is not read again
    assert again.stats()["total_pulls"] == 4 and again.stats()["arms"][ARMS[1]]["pulls"] == 2


def test_a_contextual_policy_cannot_live_in_the_database(tmp_path):
    from ragkit.bandit import LinUCB
    from ragkit.server.bandit_db import DatabaseBandit
    from ragkit.server.database import StateDatabase

    with pytest.raises(TypeError, match="learns more than per-arm counts"):
        DatabaseBandit(LinUCB(["bm25", "dense"], n_features=2), StateDatabase(None, tmp_path), "contextual")
