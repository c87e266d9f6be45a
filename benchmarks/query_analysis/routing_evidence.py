"""Does structured evidence help Adaptive RAG route? LocalRouter alone vs. the graph's route_question node.

Adaptive RAG's ``route_question`` node asks the router, then lets code dispose: when exactly one structured
route's corpus explains the whole question (``QueryAnalysis.covered``: a list, winner, yes/no or
comparison with no word left over) and the router chose another route, the question goes there. This
script measures the route chosen with and without that rule on the three routing sets:

- ``data/routing_dev.json`` (dev: every changed question is printed);
- ``data/routing_questions.json`` (test after error analysis in an earlier session: aggregates only);
- ``data/eval/routing_blind.json`` (blind, frozen: aggregates only, sha256 recorded).

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/routing_evidence.py   (--dev-only: dev set only)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.domains.menu.routes import ROUTES, load_route_documents, menu_sources  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.graphs.adaptive_rag import structured_evidence  # noqa: E402
from ragkit.offline.router import LocalRouter  # noqa: E402
from ragkit.roles.structured_query import StructuredSearch  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "query_analysis_routing.json"


def main(argv: list[str] | None = None) -> int:
    dev_only = "--dev-only" in (sys.argv[1:] if argv is None else argv)
    router = LocalRouter(ROUTES, fallback="llm_fallback", documents=load_route_documents())
    structured = {n: s for n, s in menu_sources().items() if isinstance(s, StructuredSearch)}
    sets = {"dev": (json.loads((ROOT / "data" / "routing_dev.json").read_text()), None),
            "test_after_error_analysis": (json.loads((ROOT / "data" / "routing_questions.json").read_text()), None),
            "blind": load_goldset("routing_blind.json")}
    if dev_only:
        sets = {"dev": sets["dev"]}
    results = {}
    for name, (items, digest) in sets.items():
        right_router = right_graph = changed = changed_right = changed_wrong = 0
        for item in items:
            q, gold = item["question"], item["route"]
            proposed = router.route(q).route
            explained = structured_evidence(q, structured)
            final = explained[0] if len(explained) == 1 and proposed != explained[0] else proposed
            right_router += proposed == gold
            right_graph += final == gold
            if final != proposed:
                changed += 1
                changed_right += final == gold
                changed_wrong += proposed == gold
                if name == "dev":
                    print(f"dev: {proposed} -> {final} (gold {gold}): {q}")
        n = len(items)
        results[name] = {"n": n, "router_accuracy": round(right_router / n, 4), "graph_accuracy": round(right_graph / n, 4),
                         "changed": changed, "changed_to_right": changed_right, "changed_from_right": changed_wrong}
        if digest:
            results[name]["sha256"] = digest
        print(name, results[name])
    payload = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/routing_evidence.py",
               "router": "LocalRouter(ROUTES, documents=load_route_documents()) with its defaults",
               "rule": "route_question: if exactly one structured route's analysis is covered and the router chose another, take it",
               "results": results}
    if not dev_only:
        OUT.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print("saved", OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
