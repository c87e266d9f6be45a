"""HNSW's ef_search at 500,000 documents: recall@10 against the exact scan and search time, from the graph
``run.py --keep`` saved (no rebuild). Search time is FAISS's alone (one thread, the query vectors embedded
before); ``run.py``'s query p50 adds the query embedding (a few ms).

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/hnsw_ef.py --keep /tmp/scale --size 500000
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import faiss
import numpy as np

from ragkit.core.embeddings import embed, load_embedder
from ragkit.evaluation.beir import load_beir
from ragkit.evaluation.scale import scale_corpus

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets" / "scifact")
    parser.add_argument("--keep", type=Path, required=True)
    parser.add_argument("--size", type=int, default=500_000)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--save", type=Path, default=ROOT / "benchmarks" / "results" / "scale_hnsw_ef.json")
    args = parser.parse_args()
    data = load_beir(args.data, "test")
    _, vectors = scale_corpus(data, args.size, keep=args.keep)
    queries = list(data.queries.values())[: args.queries]
    q = np.asarray(embed(load_embedder(), queries), dtype=np.float32)
    faiss.omp_set_num_threads(1)
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(np.ascontiguousarray(vectors, dtype=np.float32))
    _, truth = exact.search(q, 10)
    hnsw = faiss.read_index(str(args.keep / f"hnsw-{args.size}.faiss"))
    rows = []
    for ef in (128, 256, 512, 1024, 2048):
        faiss.downcast_index(hnsw).hnsw.efSearch = ef
        times, found = [], []
        for row in q:
            start = time.perf_counter()
            _, ids = hnsw.search(row[None, :], 10)
            times.append((time.perf_counter() - start) * 1000)
            found.append(ids[0])
        recall = float(np.mean([len(set(f) & set(t)) / 10 for f, t in zip(found, truth)]))
        rows.append({"ef_search": ef, "recall@10_vs_exact": round(recall, 4), "search_ms_p50": round(float(np.median(times)), 2),
                     "search_ms_p95": round(float(np.percentile(times, 95)), 2)})
        print(rows[-1])
    payload = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/hnsw_ef.py --keep <folder> --size 500000",
               "size": args.size, "queries": len(queries), "load_average": list(os.getloadavg()), "rows": rows}
    args.save.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print("written", args.save)


if __name__ == "__main__":
    main()
