"""The advanced pipeline, CRAG and Self-RAG side by side on the same SQuAD 2.0 questions and the same retriever.

The protocol of ``benchmarks/crag/squad2_eval.py`` and ``benchmarks/self_rag/squad2_eval.py``: the index
holds every paragraph of the 16 articles of the CS224N labelled half of SQuAD 2.0 dev; articles 0-7 are the
tuning split, 8-15 the report split. Questions: CRAG's seeded samples (its ``samples`` function, ``--n`` per
category): answerable; unanswerable (SQuAD 2.0 "impossible", same topic); and answerable questions whose
whole article is removed from the index ("removed").

Every system searches ``ragkit.core.hybrid.default_retriever`` (weighted BM25 + MiniLM fusion; the
CRAG and Self-RAG scripts build an RRF hybrid, the graphs' default when they were written, so their saved
figures differ from these). Systems:

- ``advanced``: ``build_advanced_rag_graph`` with its defaults (local roles; Thompson sampling over the arms
  dense / bm25 / hybrid, where hybrid is the default retriever; local query transforms; the
  CrossEncoderReranker, which without weights on this machine is the LocalReranker). One bandit per system
  learns across all its questions, in the order answerable, unanswerable, removed;
- ``advanced_no_rerank``: the same with ``rerank=False`` (the fused top 4);
- ``advanced_no_transform``: the same with a query transformer that adds nothing (no alternatives, no
  hypothetical document: the question alone is searched, and a retrieval retry searches it again);
- ``advanced_hybrid_only``: one arm, the default retriever (no bandit choice), to compare on the same retriever;
- ``crag``: ``build_crag_graph`` with LocalJudge (its tuned defaults) and LocalReranker, fetch 12 -> 4;
- ``self_rag``: ``build_self_rag_graph`` with local roles, k=4.

Measured per category: answered (an answer shown), verified (it passed the graph's checks), gold answer in
the answer (answerable), refused (no answer shown); the share of questions whose first answer failed the
hallucination check (the retry trigger: advanced ``generation_retries``, Self-RAG "not grounded", CRAG
``revise``); for the advanced graph, the retrieval-retry share, chitchat share, arm shares and per-node
latency p50/p95. Aggregates only: no per-question result is written (articles 8-15 were read item by item
in an earlier session, so every figure on them is dev-grade).

Run from the project root (slow: about 2 s per question per system on 2 idle cores):
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/squad2_compare.py --split tune --n 30
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/squad2_compare.py --split report --n 100
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "advanced"))

from common import datasets_dir, sha256  # noqa: E402

from ragkit.bandit import ThompsonSampling  # noqa: E402
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import default_retriever
from ragkit.core.rerank import LocalReranker
from ragkit.graphs.advanced_rag import build_advanced_rag_graph, default_arms  # noqa: E402
from ragkit.graphs.crag import build_crag_graph, run_crag  # noqa: E402
from ragkit.graphs.self_rag import build_self_rag_graph  # noqa: E402
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.judge import LocalJudge
from ragkit.offline.small_talk import LocalIntentClassifier, LocalQueryTransformer
from ragkit.offline.writing import LocalRewriter, LocalWriter

DATA = datasets_dir() / "squad2" / "dev-v2.0_cs224n_half.json"
OUT = ROOT / "benchmarks" / "results" / "advanced_squad2_{split}.json"
SYSTEMS = ("crag", "self_rag", "advanced", "advanced_no_rerank", "advanced_no_transform", "advanced_hybrid_only")
K, CRAG_FETCH_K = 4, 12


def crag_protocol():
    """CRAG's benchmark module (its loader, splits and seeded samples), imported from its file."""
    spec = importlib.util.spec_from_file_location("crag_squad2_eval", ROOT / "benchmarks" / "crag" / "squad2_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


class Systems:
    """Builds each system's graph over an index (all articles, or all but one), sharing roles and one bandit."""

    def __init__(self, articles: list[dict], embedder) -> None:
        self.articles, self.embedder = articles, embedder
        e = embedder
        self.roles = {"grader": LocalGrader(embedder=e), "writer": LocalWriter(embedder=e),
                      "hallucination_grader": LocalHallucinationGrader(embedder=e), "rewriter": LocalRewriter(),
                      "answer_grader": LocalAnswerGrader(embedder=e)}
        self.intent, self.transformer = LocalIntentClassifier(embedder=e), LocalQueryTransformer(embedder=e)
        self.no_transform = LocalQueryTransformer(embedder=e, n_alternatives=0, hypothetical_sentences=0)
        self.reranker = LocalReranker(top_n=K, embeddings=e)
        self.judge = LocalJudge(grader=self.roles["grader"])
        self.bandits = {"advanced": ThompsonSampling(["dense", "bm25", "hybrid"], seed=0),
                        "advanced_no_rerank": ThompsonSampling(["dense", "bm25", "hybrid"], seed=0),
                        "advanced_no_transform": ThompsonSampling(["dense", "bm25", "hybrid"], seed=0),
                        "advanced_hybrid_only": ThompsonSampling(["hybrid"], seed=0)}
        self.indexes: dict[int | None, dict] = {}
        self.graphs: dict[tuple[str, int | None], object] = {}

    def index(self, removed: int | None) -> dict:
        if removed not in self.indexes:
            docs = [d for i, a in enumerate(self.articles) if i != removed for d in a["docs"]]
            arms = default_arms(docs, self.embedder)
            self.indexes[removed] = {"arms": arms, "default": default_retriever(docs, k=K, embeddings=self.embedder)}
        return self.indexes[removed]

    def graph(self, system: str, removed: int | None):
        key = (system, removed)
        if key not in self.graphs:
            index, r = self.index(removed), self.roles
            if system.startswith("advanced"):
                arms = {"hybrid": index["default"]} if system == "advanced_hybrid_only" else index["arms"]
                self.graphs[key] = build_advanced_rag_graph(
                    arms=arms, bandit=self.bandits[system], intent_classifier=self.intent,
                    query_transformer=self.no_transform if system == "advanced_no_transform" else self.transformer, grader=r["grader"], writer=r["writer"],
                    hallucination_grader=r["hallucination_grader"], embeddings=self.embedder,
                    rerank=system != "advanced_no_rerank")
            elif system == "crag":
                self.graphs[key] = build_crag_graph(retriever=index["default"], judge=self.judge, reranker=self.reranker,
                                                    writer=r["writer"], verifier=r["hallucination_grader"],
                                                    rewriter=r["rewriter"], k=K, fetch_k=CRAG_FETCH_K)
            else:
                self.graphs[key] = build_self_rag_graph(retriever=index["default"], k=K, **{
                    name: r[name] for name in ("grader", "rewriter", "writer", "hallucination_grader", "answer_grader")})
        return self.graphs[key]


def run_one(system: str, graph, question: str, thread_id: str) -> dict:
    """One run: did it answer, was the answer verified, and did the first answer fail the hallucination check?"""
    if system == "crag":
        out = run_crag(graph, question, thread_id=thread_id)
        answered = "__interrupt__" not in out and out.get("outcome") == "answered"
        return {"answered": answered, "verified": answered, "text": out.get("answer", "") if answered else "",
                "hallucination_retry": "revise" in out.get("path", []), "timings": out.get("timings", [])}
    if system == "self_rag":
        ungrounded = False
        final: dict = {}
        for update in graph.stream({"question": question}, stream_mode="updates"):
            for node, change in update.items():
                final.update({k: v for k, v in change.items() if k not in ("path", "timings")})
                final.setdefault("timings", []).extend(change.get("timings", []))
                if node == "grade_generation" and final["draft"].answered and not change["grounded"]:
                    ungrounded = True
        answered = bool(final.get("draft") and final["draft"].answered)  # the writer answered (checked or not)
        return {"answered": answered, "verified": answered and not final.get("gave_up", True),
                "text": final["generation"] if answered else "", "hallucination_retry": ungrounded,
                "timings": final["timings"]}
    out = graph.invoke({"question": question})
    answered = bool(out.get("draft") and out["draft"].answered)  # the writer answered (checked or not)
    return {"answered": answered, "verified": bool(out.get("verified")), "text": out["generation"] if answered else "",
            "hallucination_retry": out.get("generation_retries", 0) > 0, "timings": out["timings"],
            "retrieval_retry": out.get("retrieval_retries", 0) > 0, "chitchat": out.get("route") == "chitchat",
            "arms": out.get("arms_used", []), "reranker": out.get("metadata", {}).get("reranker")}


def percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    pick = lambda q: values[min(len(values) - 1, int(round(q * (len(values) - 1))))]  # noqa: E731
    return {"p50_ms": round(1000 * statistics.median(values), 1), "p95_ms": round(1000 * pick(0.95), 1), "n": len(values)}


def evaluate(split: str, n: int, seed: int, systems: list[str], save: Callable[[dict], None] = lambda r: None) -> dict:
    crag = crag_protocol()
    articles = crag.load_squad(DATA)
    cases = crag.samples(articles, split, n, seed)
    builder = Systems(articles, load_embedder())
    results: dict[str, dict] = {}
    for system in systems:
        start = time.perf_counter()
        per_category, node_times, arm_counts, rerankers = {}, defaultdict(list), Counter(), Counter()
        for category, questions in cases.items():
            counts = Counter()
            for i, q in enumerate(questions):
                graph = builder.graph(system, q["article"] if category == "removed" else None)
                out = run_one(system, graph, q["question"], f"{system}-{category}-{i}")
                counts["answered"] += out["answered"]
                counts["verified"] += out["verified"]
                counts["refused"] += not out["answered"]
                counts["hallucination_retry"] += out["hallucination_retry"]
                if category == "answerable":
                    counts["gold_in_answer"] += out["answered"] and any(a.lower() in out["text"].lower() for a in q["answers"])
                    counts["gold_in_verified_answer"] += out["verified"] and any(a.lower() in out["text"].lower() for a in q["answers"])
                if system.startswith("advanced"):
                    counts["retrieval_retry"] += out["retrieval_retry"]
                    counts["chitchat"] += out["chitchat"]
                    arm_counts.update(out["arms"])
                    rerankers[out["reranker"]] += 1
                for node, seconds in out["timings"]:
                    node_times[node].append(seconds)
            per_category[category] = {"n": len(questions), **{k: round(v / len(questions), 4) for k, v in sorted(counts.items())}}
            print(system, category, per_category[category], flush=True)
        row = {"categories": per_category, "node_latency": {node: percentiles(v) for node, v in sorted(node_times.items())},
               "seconds": round(time.perf_counter() - start, 1)}
        if system.startswith("advanced"):
            total = sum(arm_counts.values())
            row["arm_share_of_searches"] = {arm: round(c / total, 4) for arm, c in sorted(arm_counts.items())}
            row["bandit_stats_at_end"] = builder.bandits[system].stats()
            row["reranker_backend"] = dict(rerankers)
        results[system] = row
        save(results)  # after each system, so a long run that is stopped keeps what it measured
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "report"], default="tune")
    parser.add_argument("--n", type=int, default=30, help="questions per category")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--systems", nargs="+", default=list(SYSTEMS), choices=SYSTEMS)
    parser.add_argument("--out", type=Path, default=None, help="results file (default benchmarks/results/advanced_squad2_<split>.json)")
    args = parser.parse_args()
    out = args.out or Path(str(OUT).format(split=args.split))

    def save(results: dict) -> None:
        payload = header(args) | {"systems_done": list(results), "complete": len(results) == len(args.systems),
                                  "results": results}
        out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="CrossEncoderReranker")  # recorded as reranker_backend instead
        evaluate(args.split, args.n, args.seed, args.systems, save)
    print("written", out.resolve().relative_to(ROOT) if out.resolve().is_relative_to(ROOT) else out)


def header(args: argparse.Namespace) -> dict:
    """What a results file says about its run: command, data hash, split and protocol."""
    return {
        "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/squad2_compare.py --split {args.split} --n {args.n}"
                   + (f" --seed {args.seed}" if args.seed else "")
                   + ("" if args.systems == list(SYSTEMS) else " --systems " + " ".join(args.systems)),
        "dataset": "SQuAD 2.0 dev, CS224N labelled half (16 articles); index = paragraphs of all 16 articles "
                   "(minus the question's article for 'removed')",
        "sha256": {DATA.name: sha256(DATA)},
        "split": ("articles 8-15: report split, but read item by item in an earlier session, so DEV-GRADE"
                  if args.split == "report" else "articles 0-7: the tuning split"),
        "questions": f"CRAG's seeded samples (benchmarks/crag/squad2_eval.py samples(), seed {args.seed}), n={args.n} per category",
        "retriever": "ragkit.core.hybrid.default_retriever for CRAG, Self-RAG and the advanced graph's hybrid arm",
        "rates": "shares of the category's questions; gold_in_answer: answered with a gold answer string in it",
    }


if __name__ == "__main__":
    main()
