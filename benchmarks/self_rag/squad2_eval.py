"""Measure the Self-RAG graph (local roles) on SQuAD 2.0, and say why each run that did not answer gave up.

The index holds the paragraphs of the 16 articles of the CS224N labelled half of SQuAD 2.0 dev (one
Document per paragraph), searched with ragkit's hybrid retriever (BM25 + MiniLM, RRF, k=4), the same
set-up as the Self-RAG default over the handbook. Articles 0-7 are for choosing anything, 8-15 are
held out. Three categories, each a seeded sample of ``--n`` questions per split:

- answerable: should end with a verified answer (not ``gave_up``); we also count how often a gold
  answer string appears in it;
- removed: answerable questions whose whole article was taken out of the index: a verified answer here
  is (almost always) a false answer, so this rate should stay low;
- unanswerable: SQuAD 2.0 "impossible" questions (same topic, answer absent), reported for honesty.

For every run that did not end with a verified answer, the cause of its LAST failed check is counted:
``retrieval`` (the gold paragraph was never retrieved), ``document grader`` (retrieved but rejected),
``writer refused``, ``not grounded``, ``not useful`` (answer grader), for answerable questions only.

Run from the project root:
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/self_rag/squad2_eval.py --split held_out --save
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from langchain_core.documents import Document

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import HybridRetriever
from ragkit.graphs.self_rag import build_self_rag_graph  # noqa: E402
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.writing import LocalRewriter, LocalWriter

DATA = ROOT.parent / "shared" / "datasets" / "squad2" / "dev-v2.0_cs224n_half.json"
OUT = ROOT / "benchmarks" / "results" / "self_rag_squad2.json"
SPLITS = {"tune": range(0, 8), "held_out": range(8, 16)}
K = 4


def load_squad(path: Path = DATA) -> list[dict]:
    """The 16 articles: paragraph Documents (id "article-paragraph") and questions with their gold paragraph."""
    articles = []
    for a, article in enumerate(json.loads(path.read_text(encoding="utf-8"))["data"]):
        docs, questions = [], []
        for p, para in enumerate(article["paragraphs"]):
            docs.append(Document(para["context"], metadata={"id": f"{a}-{p}", "title": article["title"]}))
            for qa in para["qas"]:
                questions.append({"article": a, "gold_id": f"{a}-{p}", "question": qa["question"],
                                  "impossible": qa["is_impossible"], "answers": sorted({x["text"] for x in qa["answers"]})})
        articles.append({"docs": docs, "questions": questions})
    return articles


def hybrid(docs: list[Document], embedder) -> HybridRetriever:
    """BM25 + dense fused with RRF (k=60, equal weights: the graphs' default when these numbers were measured)."""
    return HybridRetriever(retrievers=[BM25Retriever.from_documents(docs, k=K), DenseRetriever.from_documents(docs, embedder, k=K)],
                           method="rrf", alpha=0.5, k=K)


def run_traced(graph, question: str, gold_id: str | None) -> dict:
    """Run the graph once, streaming updates, and name the cause of the last failed check."""
    retrieved, kept, cause, final = set(), set(), None, {}
    answered = False
    for update in graph.stream({"question": question}, stream_mode="updates"):
        for node, change in update.items():
            final.update(change)
            if node == "retrieve":
                retrieved |= {d.metadata["id"] for d in change["retrieved"]}
            elif node == "grade_documents":
                kept |= {d.metadata["id"] for d in change["documents"]}
            elif node == "generate":
                answered = change["draft"].answered
            elif node == "grade_generation" and not (change["grounded"] and change["useful"]):
                if gold_id is not None and gold_id not in retrieved:
                    cause = "retrieval"
                elif gold_id is not None and gold_id not in kept:
                    cause = "document grader"
                elif not answered:
                    cause = "writer refused"
                else:
                    cause = "not grounded" if not change["grounded"] else "not useful"
    rejected = final.get("rejected") or []
    return {"verified": not final.get("gave_up", True) and final.get("outcome") == "answered", "cause": cause,
            "generation": final.get("generation", ""), "fallback": bool(final.get("relevance_fallback")),
            "best_rejected": rejected[0][0] if rejected else None}


def evaluate(split: str, n: int, seed: int, fallback_documents: int | None = None, verbose: bool = False,
             dump: list | None = None) -> dict:
    articles, embedder = load_squad(), load_embedder()
    roles = dict(grader=LocalGrader(embedder=embedder), rewriter=LocalRewriter(), writer=LocalWriter(embedder=embedder),
                 hallucination_grader=LocalHallucinationGrader(embedder=embedder),
                 answer_grader=LocalAnswerGrader(embedder=embedder))
    if fallback_documents is not None:  # None: the builder's default
        roles["fallback_documents"] = fallback_documents
    everything = build_self_rag_graph(retriever=hybrid([d for a in articles for d in a["docs"]], embedder), **roles)
    without: dict[int, object] = {}
    pool = [q for a in SPLITS[split] for q in articles[a]["questions"]]
    rng = random.Random(seed)
    answerable = [q for q in pool if not q["impossible"]]
    cases = {"answerable": rng.sample(answerable, n), "removed": rng.sample(answerable, n),
             "unanswerable": rng.sample([q for q in pool if q["impossible"]], n)}
    results: dict[str, dict] = {}
    for category, questions in cases.items():
        verified = gold_hits = 0
        causes: Counter = Counter()
        for q in questions:
            graph = everything
            if category == "removed":
                if q["article"] not in without:
                    docs = [d for i, a in enumerate(articles) if i != q["article"] for d in a["docs"]]
                    without[q["article"]] = build_self_rag_graph(retriever=hybrid(docs, embedder), **roles)
                graph = without[q["article"]]
            out = run_traced(graph, q["question"], q["gold_id"] if category == "answerable" else None)
            verified += out["verified"]
            if out["verified"] and category == "answerable":
                gold_hits += any(g.lower() in out["generation"].lower() for g in q["answers"])
            if not out["verified"] and category == "answerable":
                causes[out["cause"] or "unknown"] += 1
            if verbose:
                print(f"{category:12} verified={out['verified']!s:5} cause={out['cause']} {q['question']!r}")
            if dump is not None:
                gold = any(g.lower() in out["generation"].lower() for g in q["answers"]) if category != "unanswerable" else None
                dump.append({"category": category, "question": q["question"], "gold_in_answer": gold, **out})
        row = {"n": len(questions), "verified_answer_rate": round(verified / len(questions), 4)}
        if category == "answerable":
            row["gold_in_verified_answer"] = round(gold_hits / max(verified, 1), 4)
            row["causes_of_no_verified_answer"] = dict(sorted(causes.items()))
        results[category] = row
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=sorted(SPLITS), default="tune")
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fallback-documents", type=int, default=None, help="override the graph's default")
    parser.add_argument("--save", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--dump", type=Path, help="write one JSON line per run (question, outcome, cause) to this file")
    args = parser.parse_args()
    dump: list | None = [] if args.dump else None
    results = evaluate(args.split, args.n, args.seed, args.fallback_documents, args.verbose, dump)
    if args.dump:
        args.dump.write_text("".join(json.dumps(row) + "\n" for row in dump), encoding="utf-8")
    print(json.dumps(results, indent=2))
    if args.save:
        payload = {"command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/self_rag/squad2_eval.py --split {args.split} --n {args.n} --save",
                   "dataset": "SQuAD 2.0 dev, CS224N labelled half (16 articles; 0-7 tune, 8-15 held out)",
                   "split": args.split, "seed": args.seed, "fallback_documents": "default" if args.fallback_documents is None else args.fallback_documents,
                   "results": results}
        OUT.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print("written", OUT)


if __name__ == "__main__":
    main()
