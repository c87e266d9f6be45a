"""Graphs and helpers for the server tests: a real uvicorn process on a free local port.

``gate_specs`` adds a graph whose last node waits until the test creates a file, which proves that a stream's
first events reach the client while the graph is still running (no timing guesswork), and one that crashes.
``updates_from_processes`` makes several processes update one bandit at once (the tests and
``benchmarks/server/bandit_updates.py`` count what is left of their updates).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph

from ragkit.server.background import LocalServer
from ragkit.server.registry import GraphSpec, default_specs

ROOT = Path(__file__).resolve().parents[1]
# A real PostgreSQL for the tests that run on both databases (.ci/run starts one and sets this).
POSTGRES_URL = os.environ.get("RAGKIT_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES_URL, reason="no PostgreSQL configured: set RAGKIT_TEST_POSTGRES_URL (CI does)"))]


class GateState(TypedDict, total=False):
    question: str
    announced: bool
    released: bool


def build_gate_graph(checkpointer: Any, chat_model: Any = None) -> Any:
    """announce -> wait (until the file named by the question exists, at most 20 s) -> END."""

    def announce(state: GateState) -> dict:
        return {"announced": True}

    def wait(state: GateState) -> dict:
        path = Path(state["question"])
        for _ in range(400):
            if path.exists():
                return {"released": True}
            time.sleep(0.05)
        return {"released": False}

    graph = StateGraph(GateState)
    graph.add_node("announce", announce)
    graph.add_node("wait", wait)
    graph.add_edge(START, "announce")
    graph.add_edge("announce", "wait")
    graph.add_edge("wait", END)
    return graph.compile(checkpointer=checkpointer)


def build_boom_graph(checkpointer: Any, chat_model: Any = None) -> Any:
    """One node that raises a RuntimeError: what the server sends when a graph crashes."""

    def boom(state: GateState) -> dict:
        raise RuntimeError("the test graph failed on purpose")

    graph = StateGraph(GateState)
    graph.add_node("boom", boom)
    graph.add_edge(START, "boom")
    graph.add_edge("boom", END)
    return graph.compile(checkpointer=checkpointer)


def gate_specs(state_dir: Path | None = None, database: Any = None) -> dict[str, GraphSpec]:
    """ragkit's graphs plus the gate graph and the boom graph."""
    return {**default_specs(state_dir, database), "gate": GraphSpec("gate", "test graph: waits for a file", build_gate_graph),
            "boom": GraphSpec("boom", "test graph: always fails", build_boom_graph)}


class Server(LocalServer):
    """``ragkit serve`` with the gate graph; ``client`` is a raw httpx client (tests assert status codes);
    ``stop()`` kills it with SIGKILL, like a crash."""

    def __init__(self, state_dir: Path, token: str | None = "test-token", extra_env: dict | None = None,
                 workers: int = 1):
        path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        super().__init__(state_dir, token=token, cwd=ROOT, workers=workers, env={
            "RAGKIT_SERVER_SPECS": "tests.server_fixtures:gate_specs", "PYTHONPATH": path, **(extra_env or {})})
        self.client = self.http

    def stop(self, kill: bool = True) -> int:
        return super().stop(kill=kill)


# ---------------------------------------------------------------- one bandit, several processes
BANDIT_ARMS = ("dense", "bm25", "hybrid")


def open_json_bandit(path: str) -> Any:
    """The bandit as ragkit served it before its counts moved into the database: one JSON file, saved on
    every update by each process that opened it."""
    from ragkit.bandit import SharedBandit, ThompsonSampling

    return SharedBandit.open(path, lambda: ThompsonSampling(list(BANDIT_ARMS), seed=0), save_every=1)


def open_database_bandit(url: str | None, state_dir: str, name: str) -> Any:
    """A :class:`ragkit.server.bandit_db.DatabaseBandit` on SQLite under ``state_dir`` or PostgreSQL at ``url``."""
    from ragkit.bandit import ThompsonSampling
    from ragkit.server.bandit_db import DatabaseBandit
    from ragkit.server.database import StateDatabase

    return DatabaseBandit(ThompsonSampling(list(BANDIT_ARMS), seed=0), StateDatabase(url, Path(state_dir)), name)


def _update(open_bandit: Callable[[], Any], updates: int, seed: int, start: Any) -> None:
    bandit = open_bandit()
    rng = random.Random(seed)
    start.wait()  # every process opens the bandit, then all update at once
    for _ in range(updates):
        bandit.update(bandit.select(), rng.choice((0.0, 0.25, 0.5, 0.75, 1.0)))


def updates_from_processes(open_bandit: Callable[[], Any], processes: int, updates: int) -> None:
    """``processes`` processes each open the bandit with ``open_bandit()`` (picklable: a module-level function
    or a ``functools.partial`` of one) and make ``updates`` select-and-update rounds, started together."""
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(processes)
    workers = [context.Process(target=_update, args=(open_bandit, updates, seed, start)) for seed in range(processes)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=900)
    failed = [w.exitcode for w in workers if w.exitcode != 0]
    if failed:
        raise RuntimeError(f"bandit update processes failed (exit codes {failed})")


def bandit_opener(store: str, location: str, name: str = "concurrency") -> Callable[[], Any]:
    """``open_bandit`` for ``store`` "json" (``location``: the file), "sqlite" (a state folder) or "postgres"
    (a URL; the rows of bandit ``name``)."""
    if store == "json":
        return functools.partial(open_json_bandit, location)
    if store == "sqlite":
        return functools.partial(open_database_bandit, None, location, name)
    if store == "postgres":
        return functools.partial(open_database_bandit, location, ".", name)
    raise ValueError(f"unknown bandit store {store!r}: json, sqlite or postgres")
