"""A first look, not a decision: HNSW over the top d principal components (PCA), its top k * k_factor candidates
re-scored on the float vectors, against the float graph (hnsw-M48), on the first N vectors of the 500k gaussian corpus.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/pca_first_look.py --size 100000 --keep <ann_sweep's folder>

The projection is ``faiss.PCAMatrix(384, d)`` trained on a seeded sample (``ann_sweep.build``'s: 50,000 rows),
with its bias set to zero: FAISS's PCA subtracts the mean, and for inner product that adds a per-vector term
(the mean's projection dotted with the vector) that changes the ranking; without the bias each vector is
projected onto the centred data's principal axes, and the score misses only the residual's dot product.
Printed first: the fraction of variance the top d components hold, and the recall@10 the candidates could
reach at best (the exact scan in d dimensions, with and without the mean subtracted). Then per efSearch,
(recall@10 against the exact scan, search p50 ms, distances per query) on the 200 train queries, every
query through every index in turn (round-robin, one thread), so the ratios hold where the times move with
the load; builds use FAISS's threads. Last, per candidate, the smallest efSearch reaching ``--target`` and
its p50 as a ratio of the float graph's at its own such setting. Nothing is written.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import faiss
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ann_sweep import K, ms, recall  # noqa: E402
from sq8_first_look import first_look_data, first_look_parser  # noqa: E402

EF = (64, 96, 128, 192, 256, 384, 512, 640, 768, 1024)
DIMS = (64, 96, 128, 192)
K_FACTORS = (4, 10)


def pca(sample: np.ndarray, d: int, centred: bool = False) -> faiss.PCAMatrix:
    """The top ``d`` principal axes of ``sample``; without ``centred`` the bias (minus the projected mean) is zero."""
    matrix = faiss.PCAMatrix(sample.shape[1], d)
    matrix.train(sample)
    if not centred:
        faiss.copy_array_to_vector(np.zeros(d, dtype=np.float32), matrix.b)
    return matrix


def hnsw(d: int, ef_construction: int = 80) -> faiss.IndexHNSWFlat:
    index = faiss.IndexHNSWFlat(d, 48, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = ef_construction
    return index


def set_ef(index: faiss.Index, ef: int) -> None:
    """efSearch through any wrapper (``IndexRefine``, ``IndexPreTransform``) via ``ParameterSpace``, checked on the graph."""
    faiss.ParameterSpace().set_index_parameter(index, "efSearch", ef)
    inner = index
    while not isinstance(inner, faiss.IndexHNSW):
        inner = faiss.downcast_index(inner.base_index if isinstance(inner, faiss.IndexRefine) else inner.index)
    assert inner.hnsw.efSearch == ef, (type(index).__name__, inner.hnsw.efSearch, ef)


def round_robin(indexes: dict[str, faiss.Index], queries: np.ndarray, passes: int = 1) -> tuple[dict, dict, dict]:
    """Per index: the top-10 ids of the last pass, every search's ms and the graph distances computed, with every
    query going through every index in turn (the first index rotating with the query), one thread."""
    names = list(indexes)
    found = {name: np.empty((len(queries), K), dtype=np.int64) for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    distances = dict.fromkeys(names, 0)
    for p in range(passes):
        for i, row in enumerate(queries):
            turn = (i + p) % len(names)
            for name in names[turn:] + names[:turn]:
                faiss.cvar.hnsw_stats.reset()
                start = time.perf_counter()
                _, ids = indexes[name].search(row[None, :], K)
                times[name].append((time.perf_counter() - start) * 1000)
                distances[name] += faiss.cvar.hnsw_stats.ndis
                found[name][i] = ids[0]
    return found, times, distances


def main() -> None:
    parser = first_look_parser(__doc__)
    parser.add_argument("--target", type=float, default=0.98)
    args = parser.parse_args()
    vectors, queries, _, truth = first_look_data(args)
    sample = vectors[np.sort(np.random.default_rng(0).choice(len(vectors), min(len(vectors), 50_000), replace=False))]
    print("load average", [round(x, 2) for x in os.getloadavg()], flush=True)

    full = pca(sample, vectors.shape[1])  # held: its eigenvalues are a view into it
    eigen = faiss.vector_to_array(full.eigenvalues)
    print("variance held by the top d components", {d: round(float(eigen[:d].sum() / eigen.sum()), 3) for d in DIMS})
    for d in DIMS:  # the best the candidates can do: the exact scan in d dimensions, its top k * k_factor
        for centred in (True, False):
            matrix = pca(sample, d, centred)
            flat = faiss.IndexFlatIP(d)
            flat.add(matrix.apply(vectors))
            _, found = flat.search(matrix.apply(queries), K * max(K_FACTORS))
            print(f"pca{d}", "mean subtracted" if centred else "bias zero", "exact-scan candidate recall@10",
                  {f: round(recall(found[:, : K * f], truth), 4) for f in K_FACTORS}, flush=True)

    indexes: dict[str, faiss.Index] = {"hnsw-M48": hnsw(vectors.shape[1])}
    graphs = {d: faiss.IndexPreTransform(pca(sample, d), hnsw(d)) for d in DIMS}
    for name, index in (("hnsw-M48", indexes["hnsw-M48"]), *((f"hnsw-pca{d}-M48", g) for d, g in graphs.items())):
        start = time.perf_counter()
        index.add(vectors)
        print(name, "build s (PCA trained before)", round(time.perf_counter() - start, 1), flush=True)
    for d, graph in graphs.items():
        for f in K_FACTORS:  # each candidate its own copy of the graph and of the float vectors, as a built index has:
            own = graph if f == K_FACTORS[0] else faiss.clone_index(graph)  # shared memory would be warm in the cache
            refined = faiss.IndexRefineFlat(own, faiss.swig_ptr(vectors))
            refined.k_factor = f
            indexes[f"hnsw-pca{d}-M48-refine{f}"] = refined
    sizes = {name: round(len(faiss.serialize_index(index)) / 2**20) for name, index in indexes.items()}
    print("serialized MB (a refine index holds the float vectors too)", sizes, flush=True)

    faiss.omp_set_num_threads(1)
    names = list(indexes)
    sweep: dict[str, list[dict]] = {name: [] for name in names}
    for ef in EF:
        for index in indexes.values():
            set_ef(index, ef)
        found, times, distances = round_robin(indexes, queries)
        for name in names:
            point = {"efSearch": ef, "recall@10": round(recall(found[name], truth), 4), "p50": ms(times[name])["p50"],
                     "distances": round(distances[name] / len(queries))}
            sweep[name].append(point)
            print(name, point, flush=True)
        print("load average", [round(x, 2) for x in os.getloadavg()], flush=True)

    chosen = {name: next((p for p in sweep[name] if p["recall@10"] >= args.target), None) for name in names}
    reached = {name: indexes[name] for name in names if chosen[name]}
    for name, index in reached.items():
        set_ef(index, chosen[name]["efSearch"])
    _, again, _ = round_robin(reached, queries, passes=3)  # the ratios' own run: each index at its setting
    base = ms(again["hnsw-M48"])["p50"] if "hnsw-M48" in again else None
    print(f"\nsmallest efSearch reaching recall@10 {args.target} (train); search p50 there in the sweep and in three "
          "more round-robin passes at these settings, as a ratio of hnsw-M48's at its own such setting")
    for name in names:
        point = chosen[name]
        if point is None:
            best = max(sweep[name], key=lambda p: p["recall@10"])
            print(f"{name:26s} not reached (best {best['recall@10']} at efSearch {best['efSearch']}, {best['p50']} ms)"
                  f"  {sizes[name]} MB")
            continue
        p50 = ms(again[name])["p50"]
        ratio = f"{p50 / base:.2f}x" if base else "n/a"
        print(f"{name:26s} efSearch {point['efSearch']:5d}  recall {point['recall@10']:.4f}  p50 {point['p50']:6.2f} ms"
              f"  round-robin p50 {p50:6.2f} ms  {ratio}  {point['distances']} distances  {sizes[name]} MB")
    print("load average", [round(x, 2) for x in os.getloadavg()])


if __name__ == "__main__":
    main()
