"""Graphs and helpers for the server tests: a real uvicorn process on a free local port.

``gate_specs`` adds a graph whose last node waits until the test creates a file, which proves that a stream's
first events reach the client while the graph is still running (no timing guesswork).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from ragkit.server.background import LocalServer
from ragkit.server.registry import GraphSpec, default_specs

ROOT = Path(__file__).resolve().parents[1]


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


def gate_specs() -> dict[str, GraphSpec]:
    """ragkit's graphs plus the gate graph."""
    return {**default_specs(), "gate": GraphSpec("gate", "test graph: waits for a file", build_gate_graph)}


class Server(LocalServer):
    """``ragkit serve`` with the gate graph; ``client`` is a raw httpx client (tests assert status codes);
    ``stop()`` kills it with SIGKILL, like a crash."""

    def __init__(self, state_dir: Path, token: str | None = "test-token", extra_env: dict | None = None):
        path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        super().__init__(state_dir, token=token, cwd=ROOT, env={
            "RAGKIT_SERVER_SPECS": "tests.server_fixtures:gate_specs", "PYTHONPATH": path, **(extra_env or {})})
        self.client = self.http

    def stop(self, kill: bool = True) -> int:
        return super().stop(kill=kill)
