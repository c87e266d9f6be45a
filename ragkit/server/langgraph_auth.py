"""LangGraph Server's custom authentication for ragkit's graphs: the same bearer token as ``ragkit serve``.

``langgraph.json`` points its ``auth`` at :data:`auth` (with ``disable_studio_auth``, so no header can skip
it). The rules follow ``ragkit serve``: graphs that only read (the RAG graphs) are open; the tool loop, which
changes orders, needs ``Authorization: Bearer <RAGKIT_SERVER_TOKEN>``, and is off when no token is set.

- *authenticate*: the right token makes the caller the operator; no ``Authorization`` header, an anonymous
  caller; any other header is refused (401).
- *authorise*, deny by default: an anonymous caller may read and search assistants, create threads and runs
  of the open graphs, and read and search the threads that anonymous callers made (each thread is tagged
  ``ragkit_access: public`` or ``token`` when it is made). Everything else (other graphs' runs, assistants
  made by hand, updating, deleting, crons, the store) needs the token. A run of a graph that changes data
  goes only on a ``token`` thread, so an anonymous caller can never read it.

Simplifications: one shared token, not users (as ``ragkit serve``); an assistant the operator creates is
not open to anonymous callers even for an open graph (only the server's own assistant per graph is).
"""

from __future__ import annotations

import asyncio
import hmac
from functools import lru_cache
from typing import Any
from uuid import uuid5

from langgraph_sdk import Auth

ACCESS = "ragkit_access"  # thread metadata: "public" (made anonymously) or "token"
OPERATOR = "changes_data"  # the permission the token grants

auth = Auth()


@lru_cache(maxsize=1)
def served() -> tuple[set[str], set[str]]:
    """The assistant ids LangGraph gives the open graphs and the graphs that change data (from the registry)."""
    from langgraph_api.graph import NAMESPACE_GRAPH  # LangGraph's id for a graph's own assistant: uuid5(this, name)

    from ragkit.server.registry import default_specs

    graphs = default_specs()
    open_ids = {str(uuid5(NAMESPACE_GRAPH, name)) for name, spec in graphs.items() if not spec.changes_data}
    writing_ids = {str(uuid5(NAMESPACE_GRAPH, name)) for name, spec in graphs.items() if spec.changes_data}
    return open_ids, writing_ids


def is_operator(ctx: Auth.types.AuthContext) -> bool:
    return OPERATOR in (ctx.permissions or ())


def tag(value: dict[str, Any], access: str) -> None:
    """Write ``ragkit_access`` into the metadata of what is being made (a caller cannot choose it). In place:
    LangGraph keeps the metadata object it passed in."""
    if value.get("metadata") is None:
        value["metadata"] = {}
    value["metadata"][ACCESS] = access


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    from ragkit.server.settings import ServerSettings

    if not authorization:
        return {"identity": "anonymous", "permissions": []}
    token = ServerSettings.from_env().token
    if token and hmac.compare_digest(authorization.encode(), f"Bearer {token}".encode()):
        return {"identity": "operator", "permissions": [OPERATOR]}
    raise Auth.exceptions.HTTPException(status_code=401, detail="wrong token: send 'Authorization: Bearer <token>' "
                                                                "(RAGKIT_SERVER_TOKEN), or no header for the open graphs")


@auth.on
async def everything_else(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Deny by default: what is not allowed below needs the token."""
    return is_operator(ctx)


@auth.on.assistants.read
async def read_assistant(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True


@auth.on.assistants.search
async def search_assistants(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: dict) -> bool:
    tag(value, "token" if is_operator(ctx) else "public")
    return True


@auth.on.threads.read
async def read_thread(ctx: Auth.types.AuthContext, value: Any) -> dict | bool:
    return True if is_operator(ctx) else {ACCESS: "public"}


@auth.on.threads.search
async def search_threads(ctx: Auth.types.AuthContext, value: Any) -> dict | bool:
    return True if is_operator(ctx) else {ACCESS: "public"}


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: dict) -> dict | bool:
    """A run goes on a thread of its access level: the tool loop's on ``token`` threads, anonymous ones on ``public``."""
    # the registry reads the workbook's files (blocking calls), so the first look-up runs in a thread
    open_ids, writing_ids = await asyncio.to_thread(served)
    assistant = str(value.get("assistant_id"))
    if is_operator(ctx):
        if assistant in writing_ids:
            tag(value, "token")
            return {ACCESS: "token"}
        return True
    if assistant not in open_ids:
        raise Auth.exceptions.HTTPException(status_code=401, detail="this graph changes data: it needs "
                                                                    "'Authorization: Bearer <token>'")
    tag(value, "public")
    return {ACCESS: "public"}


__all__ = ["auth"]
