"""Threads: the run config of one conversation, and a plain error when a checkpointed graph is run without one.

A graph compiled with a checkpointer (CRAG, which can pause to ask back; the tool agent, which pauses for
approval) keeps each conversation's state under a thread id, so every run needs
``{"configurable": {"thread_id": ...}}``. :func:`thread` builds that config; :func:`with_threads` makes a
compiled graph refuse a run without one with a sentence naming the fix, instead of LangGraph's own error.

What it cannot do: it checks that a thread id is there, not that it names the conversation you meant (a
reused id continues the old one); it guards ``stream`` and ``astream``, which ``invoke`` and ``ainvoke`` run through.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph


def thread(thread_id: str) -> dict:
    """The run config for one conversation thread.

    >>> thread("q1")
    {'configurable': {'thread_id': 'q1'}}
    """
    return {"configurable": {"thread_id": str(thread_id)}}


class ThreadedGraph(CompiledStateGraph):
    """A compiled graph with a checkpointer that says, in plain words, when a run has no thread id."""

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        self._require_thread(config)
        return super().stream(input, config, **kwargs)

    def astream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        self._require_thread(config)
        return super().astream(input, config, **kwargs)

    def _require_thread(self, config: RunnableConfig | None) -> None:
        configurable = (config or {}).get("configurable") or {}
        if self.checkpointer not in (None, False) and not configurable.get("thread_id"):
            raise ValueError(f"the {self.name} graph keeps each conversation on a thread (it can pause to ask "
                             "back), so give it a thread id: graph.invoke(input, {'configurable': {'thread_id': "
                             "'any-name'}}), or ragkit.core.threads.thread('any-name') as the config")


def with_threads(graph: CompiledStateGraph) -> CompiledStateGraph:
    """``graph``, turned into a :class:`ThreadedGraph` (same object, same behaviour, a clearer error)."""
    graph.__class__ = ThreadedGraph
    return graph
