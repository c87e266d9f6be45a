"""A server started from a notebook never outlives what started it: stop(), the end of the process, or its
death (a killed kernel) ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest

from ragkit.server.background import LocalServer

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")

PARENT = """
import sys, time
from ragkit.server.background import LocalServer
server = LocalServer(sys.argv[1])
print(server.port, server.proc.pid, flush=True)
if sys.argv[2] == "exit":
    sys.stdin.readline()
    sys.exit(0)          # a normal end: atexit stops the server
time.sleep(600)          # waits to be killed, as a kernel is
"""


def wait_gone(pid: int, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            return True
        time.sleep(0.5)
    return False


def refused(port: int) -> bool:
    try:
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
    except httpx.TransportError:
        return True
    return False


@pytest.mark.parametrize("how", ["killed", "exit"])
def test_the_server_stops_when_the_process_that_started_it_goes_away(tmp_path: Path, how: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path / "state"), how], stdout=subprocess.PIPE,
                              stdin=subprocess.PIPE, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    port, server_pid = map(int, parent.stdout.readline().split())
    assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).status_code == 200
    if how == "killed":
        parent.send_signal(signal.SIGKILL)  # no atexit, no finally: only the server's own watch can notice
    else:
        parent.stdin.write("\n")
        parent.stdin.flush()
    parent.wait(timeout=120)
    assert wait_gone(server_pid), f"the server (pid {server_pid}) outlived its parent ({how})"
    assert refused(port)


def test_a_server_used_as_a_context_manager_is_stopped_on_leaving_it(tmp_path: Path) -> None:
    with LocalServer(tmp_path / "state") as server:
        pid = server.proc.pid
        assert server.client.health()["status"] == "ok"
    assert wait_gone(pid) and server.stop() is not None  # stopping twice is fine
