"""``ragkit serve`` in a child process on a free local port: what notebook 12 and the server tests start.

>>> port = free_port(); 1024 <= port <= 65535
True

``LocalServer(state_dir)`` starts the server (offline: it drops ``GOOGLE_API_KEY`` unless asked to keep it;
``workers=2`` starts two worker processes), waits until ``GET /ready`` answers, and ``stop()`` ends it: with ``kill=True`` by SIGKILL, like a crash, which
the restart tests use to prove that paused threads survive. It is also a context manager.

Simplification: the child's output is kept in a pipe and shown only when it exits before it is ready.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from ragkit.server.client import RagkitClient

KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    """A ``ragkit serve`` child process: ``url``, ``client`` (a :class:`RagkitClient`), ``stop()``."""

    def __init__(self, state_dir: str | Path, token: str | None = None, env: Mapping[str, str] | None = None,
                 keep_api_key: bool = False, ready_seconds: float = 180, cwd: str | Path | None = None,
                 workers: int = 1):
        state_dir = Path(state_dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = token
        child_env = {**os.environ, "RAGKIT_STATE_DIR": str(state_dir),
                     "RAGKIT_COLLECTIONS_DIR": str(state_dir / "collections"),
                     "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(env or {})}
        if not keep_api_key:
            for name in KEY_VARIABLES:
                child_env.pop(name, None)
        if token:
            child_env["RAGKIT_SERVER_TOKEN"] = token
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from ragkit.cli import main; sys.exit(main(sys.argv[1:]))",
             "serve", "--port", str(self.port), "--workers", str(workers), "--log-level", "warning"],
            cwd=cwd, env=child_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.http = httpx.Client(base_url=self.url, timeout=300)
        self.client = RagkitClient(self.url, token=token)
        try:
            self.wait_until_ready(ready_seconds)
        except Exception:
            self.stop()
            raise

    def wait_until_ready(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ragkit serve exited: {self.proc.stdout.read().decode()[-2000:]}")
            try:
                if self.http.get("/ready").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"ragkit serve did not become ready within {seconds:.0f} s")

    def auth(self) -> dict[str, str]:
        """The bearer-token header for graphs that change data."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def stop(self, kill: bool = False) -> int:
        """End the server (SIGTERM, or SIGKILL with ``kill=True``) and return its exit code."""
        self.http.close()
        self.client.close()
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            return self.proc.wait(timeout=30)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


__all__ = ["LocalServer", "free_port"]
