"""Accuracy of LocalRouter on the labelled routing set ``data/routing_questions.json``.

The routes are the Adaptive RAG graph's own ``ROUTES`` (ragkit.graphs.adaptive_rag), written from what
each corpus holds, not from the routing set; the script checks that no routing question is also a route
example (that would be testing on training data). Reported: accuracy and a confusion table at the
router's default margin and similarity bar, plus a small sweep of the two (for reading, not for picking
the defaults: the set has only 61 questions).

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/router_accuracy.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_result  # noqa: E402

from ragkit.data import load_routing_questions  # noqa: E402
from ragkit.graphs.adaptive_rag import ROUTES  # noqa: E402
from ragkit.roles import LocalRouter  # noqa: E402


def evaluate(router: LocalRouter, items: list[dict]) -> dict:
    decisions = [router.route(item["question"]) for item in items]
    correct = [d.route == item["route"] for d, item in zip(decisions, items)]
    confusion = Counter(f"{item['route']} -> {d.route}" for d, item in zip(decisions, items))
    per_route = {}
    for name in sorted({item["route"] for item in items}):
        sel = [c for c, item in zip(correct, items) if item["route"] == name]
        per_route[name] = round(sum(sel) / len(sel), 4)
    errors = [
        {"question": item["question"], "expected": item["route"], "got": d.route, "note": d.note}
        for d, item, c in zip(decisions, items, correct)
        if not c
    ]
    return {
        "accuracy": round(sum(correct) / len(items), 4),
        "per_route_accuracy": per_route,
        "fallbacks_taken": sum(d.fallback for d in decisions),
        "confusion": dict(sorted(confusion.items())),
        "errors": errors,
    }


def main() -> None:
    items = load_routing_questions()
    examples = {e.strip().lower() for spec in ROUTES for e in spec.examples}
    leaked = [item["question"] for item in items if item["question"].strip().lower() in examples]
    if leaked:
        raise SystemExit(f"routing questions found among the route examples: {leaked}")
    default = LocalRouter(ROUTES, fallback="llm_fallback")
    result = {
        "command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/router_accuracy.py",
        "questions": len(items),
        "routes": "ragkit.graphs.adaptive_rag.ROUTES (fallback llm_fallback)",
        "defaults": {"margin": default.margin, "min_similarity": default.min_similarity},
        "default": evaluate(default, items),
        "majority_baseline": round(max(Counter(i["route"] for i in items).values()) / len(items), 4),
        "sweep": [],
    }
    for margin in (0.0, 0.02, 0.05):
        for bar in (0.0, 0.2, 0.3):
            router = LocalRouter(ROUTES, fallback="llm_fallback", margin=margin, min_similarity=bar, embedder=default.embedder)
            result["sweep"].append({"margin": margin, "min_similarity": bar, "accuracy": evaluate(router, items)["accuracy"]})
    print("accuracy", result["default"]["accuracy"], result["default"]["per_route_accuracy"])
    for s in result["sweep"]:
        print(s)
    for e in result["default"]["errors"]:
        print(e)
    print("written", write_result("roles_router", result))


if __name__ == "__main__":
    main()
