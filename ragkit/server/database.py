"""The server's own tables, kept in the database its checkpoints use: SQLite in the state folder, or PostgreSQL.

LangGraph's checkpointer keeps the threads. Beside them the server keeps what every worker process and every
replica must agree on: which graph owns a thread (:mod:`ragkit.server.threads`) and the advanced pipeline's
bandit counts (:mod:`ragkit.server.bandit_db`). Every change to them is one SQL statement, which the database
applies atomically, so processes that write at the same time never lose each other's updates.

>>> import tempfile
>>> db = StateDatabase(None, Path(tempfile.mkdtemp()))
>>> db.setup(["CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)"])
>>> for _ in range(2): _ = db.execute("INSERT INTO t VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = t.n + 1", ("a",))
>>> db.execute("SELECT n FROM t WHERE k = ?", ("a",))
[(2,)]

Statements are written once with ``?`` placeholders and the SQL that both databases accept (``INSERT ... ON
CONFLICT``, SQLite 3.24 or later). Simplifications: SQLite opens a connection per statement (cheap for a
local file; WAL mode, which the checkpointer turns on, lets readers work beside one writer, and a writer waits
up to 30 s for another); PostgreSQL uses a small pool (``psycopg_pool``, :func:`postgres_pool`) that tests a
connection before lending it, so connections that a database restart cut are replaced, not handed out.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

SQLITE_FILE = "checkpoints.sqlite"  # the checkpointer's file: the server's tables live beside its threads
SQLITE_TIMEOUT_S = 30.0
SETUP_LOCK = 72_617  # PostgreSQL advisory lock key: one process at a time creates tables
POSTGRES_WAIT_S = 5.0  # how long a request waits for a PostgreSQL connection before it is told the database is down


def is_postgres(url: str | None) -> bool:
    """True for a ``postgres://`` or ``postgresql://`` URL.

    >>> is_postgres("postgresql://u:p@localhost/db"), is_postgres(None)
    (True, False)
    """
    return bool(url) and url.startswith(("postgres://", "postgresql://"))


def sqlite_path(state_dir: Path) -> Path:
    """The SQLite file of a state folder (created with the folder if missing)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    return state_dir / SQLITE_FILE


def postgres_pool(url: str, name: str, max_size: int, **kwargs: Any) -> Any:
    """An open ``psycopg_pool.ConnectionPool`` on ``url`` (autocommit, no prepared statements, ``kwargs`` for each
    connection) that checks a connection before lending it: after PostgreSQL went away and came back, the
    connections it cut are dropped and new ones made, so the server recovers without a restart."""
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(url, min_size=1, max_size=max_size, kwargs={"autocommit": True, "prepare_threshold": 0, **kwargs},
                          check=ConnectionPool.check_connection, timeout=POSTGRES_WAIT_S, open=True, name=name)
    pool.wait(timeout=30)
    return pool


def database_down(err: BaseException | None) -> bool:
    """True if ``err``, or an error that caused it, says PostgreSQL cannot be reached (a lost connection, a
    server shutting down, no free connection within ``POSTGRES_WAIT_S``): the server's fault, not the request's.

    >>> database_down(ValueError("not a database error"))
    False
    """
    psycopg = sys.modules.get("psycopg")  # not imported: no PostgreSQL error can exist
    seen: set[int] = set()
    while psycopg is not None and err is not None and id(err) not in seen:
        if isinstance(err, psycopg.OperationalError):
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return False


@contextmanager
def postgres_setup_lock(conn: Any) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock while tables are created: two workers starting at once on an empty
    database would otherwise race in ``CREATE TABLE IF NOT EXISTS`` (a duplicate-key error on the catalog)."""
    conn.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK,))
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))


class StateDatabase:
    """SQLite under ``state_dir`` (``url`` empty), or the PostgreSQL database at ``url``; ``close()`` at shutdown."""

    def __init__(self, url: str | None, state_dir: Path):
        if url and not is_postgres(url):
            raise ValueError(f"unsupported database URL {url!r}: use postgresql://... or leave it empty for SQLite")
        self.url = url
        self.pool: Any = None
        if is_postgres(url):
            self.pool = postgres_pool(url, "ragkit-state", max_size=8)
            self.label = url.split("@")[-1]  # host/db, without the password
        else:
            self.path = sqlite_path(state_dir)
            self.label = str(self.path)

    def errors(self) -> tuple[type[Exception], ...]:
        """The exceptions a failed statement raises (sqlite3's, or psycopg's)."""
        if self.pool is None:
            return (sqlite3.Error,)
        import psycopg

        return (psycopg.Error,)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Run one statement (``?`` placeholders) in its own transaction; the rows it returns, if any."""
        if self.pool is None:
            with closing(sqlite3.connect(self.path, timeout=SQLITE_TIMEOUT_S, isolation_level=None)) as conn:
                cursor = conn.execute(sql, tuple(params))
                return cursor.fetchall() if cursor.description else []
        with self.pool.connection() as conn:
            cursor = conn.execute(sql.replace("?", "%s"), tuple(params))
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []

    def setup(self, statements: Sequence[str]) -> None:
        """Create tables (``CREATE TABLE IF NOT EXISTS ...``); safe when several processes start at once."""
        if self.pool is None:
            for sql in statements:
                self.execute(sql)
            return
        with self.pool.connection() as conn, postgres_setup_lock(conn):
            for sql in statements:
                conn.execute(sql)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


__all__ = ["StateDatabase", "database_down", "is_postgres", "postgres_pool", "postgres_setup_lock", "sqlite_path"]
