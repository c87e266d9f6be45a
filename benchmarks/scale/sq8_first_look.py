"""A first look, not a decision: HNSW over float vectors against HNSW over 8-bit codes (SQ8), with and
without re-scoring the top 40 on the float vectors, on the first N vectors of the 500k gaussian corpus.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/sq8_first_look.py --size 100000 --keep <ann_sweep's folder>

Prints, per efSearch, (recall@10 against the exact scan, search p50 ms) on the 200 train queries, searched
one at a time on one thread; builds use FAISS's threads. Nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import faiss
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ann_sweep import K, ms, recall, search_one_by_one  # noqa: E402

from ragkit.core.embeddings import embed, load_embedder  # noqa: E402
from ragkit.evaluation.beir import load_beir  # noqa: E402
from ragkit.evaluation.scale import scale_corpus  # noqa: E402


def timed(index: faiss.Index, queries: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """(recall@10 against ``truth``, search p50 ms), one query at a time, as ``ann_sweep.py`` measures them."""
    found, times = search_one_by_one(index, queries)
    return round(recall(found, truth), 4), ms(times)["p50"]


def first_look_parser(doc: str) -> argparse.ArgumentParser:
    """The options every first look takes: the SciFact folder, ann_sweep.py's folder, how many vectors."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets" / "scifact")
    parser.add_argument("--keep", type=Path, required=True, help="ann_sweep.py's folder (its 500k distractors)")
    parser.add_argument("--size", type=int, default=100_000)
    return parser


def first_look_data(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, faiss.Index, np.ndarray]:
    """The first ``args.size`` gaussian-corpus vectors, the 200 train queries' vectors, the exact index over the
    vectors, and the queries' exact top 10."""
    _, vectors = scale_corpus(load_beir(args.data, "test"), 500_000, keep=args.keep, vectors="gaussian")
    vectors = np.ascontiguousarray(vectors[: args.size], dtype=np.float32)
    texts = list(load_beir(args.data, "train").queries.values())[:200]
    queries = np.asarray(embed(load_embedder(), texts), dtype=np.float32)
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(vectors)
    _, truth = exact.search(queries, K)
    return vectors, queries, exact, truth


def main() -> None:
    args = first_look_parser(__doc__).parse_args()
    vectors, queries, exact, truth = first_look_data(args)

    flat = faiss.IndexHNSWFlat(vectors.shape[1], 48, faiss.METRIC_INNER_PRODUCT)
    sq8 = faiss.IndexHNSWSQ(vectors.shape[1], faiss.ScalarQuantizer.QT_8bit, 48, faiss.METRIC_INNER_PRODUCT)
    for index in (flat, sq8):
        index.hnsw.efConstruction = 80
        start = time.perf_counter()
        index.train(vectors[:50_000])
        index.add(vectors)
        print(type(index).__name__, "build s", round(time.perf_counter() - start, 1), flush=True)
    refined = faiss.IndexRefine(sq8, exact)
    refined.k_factor = 4  # the top 40 re-scored on the float vectors
    faiss.omp_set_num_threads(1)
    for ef in (128, 256, 384, 512, 768):
        flat.hnsw.efSearch = sq8.hnsw.efSearch = ef
        print(ef, "float", timed(flat, queries, truth), "sq8", timed(sq8, queries, truth),
              "sq8+refine4", timed(refined, queries, truth), flush=True)


if __name__ == "__main__":
    main()
