"""The graphs as LangGraph's own server (``langgraph dev`` / LangGraph Platform) loads them (see langgraph.json).

LangGraph's server brings its own persistence, so each graph is compiled without a checkpointer of ours
(CRAG and the tool loop default to an in-memory one for notebooks; it is removed here). Run offline with::

    LANGGRAPH_CLI_NO_ANALYTICS=1 langgraph dev --no-browser     # needs: pip install "langgraph-cli[inmem]"

Together with PostgreSQL checkpoints, that is the path for users who outgrow ``ragkit serve`` on one machine.
"""

from __future__ import annotations

from typing import Any

from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
from ragkit.graphs.crag import build_crag_graph
from ragkit.graphs.self_rag import build_self_rag_graph
from ragkit.graphs.tool_agent import build_tool_agent_graph


def _without_checkpointer(graph: Any) -> Any:
    graph.checkpointer = None  # LangGraph's server attaches its own
    return graph


adaptive_rag = build_adaptive_rag_graph()
self_rag = build_self_rag_graph()
crag = _without_checkpointer(build_crag_graph())
tool_agent = _without_checkpointer(build_tool_agent_graph())

__all__ = ["adaptive_rag", "crag", "self_rag", "tool_agent"]
