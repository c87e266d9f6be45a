"""How often do the graphs answer structured menu and wine questions exactly right?

Gold set: ``data/eval/menu_structured.json`` (frozen; answers computed from the data by
``make_menu_gold.py``). Scoring: :mod:`scoring` (every required item named, no excluded item named,
the right polarity for yes/no and comparison questions).

Graphs, all with their offline defaults (no chat model):

- ``adaptive``: ``build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)`` (the
  router picks the source, so a routing mistake counts);
- ``crag``: ``build_crag_graph(menu_search(), **menu_roles())`` (``wine_search()`` for a wine item): the
  item's corpus, with the writer and judge that read a question's structure; a pause to ask back counts
  as not answered;
- ``self_rag``: ``build_self_rag_graph(search, **menu_roles(judge=False))``.

``--split dev`` prints every item (the dev split is for building the scorer and the analyser); ``--split
test`` prints and writes aggregates only, never an item. ``--label`` names the run ("before": the graphs
at main's code before issue 8; "after": this branch), and the run is stored under that label in
``benchmarks/results/query_analysis_menu.json`` together with the set's sha256.

Run from the project folder::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/menu_eval.py --split test --label before
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import score  # noqa: E402

from ragkit.domains.menu.corpus import menu_search, wine_search  # noqa: E402
from ragkit.domains.menu.roles import menu_roles  # noqa: E402
from ragkit.domains.menu.vocabulary import menu_query_analyzer  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402

GOLD = "menu_structured.json"
OUT = ROOT / "benchmarks" / "results" / "query_analysis_menu.json"
GRAPHS = ("adaptive", "crag", "self_rag")
EXTRA = ("crag_structured", "self_rag_structured")  # not defaults: the same graphs given a StructuredRetriever
SEARCHES = {"menu": menu_search, "wine": wine_search}  # an item's corpus -> its default search
CATEGORIES = ("superlative", "exclusion", "allergen", "comparison", "price_bound", "combined")


def item_names() -> dict[str, str]:
    """Every dish and wine id -> its name, read from the data files."""
    menu = json.loads((ROOT / "data" / "menu.json").read_text(encoding="utf-8"))
    wines = json.loads((ROOT / "data" / "wines.json").read_text(encoding="utf-8"))
    return {r["id"]: r["name"] for r in menu["dishes"] + wines["wines"]}


def graph_runner(name: str) -> Callable[[dict], str]:
    """A function from a gold item to the graph's final answer text."""
    if name == "adaptive":
        from ragkit.domains.menu.routes import OFFLINE_FALLBACK, ROUTES, menu_sources
        from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph

        graph = build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK)
        return lambda item: graph.invoke({"question": item["question"]}).get("answer", "")
    if name == "crag":
        from ragkit.graphs.crag import build_crag_graph, run_crag

        graphs = {c: build_crag_graph(search(), **menu_roles()) for c, search in SEARCHES.items()}

        def crag(item: dict) -> str:
            out = run_crag(graphs[item["corpus"]], item["question"], thread_id=item["id"])
            return "" if "__interrupt__" in out else out.get("answer", "")

        return crag
    if name in EXTRA:
        from ragkit.domains.corpora import load_corpus
        from ragkit.graphs.crag import build_crag_graph, run_crag
        from ragkit.graphs.self_rag import build_self_rag_graph
        from ragkit.offline.structured import StructuredRetriever

        retrievers = {c: StructuredRetriever.from_documents(docs, analyzer=menu_query_analyzer(docs))
                      for c in ("menu", "wine") for docs in [load_corpus(c)]}
        if name == "crag_structured":
            graphs = {c: build_crag_graph(r) for c, r in retrievers.items()}

            def crag_s(item: dict) -> str:
                out = run_crag(graphs[item["corpus"]], item["question"], thread_id=item["id"])
                return "" if "__interrupt__" in out else out.get("answer", "")

            return crag_s
        graphs = {c: build_self_rag_graph(r) for c, r in retrievers.items()}
        return lambda item: graphs[item["corpus"]].invoke({"question": item["question"]}).get("generation", "")
    if name == "self_rag":
        from ragkit.graphs.self_rag import build_self_rag_graph

        graphs = {c: build_self_rag_graph(search(), **menu_roles(judge=False)) for c, search in SEARCHES.items()}
        return lambda item: graphs[item["corpus"]].invoke({"question": item["question"]}).get("generation", "")
    raise ValueError(f"unknown graph {name!r}")


def evaluate(items: list[dict], graph: str, names: dict[str, str], show: bool) -> dict[str, Any]:
    run = graph_runner(graph)
    right, total, reasons = Counter(), Counter(), Counter()
    start = time.perf_counter()
    for item in items:
        answer = run(item)
        ok, reason = score(item, answer, names)
        right[item["category"]] += ok
        total[item["category"]] += 1
        reasons[reason] += 1
        if show:  # dev split only
            print(f"[{graph}] {item['id']} {'OK ' if ok else 'BAD'} {reason:32s} {item['question']}\n      -> {answer[:300]}")
    per_category = {c: {"right": right[c], "n": total[c], "share": round(right[c] / total[c], 4)}
                    for c in CATEGORIES if total[c]}
    n = sum(total.values())
    return {"share_exactly_right": round(sum(right.values()) / n, 4), "right": sum(right.values()), "n": n,
            "per_category": per_category, "reasons": dict(sorted(reasons.items())),
            "seconds": round(time.perf_counter() - start, 1)}


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--label", default=None, help="store the run under this label (e.g. before, after)")
    parser.add_argument("--graphs", nargs="+", choices=GRAPHS + EXTRA, default=list(GRAPHS))
    args = parser.parse_args(argv)
    items, digest = load_goldset(GOLD)
    items = [i for i in items if i["split"] == args.split]
    names = item_names()
    results = {}
    for graph in args.graphs:
        results[graph] = {**evaluate(items, graph, names, show=args.split == "dev"), "commit": git_commit()}
        r = results[graph]
        print(f"{graph:9s} exactly right {r['right']}/{r['n']} = {r['share_exactly_right']:.3f}  "
              + "  ".join(f"{c} {v['right']}/{v['n']}" for c, v in r["per_category"].items()))
    if args.label:
        payload = json.loads(OUT.read_text(encoding="utf-8")) if OUT.is_file() else {}
        payload.update({"gold_set": f"data/eval/{GOLD}", "sha256": digest,
                        "measure": "share of questions answered exactly right (benchmarks/query_analysis/scoring.py)",
                        "graphs": {"adaptive": "build_adaptive_rag_graph(menu_sources(), routes=ROUTES, "
                                               "fallback_text=OFFLINE_FALLBACK) (router included)",
                                   "crag": "build_crag_graph(menu_search() or wine_search(), **menu_roles())",
                                   "self_rag": "build_self_rag_graph(menu_search() or wine_search(), **menu_roles(judge=False))",
                                   "crag_structured": "NOT a default: build_crag_graph(StructuredRetriever over the item corpus)",
                                   "self_rag_structured": "NOT a default: build_self_rag_graph(StructuredRetriever over the item corpus)"}})
        runs = payload.setdefault("runs", {})
        runs.setdefault(args.label, {})[args.split] = {
            "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/menu_eval.py --split {args.split} "
                       f"--label {args.label}" + (f" --graphs {' '.join(args.graphs)}" if args.graphs != list(GRAPHS) else ""),
            "commit": git_commit(), "results": {**runs.get(args.label, {}).get(args.split, {}).get("results", {}), **results}}
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print("saved", OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
