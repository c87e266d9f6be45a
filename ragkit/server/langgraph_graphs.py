"""The graphs as LangGraph's own server (``langgraph dev`` / LangGraph Platform) loads them, and its langgraph.json.

``langgraph.json`` is generated from the server registry, the one list of served graphs
(``python -m ragkit.server.registry langgraph.json``; a test checks the file is current). Each graph is this
module's attribute of the same name, built when the module is loaded, without a checkpointer of ours
(LangGraph's server brings its own persistence). Endpoints of graphs that change data
(the tool loop) need the same bearer token as ``ragkit serve``: ``auth`` points at
:mod:`ragkit.server.langgraph_auth`. Run offline with::

    RAGKIT_SERVER_TOKEN=... LANGGRAPH_CLI_NO_ANALYTICS=1 langgraph dev --no-browser   # pip install ".[langgraph-server]"

With ``RAGKIT_CHECKPOINT_URL`` set, the advanced pipeline's bandit keeps its counts in that PostgreSQL
database (:mod:`ragkit.server.bandit_db`), shared by every replica; without it, in memory per process.
Graphs run on their local roles unless ``GOOGLE_API_KEY`` is set, as with ``ragkit serve``.
"""

from __future__ import annotations

from typing import Any

from ragkit.server.registry import default_specs


def build_graphs() -> dict[str, Any]:
    """Every registry graph compiled for LangGraph's server: no checkpointer of ours (it attaches its own), the
    chat model if ``GOOGLE_API_KEY`` is set, the bandit in ``RAGKIT_CHECKPOINT_URL``'s database if that is set."""
    from ragkit.server.database import StateDatabase
    from ragkit.server.settings import ServerSettings

    settings = ServerSettings.from_env()
    database = StateDatabase(settings.checkpoint_url, settings.state_dir) if settings.checkpoint_url else None
    chat_model = settings.chat_model()
    graphs = {}
    for name, spec in default_specs(database=database).items():
        graphs[name] = spec.build(None, chat_model)
        graphs[name].checkpointer = None
    return graphs


globals().update(build_graphs())  # LangGraph reads each graph from the module's __dict__
