"""The graphs as LangGraph's own server (``langgraph dev`` / LangGraph Platform) loads them (see langgraph.json).

LangGraph's server brings its own persistence, so each graph is compiled without a checkpointer of ours
(the graphs are the server registry's, ragkit.server.registry; any default in-memory checkpointer is removed here). Run offline with::

    LANGGRAPH_CLI_NO_ANALYTICS=1 langgraph dev --no-browser     # needs: pip install "langgraph-cli[inmem]"

Together with PostgreSQL checkpoints, that is the path for users who outgrow ``ragkit serve`` on one machine.
"""

from __future__ import annotations

from typing import Any

from ragkit.server.registry import default_specs


def _without_checkpointer(graph: Any) -> Any:
    graph.checkpointer = None  # LangGraph's server attaches its own
    return graph


_GRAPHS = {name: _without_checkpointer(spec.build(None, None)) for name, spec in default_specs().items()}
adaptive_rag = _GRAPHS["adaptive_rag"]
self_rag = _GRAPHS["self_rag"]
crag = _GRAPHS["crag"]
supervisor = _GRAPHS["supervisor"]
statute_qa = _GRAPHS["statute_qa"]
tool_agent = _GRAPHS["tool_agent"]

__all__ = ["adaptive_rag", "crag", "self_rag", "statute_qa", "supervisor", "tool_agent"]
