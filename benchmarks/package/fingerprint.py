"""Fingerprint of every served graph's results (local roles), to show that a reorganisation moved no behaviour.

Each graph of ``ragkit.server.registry.default_specs`` (the same builders the server and LangGraph Server use)
answers fixed questions from this repository's data: 40 menu questions of ``data/routing_dev.json`` (Adaptive RAG),
the first 25 of ``data/eval/handbook_golden.jsonl`` (Self-RAG, CRAG, the advanced pipeline), the first 40 statute
dev questions of ``data/eval/statute_qa.json`` (statute QA), the first 20 of ``supervisor_routing.json``'s dev
split (the supervisor) and the first 25 messages of ``data/eval/planner_messages.json`` (the tool loop). The
result fields of every run (answer, outcome, reason, sources, citations, path, messages, plan, refusal, kind,
route; no timings), as the server serialises them (``ragkit.server.serialize.to_json``), are hashed per graph. Run it on the tree before a move and on the tree after it; a pure move
prints the same seven lines::

    PYTHONPATH=<old tree> HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/package/fingerprint.py > before.txt
    PYTHONPATH=<new tree> HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/package/fingerprint.py > after.txt
    diff before.txt after.txt

Limits: it covers the offline roles on these questions only (an LLM role or another question could still move),
and a difference says that something moved, not what (compare the graphs' results on the questions to find it).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from ragkit.server.registry import default_specs
from ragkit.server.serialize import to_json

DATA = Path(__file__).resolve().parents[2] / "data"
FIELDS = ("answer", "outcome", "reason", "sources", "citations", "path", "messages", "plan", "refusal", "question_kind", "route")


def questions() -> dict[str, list[str]]:
    """The fixed questions of each graph (see the module docstring)."""
    handbook = [json.loads(line)["question"] for line in (DATA / "eval" / "handbook_golden.jsonl").read_text().splitlines()][:25]
    menu = [d["question"] for d in json.loads((DATA / "routing_dev.json").read_text())][::6][:40]
    statute = [d["question"] for d in json.loads((DATA / "eval" / "statute_qa.json").read_text()) if d["split"] == "dev"][:40]
    team = [d["question"] for d in json.loads((DATA / "eval" / "supervisor_routing.json").read_text())["dev"]][:20]
    messages = [d["message"] for d in json.loads((DATA / "eval" / "planner_messages.json").read_text())][:25]
    return {"adaptive_rag": menu, "self_rag": handbook, "crag": handbook, "advanced_rag": handbook, "statute_qa": statute,
            "supervisor": team, "tool_agent": messages}


def main(names: list[str]) -> None:
    specs, asked = default_specs(), questions()
    for name in names or list(asked):
        graph, digest = specs[name].build(InMemorySaver(), None), hashlib.sha256()
        for i, question in enumerate(asked[name]):
            out = graph.invoke(specs[name].graph_input(question),
                               {"configurable": {"thread_id": f"{name}-{i}"}, "recursion_limit": 200})
            digest.update(json.dumps(to_json({key: out.get(key) for key in FIELDS}), sort_keys=True).encode())
        print(name, len(asked[name]), digest.hexdigest()[:16], flush=True)


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
