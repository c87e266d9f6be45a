"""Durable checkpoints for the server: SQLite on disk by default, PostgreSQL when a URL is configured.

A paused thread (CRAG asking back, the tool loop waiting for login, approval or a one-time code) lives in
its checkpoints, so it survives a server restart: :func:`open_checkpointer` returns LangGraph's own
``SqliteSaver`` (``langgraph-checkpoint-sqlite``) on ``<state dir>/checkpoints.sqlite``, or ``PostgresSaver``
(``langgraph-checkpoint-postgres``) when ``url`` starts with ``postgres``. Both use a serializer that
allows ragkit's own result dataclasses (``Answer``, ``Grade`` ...) by name, and nothing else beyond
LangGraph's safe types.

Simplifications: one SQLite connection shared by the server's worker threads (the saver locks around
it), so writes are serialised; for many concurrent users, use PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import importlib
import sqlite3
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

# Modules whose dataclasses may appear in a graph's state (and so in a checkpoint).
STATE_MODULES = ("ragkit.roles.protocols", "ragkit.offline.judge", "ragkit.core.tools", "ragkit.core.contract")


def allowed_types() -> list[tuple[str, str]]:
    """``(module, class name)`` of every ragkit dataclass that a checkpoint may hold."""
    out = []
    for name in STATE_MODULES:
        module = importlib.import_module(name)
        for attr in dir(module):
            obj = getattr(module, attr)
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == name:
                out.append((name, attr))
    return sorted(out)


def serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, allowing ragkit's dataclasses explicitly (no pickle fallback)."""
    return JsonPlusSerializer(allowed_msgpack_modules=allowed_types())


def open_checkpointer(url: str | None, state_dir: Path, stack: ExitStack) -> Any:
    """The checkpointer for ``url`` (PostgreSQL) or SQLite under ``state_dir``; ``stack`` closes it at shutdown."""
    if url and url.startswith(("postgres://", "postgresql://")):
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg import Connection
        from psycopg.rows import dict_row

        conn = stack.enter_context(Connection.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row))
        saver = PostgresSaver(conn, serde=serializer())
        saver.setup()
        return saver
    if url:
        raise ValueError(f"unsupported checkpoint URL {url!r}: use postgresql://... or leave it empty for SQLite")
    from langgraph.checkpoint.sqlite import SqliteSaver

    state_dir.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(state_dir / "checkpoints.sqlite"), check_same_thread=False)
    stack.callback(conn.close)
    saver = SqliteSaver(conn, serde=serializer())
    saver.setup()
    return saver


__all__ = ["allowed_types", "open_checkpointer", "serializer"]
