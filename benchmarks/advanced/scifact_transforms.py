"""Do the local query transforms help retrieval? SciFact: none vs multi-query vs local HyDE vs both.

The retrievers are those of ``ragkit bench retrieval`` (``ragkit.core.hybrid`` with
``ragkit.defaults.RETRIEVAL``): ``hybrid`` (the README's row and the graphs' default), plus ``bm25`` and
``dense`` as the weaker first stages. For each claim:

- ``none``: the retriever's top 100 for the claim (for hybrid this reproduces the README's figures);
- ``multi_query``: the claim plus the :class:`~ragkit.offline.small_talk.LocalQueryTransformer`'s
  pseudo-relevance-feedback alternatives, each searched 100 deep, the lists fused;
- ``hyde``: the claim plus the local "hypothetical document" (the best sentences of the first pass);
- ``both``: all of them, which is what the advanced graph searches.

The first pass is the retriever's own top ``first_pass_k`` for the claim. The lists are fused exactly as the
graph fuses them (:func:`ragkit.graphs.advanced_rag.weighted_queries` and ``fuse``; the script checks a
sample against :func:`ragkit.graphs.advanced_rag.search_queries`). nDCG@10 and Recall@100.

``--split train`` (the 809 train claims) grid-searches the transform's knobs (feedback terms, sentences in
the passage, fusion method, weight of the claim's own list, weight of the passage's list) per retriever and
mode, and writes every row; the best row by train nDCG@10 is the setting. ``--split test`` (300 claims)
reports each mode with the settings chosen on train, plus the paired difference to ``none`` with a
bootstrap 95% interval over claims (aggregates only: no per-claim result is written).

Run from the project root (about 20 minutes for train, 8 for test, on 2 busy cores):
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/scifact_transforms.py --split train
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/scifact_transforms.py --split test
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "advanced"))

from common import datasets_dir, sha256  # noqa: E402

from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import bm25_retriever, dense_retriever, fuse, fused
from ragkit.core.search import ScoredRetriever, doc_key
from ragkit.defaults import ADVANCED, RETRIEVAL  # noqa: E402
from ragkit.evaluation.beir import load_beir
from ragkit.evaluation.ir_metrics import ndcg_at_k, recall_at_k
from ragkit.graphs.advanced_rag import search_queries, weighted_queries
from ragkit.offline.small_talk import LocalQueryTransformer
from ragkit.roles.llm_queries import QueryTransform

DATA = datasets_dir() / "scifact"
OUT = {"train": ROOT / "benchmarks" / "results" / "advanced_transforms_train.json",
       "test": ROOT / "benchmarks" / "results" / "advanced_transforms_test.json"}
DEPTH = 100
RETRIEVERS = ("hybrid", "bm25", "dense")
MODES = ("none", "multi_query", "hyde", "both")
GRID = {"prf_terms": (3, 10), "hypothetical_sentences": (1, 3), "fusion": ("rrf", "weighted"),
        "original_weight": (1.0, 2.0, 4.0), "hypothetical_weight": (0.5, 1.0)}
DEFAULT_SETTING = {"prf_terms": ADVANCED.prf_terms, "hypothetical_sentences": ADVANCED.hypothetical_sentences,
                   "fusion": ADVANCED.fusion, "original_weight": ADVANCED.original_weight,
                   "hypothetical_weight": ADVANCED.hypothetical_weight}


def set_hashes(split: str) -> dict[str, str]:
    return {name: sha256(DATA / name) for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv")}


class VectorLookup(ScoredRetriever):
    """The dense retriever, reading query vectors embedded in one batch per claim (``vectors``) when it has them.

    Only a speed-up on a shared machine: a batch is embedded in one forward pass instead of one per query,
    without the embedding cache (queries are new); the vectors are the same up to float rounding.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    dense: Any
    vectors: dict = Field(default_factory=dict)

    def search_with_scores(self, query: str, k: int | None = None):
        query, k = self._prepare(query, k)
        q = self.vectors.get(query)
        q = self.dense.query_vector(query) if q is None else q.reshape(1, -1)
        sims, ids = self.dense.search_vectors(q, k)
        return [(self.dense.docs[int(i)], float(v)) for v, i in zip(sims, ids) if i >= 0]


def build_retrievers(docs: list, embedder) -> tuple[dict, VectorLookup]:
    """The benchmark's systems, built as ``ragkit bench retrieval`` builds them (100 deep)."""
    bm25 = bm25_retriever(docs, DEPTH, RETRIEVAL)
    dense = VectorLookup(dense=dense_retriever(docs, DEPTH, embedder), k=DEPTH)
    return {"bm25": bm25, "dense": dense, "hybrid": fused(bm25, dense, k=DEPTH, settings=RETRIEVAL, fetch_k=DEPTH)}, dense


def keyed(hits) -> list[tuple[str, float]]:
    return [(doc_key(d), float(s)) for d, s in hits]


def collect(retrievers: dict, lookup: VectorLookup, questions: dict[str, str], grids: dict[str, dict],
            embedder) -> dict[str, dict[str, dict]]:
    """Per retriever and claim: the claim's own list (and first pass), and the list of every alternative and
    passage the grid needs."""
    from tqdm.auto import tqdm

    from ragkit.core.embeddings import load_embedder as fresh_embedder

    batch = fresh_embedder(cache=False)
    transformers = {name: {**{("alt", t): LocalQueryTransformer(embedder, prf_terms=t, hypothetical_sentences=0)
                              for t in grid["prf_terms"]},
                           **{("hyp", s): LocalQueryTransformer(embedder, n_alternatives=0, hypothetical_sentences=s)
                              for s in grid["hypothetical_sentences"]}} for name, grid in grids.items()}
    out: dict[str, dict[str, dict]] = {name: {} for name in grids}
    for qid, question in tqdm(questions.items(), desc="claims", unit="claim"):
        lookup.vectors = {question: batch.embed_array([question])[0]}
        rows, pending = {}, set()
        for name in grids:
            base = retrievers[name].search_with_scores(question, DEPTH)
            first = [d for d, _ in base[: ADVANCED.first_pass_k]]
            rows[name] = {"question": question, "base": keyed(base), "alt": {}, "hyp": {}}
            for (kind, value), transformer in transformers[name].items():
                t = transformer.transform(question, first)
                rows[name][kind][value] = list(t.queries) if kind == "alt" else t.hypothetical
                pending.update(t.queries if kind == "alt" else [t.hypothetical] if t.hypothetical else [])
        texts = sorted(pending)
        lookup.vectors.update(zip(texts, batch.embed_array(texts)))
        for name, row in rows.items():
            search = retrievers[name]
            row["alt"] = {t: [(q, keyed(search.search_with_scores(q, DEPTH))) for q in qs] for t, qs in row["alt"].items()}
            row["hyp"] = {s: (h, keyed(search.search_with_scores(h, DEPTH)) if h else []) for s, h in row["hyp"].items()}
            out[name][qid] = row
    lookup.vectors = {}
    return out


def fused_run(rows: dict[str, dict], mode: str, setting: dict) -> dict[str, list[str]]:
    """The fused top 100 of every claim under ``mode`` and ``setting`` (the graph's weights and ``fuse``)."""
    run = {}
    for qid, row in rows.items():
        alts = row["alt"][setting["prf_terms"]] if mode in ("multi_query", "both") else []
        hyp = row["hyp"][setting["hypothetical_sentences"]] if mode in ("hyde", "both") else ("", [])
        transform = QueryTransform(tuple(q for q, _ in alts), hyp[0])
        queries = weighted_queries(row["question"], transform, setting["original_weight"], setting["hypothetical_weight"])
        by_query = {row["question"]: row["base"], **dict(alts), hyp[0]: hyp[1]}
        lists = [(w, by_query[q]) for q, w in queries]
        ranking = lists[0][1] if len(lists) == 1 else fuse([l for _, l in lists], setting["fusion"], [w for w, _ in lists])
        run[qid] = [key for key, _ in ranking[:DEPTH]]
    return run


def per_query(run: dict[str, list[str]], qrels: dict) -> tuple[np.ndarray, np.ndarray]:
    qids = sorted(qrels)
    return (np.array([ndcg_at_k(run.get(q, []), qrels[q], 10) for q in qids]),
            np.array([recall_at_k(run.get(q, []), qrels[q], 100) for q in qids]))


def scores(run: dict[str, list[str]], qrels: dict) -> dict[str, float]:
    ndcg, recall = per_query(run, qrels)
    return {"ndcg@10": round(float(ndcg.mean()), 4), "recall@100": round(float(recall.mean()), 4)}


def settings_for(mode: str) -> list[dict]:
    """The grid rows that matter for a mode (knobs a mode does not use stay at their first value)."""
    if mode == "none":
        return [dict(DEFAULT_SETTING)]
    grid = dict(GRID)
    if mode == "multi_query":
        grid["hypothetical_sentences"], grid["hypothetical_weight"] = (GRID["hypothetical_sentences"][0],), (1.0,)
    if mode == "hyde":
        grid["prf_terms"] = (GRID["prf_terms"][0],)
    return [dict(zip(grid, values)) for values in itertools.product(*grid.values())]


def check_against_graph_code(search, rows: dict[str, dict], setting: dict, n: int = 5) -> None:
    """The fused lists above must equal what the graph's own ``search_queries`` returns."""
    for qid in list(rows)[:n]:
        row = rows[qid]
        alts = row["alt"][setting["prf_terms"]]
        hyp = row["hyp"][setting["hypothetical_sentences"]]
        queries = weighted_queries(row["question"], QueryTransform(tuple(q for q, _ in alts), hyp[0]),
                                   setting["original_weight"], setting["hypothetical_weight"])
        hits, notes = search_queries(search, queries, DEPTH, setting["fusion"], depth=DEPTH)
        expected = fused_run({qid: row}, "both", setting)[qid]
        assert not notes and [doc_key(d) for d, _ in hits] == expected, f"fusion differs from the graph's on {qid}"


def bootstrap(diff: np.ndarray, seed: int = 0, n: int = 2000) -> list[float]:
    """95% percentile interval of the mean of paired per-claim differences."""
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), size=(n, len(diff)))].mean(axis=1)
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "test"], required=True)
    parser.add_argument("--retrievers", nargs="+", default=list(RETRIEVERS), choices=RETRIEVERS)
    parser.add_argument("--limit", type=int, default=None, help="first n claims only (a smoke test; nothing is saved)")
    parser.add_argument("--sample", type=int, default=None, help="a seeded sample of n claims (train: tune on it; "
                        "test: report on it, when the full 300 do not fit the machine's time)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    data = load_beir(DATA, args.split)
    qids = sorted(data.queries, key=int)[: args.limit]
    if args.sample:
        qids = sorted(random.Random(args.seed).sample(qids, args.sample), key=int)
    questions, qrels = {q: data.queries[q] for q in qids}, {q: data.qrels[q] for q in qids}
    embedder = load_embedder()
    retrievers, lookup = build_retrievers(data.documents(), embedder)
    chosen = {}
    if args.split == "test":
        train = json.loads(OUT["train"].read_text(encoding="utf-8"))
        chosen = {name: {mode: train["retrievers"][name]["chosen"][mode]["setting"] for mode in MODES}
                  for name in args.retrievers}
        grids = {name: {k: tuple(sorted({chosen[name][m][k] for m in MODES if m != "none"}))
                        for k in ("prf_terms", "hypothetical_sentences")} for name in args.retrievers}
    else:
        grids = {name: {k: GRID[k] for k in ("prf_terms", "hypothetical_sentences")} for name in args.retrievers}
    start = time.perf_counter()
    collected = collect(retrievers, lookup, questions, grids, embedder)
    print(f"lists collected in {time.perf_counter() - start:.0f} s")
    results: dict[str, dict] = {}
    for name in args.retrievers:
        rows = collected[name]
        print(name)
        if args.split == "train":
            if name == "bm25":  # deterministic (no embedding): the fusion path must be the graph's, exactly
                check_against_graph_code(retrievers[name], rows, settings_for("both")[0])
            table = {mode: sorted(({"setting": s, **scores(fused_run(rows, mode, s), qrels)} for s in settings_for(mode)),
                                  key=lambda r: (-r["ndcg@10"], -r["recall@100"])) for mode in MODES}
            results[name] = {"chosen": {mode: rows_[0] for mode, rows_ in table.items()},
                             "rows": {mode: rows_ for mode, rows_ in table.items() if mode != "none"}}
            for mode in MODES:
                print(f"  {mode:12} {table[mode][0]}")
        else:
            base_ndcg, base_recall = per_query(fused_run(rows, "none", chosen[name]["none"]), qrels)
            report = {}
            for mode in MODES:
                ndcg, recall = per_query(fused_run(rows, mode, chosen[name][mode]), qrels)
                report[mode] = {"setting": chosen[name][mode], "ndcg@10": round(float(ndcg.mean()), 4),
                                "recall@100": round(float(recall.mean()), 4)}
                if mode != "none":
                    report[mode]["ndcg@10_minus_none"] = round(float((ndcg - base_ndcg).mean()), 4)
                    report[mode]["ndcg@10_minus_none_95ci"] = bootstrap(ndcg - base_ndcg)
                    report[mode]["recall@100_minus_none"] = round(float((recall - base_recall).mean()), 4)
                    report[mode]["recall@100_minus_none_95ci"] = bootstrap(recall - base_recall)
                    report[mode]["claims_better_worse_ndcg@10"] = [int((ndcg > base_ndcg + 1e-9).sum()),
                                                                   int((ndcg < base_ndcg - 1e-9).sum())]
                print(f"  {mode:12} {report[mode]}")
            results[name] = report
    if args.limit:
        print("--limit given: nothing saved")
        return
    payload = {
        "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/scifact_transforms.py --split {args.split}"
                   + (f" --sample {args.sample} --seed {args.seed}" if args.sample else "")
                   + ("" if args.retrievers == list(RETRIEVERS) else " --retrievers " + " ".join(args.retrievers)),
        "dataset": f"BEIR SciFact {args.split} split ({len(qids)} claims"
                   + (f", a seeded sample of the {len(data.queries)}" if len(qids) < len(data.queries) else "")
                   + "; 5,183 abstracts)",
        "sha256": set_hashes(args.split),
        "split_role": ("tuning: every row of the grid, best first by nDCG@10" if args.split == "train" else
                       "report: settings chosen on train; aggregates only"
                       + (f"; a seeded sample of {len(qids)} of the {len(data.queries)} test claims, so the 'none' row "
                          "is not the README's full-test figure (compare the paired differences)" if args.sample else "")),
        "retrieval_settings": "ragkit.defaults.RETRIEVAL (as ragkit bench retrieval), each query searched 100 deep",
        "first_pass_k": ADVANCED.first_pass_k, "n_alternatives": ADVANCED.n_alternatives,
        "grid": GRID if args.split == "train" else None,
        "retrievers": results,
    }
    OUT[args.split].write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print("written", OUT[args.split].relative_to(ROOT))


if __name__ == "__main__":
    main()
