"""``ragkit serve``: run the server with uvicorn on a local port, in one or more worker processes.

    ragkit serve --port 8000               # offline, local roles; RAGKIT_* variables configure it
    ragkit serve --port 8000 --workers 4   # four processes sharing one socket, one database, one bandit

It binds to 127.0.0.1 unless ``--host`` says otherwise (a container passes ``--host 0.0.0.0``). uvicorn
starts each worker from the import string ``ragkit.server.app:create_app`` (a factory), so a worker gets its
settings the way a single process does: from the ``RAGKIT_*`` environment, which it inherits. They are read
once here first, so a bad setting stops ``ragkit serve`` before any worker starts. The metrics folder
(``PROMETHEUS_MULTIPROC_DIR``) is made fresh for each start inside the state folder and removed at exit;
set the variable yourself to choose another.

With ``RAGKIT_PARENT_PID`` set (``LocalServer`` sets it), the server watches that process and stops itself
when it is gone, however it went (a closed notebook, a restarted or killed kernel), so no server is left
running behind a learner's back.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ragkit.server.settings import MULTIPROC_VARIABLE

COMMANDS = ("serve",)
PARENT_VARIABLE = "RAGKIT_PARENT_PID"


def worker_count(text: str) -> int:
    """``--workers``: a whole number of at least 1.

    >>> worker_count("2")
    2
    """
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"--workers must be a whole number of at least 1, got {text!r}")
    return int(text)


def port_number(text: str) -> int:
    """``--port``: a whole number from 1 to 65535.

    >>> port_number("8000")
    8000
    """
    if not text.isdigit() or not 1 <= int(text) <= 65_535:
        raise argparse.ArgumentTypeError(f"--port must be a whole number from 1 to 65535, got {text!r}")
    return int(text)


def add_commands(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="serve every graph over HTTP (FastAPI + uvicorn)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=worker_count, default=1, help="worker processes (default 1)")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))


@contextmanager
def metrics_folder(state_dir: Path) -> Iterator[None]:
    """Set ``PROMETHEUS_MULTIPROC_DIR`` to a fresh folder for this start (unless it is set), remove it at exit.

    It must be set before ``prometheus_client`` is imported, which decides then where values are kept.
    """
    if os.environ.get(MULTIPROC_VARIABLE):
        yield
        return
    if "prometheus_client" in sys.modules:
        raise RuntimeError(f"prometheus_client was imported before {MULTIPROC_VARIABLE} was set: the workers' "
                           "metrics would not be shared")
    state_dir.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="metrics-", dir=state_dir)
    os.environ[MULTIPROC_VARIABLE] = folder
    try:
        yield
    finally:
        os.environ.pop(MULTIPROC_VARIABLE, None)
        shutil.rmtree(folder, ignore_errors=True)


def watch_parent(pid: int, every: float = 1.0) -> threading.Thread:
    """A daemon thread that stops this process (SIGTERM, which uvicorn turns into a clean shutdown of every
    worker) once process ``pid`` no longer exists."""
    import psutil

    def watch() -> None:
        while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
            time.sleep(every)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=watch, name="ragkit-parent-watch", daemon=True)
    thread.start()
    return thread


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ragkit.core.files import unwritable
    from ragkit.server.settings import ServerSettings

    try:
        settings = ServerSettings.from_env()  # fails here, once, on a bad variable
    except ValueError as err:
        print(f"ragkit serve: {err}", file=sys.stderr)
        return 2
    why = unwritable(settings.state_dir)
    if why:
        print(f"ragkit serve: cannot write the state folder {settings.state_dir} ({why}); set RAGKIT_STATE_DIR to a "
              "folder you can write to", file=sys.stderr)
        return 2
    if os.environ.get(PARENT_VARIABLE, "").isdigit():
        watch_parent(int(os.environ[PARENT_VARIABLE]))
    with metrics_folder(settings.state_dir):
        uvicorn.run("ragkit.server.app:create_app", factory=True, host=args.host, port=args.port,
                    workers=args.workers, log_level=args.log_level)
    return 0
