"""Which graph a thread belongs to: recorded once, atomically and durably, beside the checkpoints.

A thread id names one conversation of one graph. The first request on a new id claims it for its graph with
one ``INSERT ... ON CONFLICT DO NOTHING`` on the table's primary key, then reads the owner back. When two
first requests for different graphs race (in one process, in two workers or on two replicas), the database
writes exactly one row and both read the same owner, so the loser is refused before its graph runs and
nothing of its is written. The row lives in the server's database, so it survives a restart.

>>> import tempfile
>>> from pathlib import Path
>>> from ragkit.server.database import StateDatabase
>>> owners = ThreadOwners(StateDatabase(None, Path(tempfile.mkdtemp())))
>>> owners.claim("t-1", "crag"), owners.claim("t-1", "self_rag"), owners.owner("t-2")
('crag', 'crag', None)

Simplification: a claimed id stays its graph's even if the first run failed before it wrote a checkpoint.
"""

from __future__ import annotations

from ragkit.server.database import StateDatabase

TABLE = "CREATE TABLE IF NOT EXISTS ragkit_thread_owners (thread_id TEXT PRIMARY KEY, graph TEXT NOT NULL)"
CLAIM = "INSERT INTO ragkit_thread_owners (thread_id, graph) VALUES (?, ?) ON CONFLICT (thread_id) DO NOTHING"
OWNER = "SELECT graph FROM ragkit_thread_owners WHERE thread_id = ?"


class ThreadOwners:
    """The ``ragkit_thread_owners`` table: ``claim(thread_id, graph)`` and ``owner(thread_id)``."""

    def __init__(self, database: StateDatabase):
        self.database = database
        database.setup([TABLE])

    def owner(self, thread_id: str) -> str | None:
        """The graph that owns ``thread_id``, or None if no request has claimed it."""
        rows = self.database.execute(OWNER, (thread_id,))
        return rows[0][0] if rows else None

    def claim(self, thread_id: str, graph: str) -> str:
        """Claim ``thread_id`` for ``graph`` unless someone has; return the owner (``graph`` if this call won)."""
        self.database.execute(CLAIM, (thread_id, graph))
        owner = self.owner(thread_id)
        if owner is None:  # pragma: no cover - the row was just written or already there
            raise RuntimeError(f"thread {thread_id!r} was claimed but its owner cannot be read back")
        return owner


__all__ = ["ThreadOwners"]
