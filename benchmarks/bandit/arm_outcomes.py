"""What each retrieval arm returns for each SciFact TRAIN claim, computed once and cached as JSON.

Per query and arm: the top 4 document ids, the TRUE reward ``hit`` (1 if a qrels-cited abstract is among
the 4, else 0), ``precision`` (cited share of the 4) and the ONLINE reward ``grader`` the pipeline would
see: ``LocalGrader().grade_many(claim, top4)`` relevant share. The replay (``scifact_replay.py``) and
notebook 09 read this file instead of re-running retrieval and the grader.

Arms (the tuned settings of benchmarks/README.md):
- ``dense``: ``DenseRetriever(search_type="mmr", k=8, fetch_k=20)``; MMR picks greedily, so its first 4
  picks are the same whatever k is, and we ask for 4;
- ``bm25``: ``BM25Retriever(k1=1.2, b=0.5)``;
- ``hybrid``: weighted min-max fusion of that BM25 and a plain similarity ``DenseRetriever``, alpha=0.6.

Note: LocalGrader's weights were fitted on SciFact TRAIN pairs (benchmarks/roles/grader_scifact.py, 100
claims, hybrid top 10), so on these claims the grader is, if anything, better than it would be on new ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "datasets" / "scifact"
ARMS_PATH = ROOT / "benchmarks" / "results" / "bandit_scifact_arms.json"
ARMS = ("dense", "bm25", "hybrid")
TOP_K = 4
SETTINGS = {
    "dense": {"retriever": "DenseRetriever", "search_type": "mmr", "k": 8, "fetch_k": 20},
    "bm25": {"retriever": "BM25Retriever", "k1": 1.2, "b": 0.5},
    "hybrid": {"retriever": "HybridRetriever", "method": "weighted", "alpha": 0.6,
               "retrievers": ["bm25 (k1=1.2, b=0.5)", "DenseRetriever(search_type='similarity')"]},
    "top_k": TOP_K,
    "split": "train",
    "grader": "ragkit.offline.graders.LocalGrader() defaults",
}


def build_arms(docs: list) -> dict[str, Any]:
    """The three retrievers over the corpus, as ``{name: retriever}``."""
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.core.dense import DenseRetriever
    from ragkit.core.hybrid import HybridRetriever

    bm25 = BM25Retriever.from_documents(docs, k1=1.2, b=0.5)
    dense_mmr = DenseRetriever.from_documents(docs, search_type="mmr", k=8, fetch_k=20)
    dense_similarity = DenseRetriever.from_documents(docs, embeddings=dense_mmr.embeddings)
    hybrid = HybridRetriever(retrievers=[bm25, dense_similarity], method="weighted", alpha=0.6)
    return {"dense": dense_mmr, "bm25": bm25, "hybrid": hybrid}


def compute(data_dir: Path = DATA, out: Path = ARMS_PATH, limit: int | None = None) -> dict[str, Any]:
    """Run every arm and the grader on every train claim (the first ``limit`` for a smoke test) and write ``out``."""
    from tqdm.auto import tqdm

    from ragkit.evaluation.beir import load_beir
    from ragkit.offline.graders import LocalGrader

    data = load_beir(data_dir, "train")
    docs = data.documents()
    arms = build_arms(docs)
    grader = LocalGrader()
    qids = sorted(data.queries, key=int)[:limit]
    tops = {qid: {name: [doc for doc, _ in arms[name].search_with_scores(data.queries[qid], TOP_K)] for name in ARMS}
            for qid in tqdm(qids, desc="retrieval (train claims x 3 arms)", unit="query")}
    warm_grader_cache(grader, data.queries, tops)
    queries: dict[str, dict[str, Any]] = {}
    for qid in tqdm(qids, desc="grading top 4s", unit="query"):
        text, relevant = data.queries[qid], data.qrels[qid]
        row = {}
        for name in ARMS:
            top = tops[qid][name]
            ids = [doc.metadata["id"] for doc in top]
            cited = [int(relevant.get(i, 0) > 0) for i in ids]
            grades = grader.grade_many(text, top)
            row[name] = {
                "top4": ids,
                "hit": int(any(cited)),
                "precision": sum(cited) / TOP_K,
                "grader": sum(g.relevant for g in grades) / max(len(grades), 1),
            }
        queries[qid] = row
    payload = {
        "command": "HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/bandit/arm_outcomes.py",
        "data": "SciFact (BEIR) train split: 809 claims, 5,183 abstracts; text = title + ' ' + abstract",
        "arms": list(ARMS),
        "settings": SETTINGS,
        "rewards": {
            "hit": "TRUE reward: 1 if any qrels-relevant abstract is in the arm's top 4",
            "precision": "qrels-relevant share of the top 4",
            "grader": "ONLINE reward: LocalGrader relevant share of the top 4 (what the pipeline sees)",
        },
        "queries": queries,
    }
    write_arms(payload, out)
    return payload


def warm_grader_cache(grader: Any, queries: dict[str, str], tops: dict[str, dict[str, list]], chunk: int = 1024) -> None:
    """Embed every text the grader will need (claims, documents, their sentences) in large batches first.

    Only a speed-up: the grader reads the same vectors from ragkit's embedding cache afterwards. Batches
    are committed one by one, so an interrupted run keeps what it embedded.
    """
    from tqdm.auto import tqdm

    from ragkit.core.embeddings import embed
    from ragkit.core.nlp import split_sentences

    texts: dict[str, None] = {}
    for qid, by_arm in tops.items():
        texts.setdefault(queries[qid], None)
        for doc in (d for top in by_arm.values() for d in top):
            texts.setdefault(doc.page_content, None)
            texts.update(dict.fromkeys(split_sentences(doc.page_content)))
    todo = list(texts)
    cache = getattr(grader.embedder, "cache", None)
    if cache is not None:
        todo = [t for t, v in zip(todo, cache.get_many(grader.embedder.model_name, todo)) if v is None]
    todo.sort(key=len)  # similar lengths batch with less padding
    for begin in tqdm(range(0, len(todo), chunk), desc=f"embedding {len(todo):,} grader texts", unit="batch"):
        embed(grader.embedder, todo[begin : begin + chunk])


def write_arms(payload: dict[str, Any], out: Path = ARMS_PATH) -> None:
    """One line per query, so the file stays small and diffs stay readable."""
    head = {k: v for k, v in payload.items() if k != "queries"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "queries": {']
    items = sorted(payload["queries"].items(), key=lambda kv: int(kv[0]))
    for n, (qid, row) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        lines.append(f"  {json.dumps(qid)}: {json.dumps(row, sort_keys=True)}{comma}")
    lines.append("}}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_arms(path: Path = ARMS_PATH) -> dict[str, Any]:
    """The cached outcomes (FileNotFoundError with the command to make them)."""
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run benchmarks/bandit/scifact_replay.py --recompute-arms")
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    compute()
