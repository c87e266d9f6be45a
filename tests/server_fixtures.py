"""Graphs and helpers for the server tests: a real uvicorn process on a free local port.

``gate_specs`` adds a graph whose last node waits until the test creates a file, which proves that a stream's
first events reach the client while the graph is still running (no timing guesswork).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

import httpx
from langgraph.graph import END, START, StateGraph

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``ragkit serve`` in a child process; ``url``, ``client``; ``stop()`` kills it (like a crash)."""

    def __init__(self, state_dir: Path, token: str | None = "test-token", extra_env: dict | None = None):
        extra_env = {"RAGKIT_COLLECTIONS_DIR": str(state_dir / "collections"), **(extra_env or {})}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "RAGKIT_STATE_DIR": str(state_dir), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "RAGKIT_SERVER_SPECS": "tests.server_fixtures:gate_specs", "PYTHONPATH": os.pathsep.join(
                   [str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep), **extra_env}
        env.pop("GOOGLE_API_KEY", None)
        env.pop("GEMINI_API_KEY", None)
        if token:
            env["RAGKIT_SERVER_TOKEN"] = token
        self.token = token
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from ragkit.cli import main; sys.exit(main(sys.argv[1:]))",
             "serve", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.client = httpx.Client(base_url=self.url, timeout=120)
        self.wait_until_ready()

    def wait_until_ready(self, seconds: float = 120) -> None:
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stdout.read().decode()[-2000:]}")
            try:
                if self.client.get("/ready").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError("server did not become ready")

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def stop(self) -> None:
        self.client.close()
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
