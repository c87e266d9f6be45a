"""Durable checkpoints for the server: SQLite on disk by default, PostgreSQL when a URL is configured.

A paused thread (CRAG asking back, the tool loop waiting for login, approval or a one-time code) lives in
its checkpoints, so it survives a server restart: :func:`open_checkpointer` returns LangGraph's own
``SqliteSaver`` (``langgraph-checkpoint-sqlite``) on ``<state dir>/checkpoints.sqlite``, or ``PostgresSaver``
(``langgraph-checkpoint-postgres``) when ``url`` starts with ``postgres``, on a pool that replaces a connection
a restart of PostgreSQL cut. Both use a serializer that allows the types a graph's state holds (ragkit's dataclasses such as
``Answer`` and ``Grade``, LangChain's ``StructuredQuery``) by name, and nothing else beyond LangGraph's safe types.

Simplifications: one SQLite connection per process, shared by its worker threads (the saver locks around
it), so writes are serialised; several worker processes share the file (WAL mode, a writer waits up to 30 s
for another); for many concurrent users, use PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import importlib
import sqlite3
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from ragkit.server.database import SQLITE_TIMEOUT_S, is_postgres, postgres_pool, postgres_setup_lock, sqlite_path

# Modules whose dataclasses and pydantic models may appear in a graph's state (and so in a checkpoint); a type
# missing here comes back from a checkpoint as a plain dict, with a "Blocked deserialization" warning
# (tests/test_server_checkpoints.py runs every served graph through this serializer to catch one).
STATE_MODULES = ("ragkit.roles.protocols", "ragkit.roles.router_protocols", "ragkit.offline.judge", "ragkit.core.tools", "ragkit.core.contract",
                 "ragkit.core.references", "ragkit.roles.structured_query", "ragkit.roles.llm_queries",
                 "ragkit.roles.agent_protocols", "ragkit.offline.supervisor", "ragkit.sandbox.result",
                 "langchain_core.structured_query")


def allowed_types() -> list[tuple[str, str]]:
    """``(module, class name)`` of every dataclass, pydantic model and enum defined in ``STATE_MODULES``."""
    from enum import Enum

    from pydantic import BaseModel

    out = []
    for name in STATE_MODULES:
        module = importlib.import_module(name)
        for attr in dir(module):
            obj = getattr(module, attr)
            if (isinstance(obj, type) and obj.__module__ == name
                    and (dataclasses.is_dataclass(obj) or issubclass(obj, (BaseModel, Enum)))):
                out.append((name, attr))
    return sorted(out)


def serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, allowing ragkit's dataclasses explicitly (no pickle fallback)."""
    return JsonPlusSerializer(allowed_msgpack_modules=allowed_types())


def open_checkpointer(url: str | None, state_dir: Path, stack: ExitStack) -> Any:
    """The checkpointer for ``url`` (PostgreSQL) or SQLite under ``state_dir``; ``stack`` closes it at shutdown."""
    if is_postgres(url):
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row

        # The saver uses one connection at a time (it locks around each statement); a pool replaces it when a
        # database restart cut it, where a single connection would stay closed until the server restarts.
        pool = postgres_pool(url, "ragkit-checkpoints", max_size=1, row_factory=dict_row)
        stack.callback(pool.close)
        with pool.connection() as conn, postgres_setup_lock(conn):  # several workers may start at once
            PostgresSaver(conn, serde=serializer()).setup()
        return PostgresSaver(pool, serde=serializer())
    if url:
        raise ValueError(f"unsupported checkpoint URL {url!r}: use postgresql://... or leave it empty for SQLite")
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(str(sqlite_path(state_dir)), check_same_thread=False, timeout=SQLITE_TIMEOUT_S)
    stack.callback(conn.close)
    saver = SqliteSaver(conn, serde=serializer())
    saver.setup()
    return saver


__all__ = ["allowed_types", "open_checkpointer", "serializer"]
