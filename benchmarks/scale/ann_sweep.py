"""Approximate dense search at 500,000 documents: FAISS index kinds and their search settings, against the exact scan.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/ann_sweep.py --keep /tmp/ann --vectors gaussian
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/ann_sweep.py --keep /tmp/ann --vectors near-real

Each run writes its vector set's entry of ``benchmarks/results/scale_ann.json`` (the other entry is kept).
The corpus is ``scale_corpus``'s (SciFact's 5,183 real MiniLM vectors + distractors, seed 0); ``--vectors``
picks the distractors' vectors (``ragkit/evaluation/scale.py``). Every index is built once and kept in
``--keep`` (``write_index``, with its build time beside it), so a second run only searches.

The settings are chosen on SciFact's *train* queries (``--tune-queries``, the first 200): for each index,
the smallest search setting whose recall@10 against the exact scan is at least ``--target`` (0.98), and
its search p50. The same settings are then measured once on the first 50 *test* queries (the scaling
table's 500k queries): recall@10, search p50/p95, and the whole query (embedding it with ONNX MiniLM,
never from the cache, plus the search). Searches run one query at a time on one thread, as a user's
query does in ``DenseRetriever``; builds use FAISS's threads (2 cores here, shared, so every time moves
with the machine's load: the load average is recorded). ``index MB`` is the size of the written index.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import faiss
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.core.embeddings import embed, embed_query, load_embedder  # noqa: E402
from ragkit.defaults import RETRIEVAL  # noqa: E402
from ragkit.evaluation.beir import load_beir  # noqa: E402
from ragkit.evaluation.scale import nearest_cosines, scale_corpus  # noqa: E402

K = 10
EF = (64, 96, 128, 192, 256, 384, 512, 640, 768, 1024, 1536, 2048)
NPROBE = (8, 16, 32, 64, 96, 128, 192, 256, 384, 512)


def ivf(d: int, nlist: int, coarse: str, codes: str) -> faiss.Index:
    """An inverted-file index: ``coarse`` quantizer ``"flat"`` or ``"hnsw"``, lists of ``"flat"`` or ``"sq8"`` codes."""
    quantizer = faiss.IndexFlatIP(d) if coarse == "flat" else faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
    if codes == "flat":
        index = faiss.IndexIVFFlat(quantizer, d, nlist, faiss.METRIC_INNER_PRODUCT)
    else:
        index = faiss.IndexIVFScalarQuantizer(quantizer, d, nlist, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT)
    index.cp.niter, index.cp.seed, index.cp.spherical = 10, 0, True  # spherical k-means: unit centroids for inner product
    index.clustering_index = faiss.IndexFlatIP(d)  # exact assignment while training, whatever the coarse quantizer
    return index


def configs(d: int, n: int) -> dict[str, tuple[Callable[[], faiss.Index], str]]:
    """``name -> (make an empty index, the search setting swept)``."""
    nlist = int(4 * math.sqrt(n))
    out: dict[str, tuple[Callable[[], faiss.Index], str]] = {}
    for m, ef_construction in ((32, 80), (48, 80), (64, 80), (32, 160), (48, 160)):
        def make(m: int = m, ef_construction: int = ef_construction) -> faiss.Index:
            index = faiss.IndexHNSWFlat(d, m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = ef_construction
            return index
        out[f"hnsw-M{m}" + ("" if ef_construction == 80 else f"-efc{ef_construction}")] = (make, "efSearch")

    def sq8(refine: int = 0) -> faiss.Index:  # the graph over 8-bit codes (4x smaller), optionally re-scored exactly
        index = faiss.IndexHNSWSQ(d, faiss.ScalarQuantizer.QT_8bit, 48, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        if not refine:
            return index
        refined = faiss.IndexRefineFlat(index)
        refined.k_factor = refine  # the top k * refine candidates re-scored on the float vectors
        return refined
    out["hnsw-sq8-M48"] = (sq8, "efSearch")
    out["hnsw-sq8-M48-refine4"] = (lambda: sq8(4), "efSearch")

    def pca(components: int, refine: int) -> faiss.Index:  # the graph over the top principal components, re-scored exactly
        graph = faiss.IndexHNSWFlat(components, 48, faiss.METRIC_INNER_PRODUCT)
        graph.hnsw.efConstruction = 80
        refined = faiss.IndexRefineFlat(faiss.IndexPreTransform(faiss.PCAMatrix(d, components), graph))
        refined.k_factor = refine  # the top k * refine candidates re-scored on the float vectors
        return refined  # build() zeroes the PCA's bias after training (pca_bias_to_zero)
    out["hnsw-pca128-M48-refine10"] = (lambda: pca(128, 10), "efSearch")
    out[f"ivf{nlist}-flat"] = (lambda: ivf(d, nlist, "flat", "flat"), "nprobe")
    out[f"ivf{nlist}-hnswcoarse-flat"] = (lambda: ivf(d, nlist, "hnsw", "flat"), "nprobe")

    def refined() -> faiss.Index:
        index = faiss.IndexRefineFlat(ivf(d, nlist, "flat", "sq8"))
        index.k_factor = 10  # the top 100 candidates re-scored exactly
        return index
    out[f"ivf{nlist}-sq8-refine100"] = (refined, "nprobe")
    return out


def searched(index: faiss.Index) -> faiss.Index:
    """The index whose settings a search uses: the base of a re-scoring ``IndexRefine``, else the index itself;
    past an ``IndexPreTransform`` (a projection), the index it feeds."""
    index = faiss.downcast_index(index.base_index if isinstance(index, faiss.IndexRefine) else index)
    return faiss.downcast_index(index.index) if isinstance(index, faiss.IndexPreTransform) else index


def pca_bias_to_zero(index: faiss.Index) -> None:
    """A trained ``PCAMatrix`` subtracts the mean; for inner product that adds a per-vector term (the projected
    mean dotted with the vector) that changes the ranking. With the bias zero each vector is projected onto the
    principal axes and a score misses only the residuals' dot product (``pca_first_look.py``)."""
    index = faiss.downcast_index(index.base_index if isinstance(index, faiss.IndexRefine) else index)
    if isinstance(index, faiss.IndexPreTransform):
        for i in range(index.chain.size()):
            transform = faiss.downcast_VectorTransform(index.chain.at(i))
            if isinstance(transform, faiss.PCAMatrix):
                faiss.copy_array_to_vector(np.zeros(transform.d_out, dtype=np.float32), transform.b)


def build(name: str, make: Callable[[], faiss.Index], vectors: np.ndarray, folder: Path, seed: int = 0) -> tuple[faiss.Index, float]:
    """The index, read from ``folder`` if built before, else built (IVF trained on 64 points per list) and written."""
    path, meta = folder / f"{name}.faiss", folder / f"{name}.json"
    if path.is_file() and meta.is_file():
        return faiss.read_index(str(path)), json.loads(meta.read_text())["build_s"]
    index = make()
    start = time.perf_counter()
    if not index.is_trained:
        base = searched(index)
        wanted = 64 * base.nlist if hasattr(base, "nlist") else 50_000  # a scalar quantizer learns each dimension's range
        sample = np.random.default_rng(seed).choice(len(vectors), min(len(vectors), wanted), replace=False)
        index.train(vectors[np.sort(sample)])
        pca_bias_to_zero(index)
    index.add(vectors)
    build_s = time.perf_counter() - start
    faiss.write_index(index, str(path))
    meta.write_text(json.dumps({"build_s": round(build_s, 1), "load_average": list(os.getloadavg())}))
    return index, round(build_s, 1)


def set_param(index: faiss.Index, param: str, value: int) -> None:
    base = searched(index)
    if param == "efSearch":
        base.hnsw.efSearch = value
        return
    base.nprobe = value
    quantizer = faiss.downcast_index(base.quantizer)
    if isinstance(quantizer, faiss.IndexHNSW):
        quantizer.hnsw.efSearch = max(64, 2 * value)


def search_one_by_one(index: faiss.Index, queries: np.ndarray, k: int = K) -> tuple[np.ndarray, list[float]]:
    """Top-``k`` row ids of each query, searched one at a time, and each search's milliseconds."""
    ids, times = np.empty((len(queries), k), dtype=np.int64), []
    for i, row in enumerate(queries):
        start = time.perf_counter()
        _, found = index.search(row[None, :], k)
        times.append((time.perf_counter() - start) * 1000)
        ids[i] = found[0]
    return ids, times


def interleaved(indexes: dict[str, tuple[faiss.Index, str, int]], queries: np.ndarray, passes: int = 3) -> dict[str, dict]:
    """Search p50/p95 of each ``name -> (index, param, value)`` at its setting, timed round-robin: every query
    goes through every index in turn (the starting index rotating each pass), so a change in the machine's
    load hits all of them alike and their ratios hold where their absolute times do not."""
    for index, param, value in indexes.values():
        set_param(index, param, value)
    times: dict[str, list[float]] = {name: [] for name in indexes}
    names = list(indexes)
    for p in range(passes):
        order = names[p % len(names):] + names[: p % len(names)]
        for row in queries:
            for name in order:
                start = time.perf_counter()
                indexes[name][0].search(row[None, :], K)
                times[name].append((time.perf_counter() - start) * 1000)
    return {name: {indexes[name][1]: indexes[name][2], "search_ms": ms(t)} for name, t in times.items()}


def prefix_index(vectors: np.ndarray) -> faiss.Index:
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    return index


def recall(found: np.ndarray, truth: np.ndarray) -> float:
    return float(np.mean([len(set(f) & set(t)) / len(t) for f, t in zip(found, truth)]))


def ms(times: list[float]) -> dict:
    return {"p50": round(statistics.median(times), 2), "p95": round(float(np.percentile(times, 95)), 2)}


def table(record: dict) -> str:
    """The README's table: per vector set and index, the setting chosen on train and what it gives on test."""
    lines = ["| vectors | index | build s | index MB | setting reaching recall@10 0.98 (train) | train search p50 ms | "
             "test recall@10 | test search p50 / p95 ms | test embed + search p50 ms |", "|---|---|---|---|---|---|---|---|---|"]
    for kind in ("gaussian", "near-real"):
        for row in record.get(kind, {}).get("indexes", []):
            last = row["sweep"][-1]
            if "test" not in row:
                lines.append(f"| {kind} | {row['index']} | {row['build_s']:.0f} | {row['index_mb']:,} | not reached "
                             f"({row['param']} {last[row['param']]}: {last['recall@10']:.3f}, {last['search_ms']['p50']:.1f} ms) | | | | |")
                continue
            test = row["test"]
            lines.append(f"| {kind} | {row['index']} | {row['build_s']:.0f} | {row['index_mb']:,} | {row['param']} "
                         f"{test[row['param']]} ({last['recall@10']:.3f}) | {last['search_ms']['p50']:.1f} | {test['recall@10']:.3f} | "
                         f"{test['search_ms']['p50']:.1f} / {test['search_ms']['p95']:.1f} | {test['embed_and_search_ms']['p50']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets" / "scifact")
    parser.add_argument("--keep", type=Path, default=None, help="folder for the distractors and the built indexes")
    parser.add_argument("--size", type=int, default=500_000)
    parser.add_argument("--vectors", choices=("gaussian", "near-real"), default="gaussian")
    parser.add_argument("--configs", default="", help="comma-separated subset of the index names (default all)")
    parser.add_argument("--tune-queries", type=int, default=200)
    parser.add_argument("--test-queries", type=int, default=50)
    parser.add_argument("--exact-sizes", default="50000,100000,200000", help="also time the exact scan of the first N vectors")
    parser.add_argument("--target", type=float, default=0.98)
    parser.add_argument("--interleave", action="store_true",
                        help="keep every index that reaches the target in memory and time them round-robin at the end")
    parser.add_argument("--save", type=Path, default=ROOT / "benchmarks" / "results" / "scale_ann.json")
    parser.add_argument("--table", action="store_true", help="print the saved results as the README's table and stop")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.save.read_text())))
        return
    folder = args.keep / f"{args.vectors}-{args.size}"
    folder.mkdir(parents=True, exist_ok=True)
    test = load_beir(args.data, "test")
    _, vectors = scale_corpus(test, args.size, keep=args.keep, vectors=args.vectors)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    real = vectors[:len(test.documents())]
    tune_texts = list(load_beir(args.data, "train").queries.values())[: args.tune_queries]
    test_texts = list(test.queries.values())[: args.test_queries]
    embedder = load_embedder()
    tune_q, test_q = (np.asarray(embed(embedder, t), dtype=np.float32) for t in (tune_texts, test_texts))
    own, distractors = nearest_cosines(real, real, exclude_self=True), nearest_cosines(vectors[len(real):][:20_000], real)
    quantiles = (0.1, 0.25, 0.5, 0.75, 0.9)
    match = {"real_to_nearest_other_real": [round(float(x), 3) for x in np.quantile(own, quantiles)],
             "distractor_to_nearest_real (first 20,000)": [round(float(x), 3) for x in np.quantile(distractors, quantiles)],
             "quantiles": list(quantiles)}
    print(match, flush=True)

    faiss.omp_set_num_threads(1)  # searches: one query, one thread, as DenseRetriever searches
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(vectors)
    tune_truth, _ = search_one_by_one(exact, tune_q)
    test_truth, exact_times = search_one_by_one(exact, test_q)
    by_size = {}
    for n in (int(x) for x in args.exact_sizes.split(",") if x):  # where the exact scan stops being cheap
        _, times = search_one_by_one(exact if n >= len(vectors) else prefix_index(vectors[:n]), test_q)
        by_size[n] = ms(times)
    embed_times = []
    for text in test_texts:
        start = time.perf_counter()
        embed_query(embedder, text)
        embed_times.append((time.perf_counter() - start) * 1000)
    entry = {"size": args.size, "vectors": args.vectors, "tune_queries": len(tune_texts), "test_queries": len(test_texts),
             "target_recall@10": args.target, "nearest_neighbour_cosines": match,
             "query_embedding_ms": ms(embed_times), "exact_search_ms": ms(exact_times), "exact_search_ms_by_size": by_size,
             "load_average_start": [round(x, 2) for x in os.getloadavg()], "indexes": []}
    print("query embedding", entry["query_embedding_ms"], "exact search", entry["exact_search_ms"], by_size, flush=True)
    chosen = set(args.configs.split(",")) if args.configs else None
    kept: dict[str, tuple[faiss.Index, str, int]] = {}
    for name, (make, param) in configs(vectors.shape[1], len(vectors)).items():
        if chosen is not None and name not in chosen:
            continue
        faiss.omp_set_num_threads(os.cpu_count() or 1)
        index, build_s = build(name, make, vectors, folder)
        faiss.omp_set_num_threads(1)
        row = {"index": name, "param": param, "build_s": build_s,
               "index_mb": round((folder / f"{name}.faiss").stat().st_size / 2**20), "sweep": []}
        for value in EF if param == "efSearch" else NPROBE:
            set_param(index, param, value)
            faiss.cvar.hnsw_stats.reset()
            found, times = search_one_by_one(index, tune_q)
            point = {param: value, "recall@10": round(recall(found, tune_truth), 4), "search_ms": ms(times)}
            if param == "efSearch":  # distances computed per query: the search's cost, whatever the load
                point["distances"] = round(faiss.cvar.hnsw_stats.ndis / len(tune_q))
            row["sweep"].append(point)
            print(name, point, flush=True)
            if point["recall@10"] >= args.target:
                break
        reached = [p for p in row["sweep"] if p["recall@10"] >= args.target]
        if reached:
            value = reached[0][param]
            set_param(index, param, value)
            found, times = search_one_by_one(index, test_q)
            totals = []
            for text in test_texts:
                start = time.perf_counter()
                index.search(embed_query(embedder, text), K)
                totals.append((time.perf_counter() - start) * 1000)
            row["test"] = {param: value, "recall@10": round(recall(found, test_truth), 4), "search_ms": ms(times),
                           "embed_and_search_ms": ms(totals)}
            print(name, "test", row["test"], flush=True)
        if param == "efSearch":  # also at ragkit's default efSearch, the setting DenseRetriever searches with
            set_param(index, param, RETRIEVAL.hnsw_ef_search)
            row["at_default"] = {param: RETRIEVAL.hnsw_ef_search, **{
                split: {"recall@10": round(recall(found, truth), 4), "search_ms": ms(times)}
                for split, (found, times), truth in (("train", search_one_by_one(index, tune_q), tune_truth),
                                                    ("test", search_one_by_one(index, test_q), test_truth))}}
            print(name, "at the default", row["at_default"], flush=True)
        entry["indexes"].append(row)
        if reached and args.interleave:
            kept[name] = (index, param, reached[0][param])
        del index
    if len(kept) > 1:  # the indexes that reached the target, each at its setting, timed against each other
        entry["interleaved_train"] = interleaved(kept, tune_q)
        print("interleaved (train)", entry["interleaved_train"], flush=True)
        kept.clear()
    entry["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    record = json.loads(args.save.read_text()) if args.save.is_file() else {}
    record["command"] = "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/ann_sweep.py --keep <folder> --vectors gaussian|near-real"
    old = {row["index"]: row for row in record.get(args.vectors, {}).get("indexes", [])}
    old.update({row["index"]: row for row in entry["indexes"]})
    entry["indexes"] = list(old.values())
    record[args.vectors] = entry
    args.save.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print("written", args.save)


if __name__ == "__main__":
    main()
