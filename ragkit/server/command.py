"""``ragkit serve``: run the server with uvicorn on a local port.

    ragkit serve --port 8000            # offline, local roles; RAGKIT_* variables configure it

It binds to 127.0.0.1 unless ``--host`` says otherwise (a container passes ``--host 0.0.0.0``).
"""

from __future__ import annotations

import argparse


COMMANDS = ("serve",)


def add_commands(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="serve every graph over HTTP (FastAPI + uvicorn)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ragkit.server.app import create_app

    uvicorn.run(create_app(), host=args.host, port=args.port, log_level=args.log_level)
    return 0
