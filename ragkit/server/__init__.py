"""Serving every ragkit graph over HTTP: FastAPI + uvicorn, NDJSON/SSE streaming, durable threads, metrics.

``ragkit serve`` (see :mod:`ragkit.server.command`) runs :func:`ragkit.server.app.create_app` with uvicorn.
FastAPI is imported only when the app is built, so ``ragkit bench`` does not pay for it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GraphSpec", "ServerSettings", "create_app", "default_specs"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from ragkit.server.app import create_app

        return create_app
    if name in ("GraphSpec", "default_specs"):
        from ragkit.server import registry

        return getattr(registry, name)
    if name == "ServerSettings":
        from ragkit.server.settings import ServerSettings

        return ServerSettings
    raise AttributeError(name)
