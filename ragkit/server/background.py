"""``ragkit serve`` in a child process on a free local port: what notebook 12 and the server tests start.

>>> port = free_port(); 1024 <= port <= 65535
True

``LocalServer(state_dir)`` starts the server (offline: it drops ``GOOGLE_API_KEY`` unless asked to keep it;
``workers=2`` starts two worker processes), waits until ``GET /ready`` answers, and ``stop()`` ends it: with
``kill=True`` by SIGKILL, like a crash, which the restart tests use to prove that paused threads survive. It is
also a context manager. ``ServerProcess`` does the same for any server command (the LangGraph Server test
starts ``langgraph dev`` with it).

A server never outlives what started it: ``stop()`` runs at the latest when the starting process exits
(``atexit``), and a ``LocalServer`` also tells the child its parent's pid, so the child stops itself when the
parent is gone however it went (a kernel killed or restarted, a crashed cell's process). On Windows, which
has no process groups as POSIX has them, ``stop()`` ends the child with ``terminate()``/``kill()``.

Simplification: the child's output goes to a temporary file, shown only when it exits before it is ready.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
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


def offline_environment(extra: Mapping[str, str] | None = None, keep_api_key: bool = False) -> dict[str, str]:
    """This process's environment for a child server: offline (no Hugging Face downloads, no chat-model key
    unless ``keep_api_key``), plus ``extra``."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(extra or {})}
    if not keep_api_key:
        for name in KEY_VARIABLES:
            env.pop(name, None)
    return env


class ServerProcess:
    """A server ``command`` in a child process (its own process group) listening on ``port``: ``url``, ``http``
    (an httpx client), ``stop()``. It waits until ``GET ready_path`` answers 200 (at most ``ready_seconds``)."""

    def __init__(self, command: Sequence[str], port: int, env: Mapping[str, str], cwd: str | Path | None = None,
                 ready_path: str = "/ready", ready_seconds: float = 180):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(list(command), cwd=cwd, env=dict(env), stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=hasattr(os, "killpg"))
        self.http = httpx.Client(base_url=self.url, timeout=300)
        atexit.register(self.stop)
        try:
            self.wait_until_ready(ready_seconds, ready_path)
        except Exception:
            self.stop()
            raise

    def wait_until_ready(self, seconds: float, path: str = "/ready") -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"{self.proc.args[0]} exited: {self.log.read().decode(errors='replace')[-2000:]}")
            try:
                if self.http.get(path).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server ({' '.join(map(str, self.proc.args[:3]))} ...) did not become ready within "
                           f"{seconds:.0f} s")

    def stop(self, kill: bool = False) -> int:
        """End the server (SIGTERM, or SIGKILL with ``kill=True``) and return its exit code; stopping twice is fine."""
        atexit.unregister(self.stop)
        self.http.close()
        if self.proc.poll() is None:
            self._signal(kill)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                self._signal(kill=True)
            return self.proc.wait(timeout=30)
        finally:
            if not self.log.closed:
                self.log.close()

    def _signal(self, kill: bool) -> None:
        if hasattr(os, "killpg"):  # the whole group: uvicorn's workers too
            os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
        elif kill:
            self.proc.kill()
        else:
            self.proc.terminate()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class LocalServer(ServerProcess):
    """A ``ragkit serve`` child process: ``url``, ``client`` (a :class:`RagkitClient`), ``stop()``."""

    def __init__(self, state_dir: str | Path, token: str | None = None, env: Mapping[str, str] | None = None,
                 keep_api_key: bool = False, ready_seconds: float = 180, cwd: str | Path | None = None,
                 workers: int = 1):
        state_dir = Path(state_dir)
        port = free_port()
        self.token = token
        self.client = RagkitClient(f"http://127.0.0.1:{port}", token=token)
        child_env = offline_environment({"RAGKIT_STATE_DIR": str(state_dir),
                                         "RAGKIT_COLLECTIONS_DIR": str(state_dir / "collections"),
                                         "RAGKIT_PARENT_PID": str(os.getpid()), **(env or {})}, keep_api_key)
        if token:
            child_env["RAGKIT_SERVER_TOKEN"] = token
        command = [sys.executable, "-c", "import sys; from ragkit.cli import main; sys.exit(main(sys.argv[1:]))",
                   "serve", "--port", str(port), "--workers", str(workers), "--log-level", "warning"]
        super().__init__(command, port, child_env, cwd=cwd, ready_seconds=ready_seconds)

    def auth(self) -> dict[str, str]:
        """The bearer-token header for graphs that change data."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def stop(self, kill: bool = False) -> int:
        self.client.close()
        return super().stop(kill=kill)


__all__ = ["LocalServer", "ServerProcess", "free_port", "offline_environment"]
