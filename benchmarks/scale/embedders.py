"""The embedder backends side by side on the whole SciFact corpus, in one run: texts/s, cosine, nDCG@10.

Every backend embeds the same 5,183 abstracts with no cache (cold), in blocks of 256 texts taken in turn
(torch, onnx, onnx-int8, then the next block in a rotated order), so a change in the machine's load hits
every backend alike. Reported per backend: texts per second, the cold dense index time (embedding plus
FAISS), the cosine of each vector to PyTorch's (min and mean), and the dense retriever's nDCG@10 and
Recall@100 on the test split with queries embedded by the same backend (query p50 includes embedding it).

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/embedders.py \
        --save benchmarks/results/scale_embedders.json

``--limit N`` embeds only the first N abstracts (a development run; nDCG is then not comparable).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import BACKENDS, EmbeddingCache, MiniLMEmbeddings, default_cache_dir
from ragkit.core.search import doc_key
from ragkit.evaluation.beir import load_beir
from ragkit.evaluation.ir_metrics import evaluate

BLOCK = 256


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/scifact"))
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--fill-cache", action="store_true",
                        help="store the torch vectors in the embedding cache afterwards (onnx shares them)")
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",")]
    data = load_beir(args.data, "test")
    docs = data.documents()[: args.limit] if args.limit else data.documents()
    texts = [d.page_content for d in docs]
    embedders = {b: MiniLMEmbeddings(cache=None, backend=b) for b in backends}
    load_before = load_average()
    started = {}
    for name, emb in embedders.items():  # load the models (and export the ONNX files) outside the timing
        t = time.perf_counter()
        emb.embed_array(["warm up"])
        started[name] = round(time.perf_counter() - t, 2)
    vectors = {b: np.zeros((len(texts), 384), dtype=np.float32) for b in backends}
    seconds = dict.fromkeys(backends, 0.0)
    for n, start in enumerate(range(0, len(texts), BLOCK)):
        block = texts[start : start + BLOCK]
        for name in backends[n % len(backends):] + backends[: n % len(backends)]:
            t = time.perf_counter()
            vectors[name][start : start + len(block)] = embedders[name].embed_array(block)
            seconds[name] += time.perf_counter() - t
        print(f"{start + len(block)}/{len(texts)} {({k: round(v, 1) for k, v in seconds.items()})} load {load_average()}",
              file=sys.stderr, flush=True)
    load_mid = load_average()
    reference = vectors.get("torch")
    results = {}
    for name in backends:
        t = time.perf_counter()
        retriever = DenseRetriever(docs=docs, embeddings=embedders[name], k=100)
        retriever._set_vectors(vectors[name])
        faiss_s = time.perf_counter() - t
        run, latencies = {}, []
        for qid, query in data.queries.items():
            t = time.perf_counter()
            run[qid] = [doc_key(d) for d, _ in retriever.search_with_scores(query, 100)]
            latencies.append((time.perf_counter() - t) * 1000)
        scores = evaluate(run, data.qrels, ks=(10, 100))
        row = {"texts_per_s": round(len(texts) / seconds[name], 2), "embed_s": round(seconds[name], 1),
               "cold_index_s": round(seconds[name] + faiss_s, 1), "model_load_s": started[name],
               "ndcg@10": round(scores["ndcg@10"], 4), "recall@100": round(scores["recall@100"], 4),
               "query_ms_p50": round(statistics.median(latencies), 2)}
        if reference is not None:
            cos = (vectors[name] * reference).sum(axis=1)
            row.update({"cosine_to_torch_min": round(float(cos.min()), 6), "cosine_to_torch_mean": round(float(cos.mean()), 6)})
            row["speedup_vs_torch"] = round(seconds["torch"] / seconds[name], 2)
        results[name] = row
    if args.fill_cache and reference is not None:
        EmbeddingCache(default_cache_dir() / "embeddings.sqlite").put_many(embedders["torch"].model_name, texts, reference)
    record = {"command": "python " + " ".join(shlex.quote(a) for a in sys.argv), "documents": len(texts),
              "queries": len(data.queries), "split": "test", "block": BLOCK,
              "load_average": {"before": load_before, "after_embedding": load_mid, "end": load_average()},
              "cpu_count": os.cpu_count(), "results": results}
    print(json.dumps(record, indent=2))
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
