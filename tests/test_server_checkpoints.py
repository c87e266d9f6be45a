"""Every graph the server offers comes back from its checkpoints as it went in: the server's serializer allows
every type a graph's state holds, so a thread read back (after a restart, on another worker) has the same
objects, not plain dicts in their place."""

from __future__ import annotations

import logging

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from ragkit.server.checkpoints import serializer  # an extra: imported by the tests only
from ragkit.server.registry import default_specs

# A question per graph that fills its state's typed fields (a structured menu query, a code + rag chain ...).
QUESTIONS = {
    "adaptive_rag": "Which dishes are vegetarian and under 15 euros?",
    "statute_qa": "What fine applies to a breach of Article 17?",  # a hop: a Hop in followed
    "supervisor": "Find what BM25 is in the handbook and then compute 2+2",  # rag, then code run in the sandbox
}
# A typed field each of these questions must fill, so the test keeps reading those types back.
FILLS = {"statute_qa": "followed", "supervisor": "code_result"}


def kinds(value: object) -> object:
    """The type of a value, and of each item of a list or tuple (msgpack reads a tuple back as a list)."""
    if isinstance(value, (list, tuple)):
        return ("sequence", [kinds(v) for v in value])
    return type(value).__name__


def test_every_served_graph_reads_back_the_types_it_wrote(caplog) -> None:
    caplog.set_level(logging.WARNING)
    for name, spec in default_specs().items():
        graph = spec.build(InMemorySaver(serde=serializer()), None)
        config = {"configurable": {"thread_id": f"{name}-1"}}
        if spec.input_kind == "message":
            written = graph.invoke({"messages": [HumanMessage("Where is my order A1001?")]}, config)
        else:
            written = graph.invoke({"question": QUESTIONS.get(name, "What does a checkpointer do?")}, config)
        if name in FILLS:
            assert written.get(FILLS[name]), f"{name}: the question no longer fills {FILLS[name]}"
        read = graph.get_state(config).values  # deserialized from the checkpoint
        assert {k: kinds(v) for k, v in read.items()} == {k: kinds(v) for k, v in written.items()}, name
    blocked = [r.getMessage() for r in caplog.records if "Blocked deserialization" in r.getMessage()]
    assert not blocked, blocked
