"""One server, several processes: the bandit, the thread owners and the metrics are shared, nothing is lost.

- 4 processes x 250 bandit updates leave exactly 1,000 pulls (and the exact reward sum) in SQLite and in a real
  PostgreSQL (when ``RAGKIT_TEST_POSTGRES_URL`` is set; ``.ci/run`` sets it);
- ``ragkit serve --workers 2``: runs served by both workers are all counted by ``/metrics`` (JSON and
  Prometheus) whichever worker answers, and the bandit's pulls are the advanced pipeline's searches.
"""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.server_fixtures import BACKENDS, POSTGRES_URL, Server, bandit_opener, updates_from_processes

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


def test_serve_refuses_zero_workers():
    from ragkit.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--workers", "0"])
    assert stopped.value.code == 2


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    state_dir = tmp_path_factory.mktemp("two-workers")
    srv = Server(state_dir, workers=2)
    yield state_dir, srv
    srv.stop()


def worker_pids(state_dir) -> set[str]:
    """The processes that have recorded metrics (prometheus-client names its files ``<kind>_<pid>.db``)."""
    return {path.stem.rsplit("_", 1)[-1] for path in state_dir.glob("metrics-*/*.db")}


def test_two_workers_count_every_run_and_share_one_bandit(two_workers):
    state_dir, srv = two_workers

    def run(job: tuple[str, str]) -> dict:
        graph, question = job  # a new connection each time, so the kernel hands requests to either worker
        reply = httpx.post(f"{srv.url}/graphs/{graph}/invoke", json={"question": question}, timeout=300)
        assert reply.status_code == 200, reply.text
        return reply.json()

    sent = []
    with ThreadPoolExecutor(8) as pool:
        for _ in range(25):  # the gate graph ends at once when its file exists; stop once both workers ran some
            sent += list(pool.map(run, [("gate", "/")] * 8))
            if len(worker_pids(state_dir)) == 2:
                break
        assert len(worker_pids(state_dir)) == 2, "every run went to one worker"
        questions = ["What does the BM25 parameter k1 control?", "What is maximal marginal relevance?",
                     "How does HyDE build its query?", "What does a checkpointer give a LangGraph graph?"] * 2
        advanced = list(pool.map(run, [("advanced_rag", q) for q in questions]))
    searches = sum(len(out["state"]["arms_used"]) for out in advanced)  # one bandit update per search
    views = [httpx.get(f"{srv.url}/metrics", timeout=60).json() for _ in range(6)]
    assert all(view == views[0] for view in views)  # whichever worker answers
    assert views[0]["queries"] == {"advanced_rag": len(advanced), "gate": len(sent)}
    assert views[0]["bandit"]["total_pulls"] == searches >= len(advanced)
    assert views[0]["node_latency_seconds"]["advanced_rag/grade"]["count"] == searches
    text = httpx.get(f"{srv.url}/metrics/prometheus", timeout=60).text
    assert f'ragkit_queries_total{{graph="gate"}} {float(len(sent))}' in text
    assert f'ragkit_bandit_pulls{{arm="{advanced[0]["state"]["arm"]}"}}' in text
