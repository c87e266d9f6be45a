"""Grid searches that chose ragkit's retrieval defaults, run on a *train* split so test stays unseen.

Each search computes the expensive part once (term frequencies, top-100 lists, reranker signals) and
then scores every grid point with cheap array arithmetic, picking the point with the best mean nDCG@10.

- ``tune_bm25``: k1 and b. Query-term frequencies do not depend on k1 or b, so they are gathered once
  (``BM25Retriever.term_matrix``) and the BM25 formula (:func:`bm25_scores`, tested
  equal to ``BM25Retriever.scores``) is re-evaluated with numpy for each pair.
- ``tune_fusion``: RRF's k and the BM25 weight alpha, and weighted score fusion's alpha, scored with
  ``ragkit.core.hybrid.fuse``, the same function ``HybridRetriever`` runs.
- ``tune_reranker``: LocalReranker's four weights (a 0.1-step grid on the simplex) and how many hybrid
  results it reorders.
- ``graph_walk_grid``: GraphRetriever's walk (direction, damping, seed depth, mix) on precomputed seeds,
  ranked as :meth:`ragkit.core.graph_retriever.GraphRetriever.rank` ranks them, with one PageRank per
  query and setting shared by every mix (the statute QA and MuSiQue benchmarks use it).
- ``tune_on_split(..., dense="maxp")`` does the same with ``MaxChunkDenseRetriever`` as the dense side,
  after choosing whether the whole text joins the chunks as one more passage (``include_whole``). The
  chunk size stays at 1,000 characters (150 overlap): each other size would mean embedding ~10,000 to
  20,000 new chunks.

The chosen values are recorded in :mod:`ragkit.defaults` by hand, with a note of where they came from.

Simplification: plain grid search, one split, no cross-validation; ties go to the first grid point.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np
from langchain_core.documents import Document

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.graph_retriever import GraphRetriever, mix_scores, seed_weights
from ragkit.core.hybrid import DEFAULT_RRF_K, fuse
from ragkit.core.maxp import MaxChunkDenseRetriever
from ragkit.core.rerank import FEATURES, LocalReranker, scale_columns
from ragkit.core.search import doc_key
from ragkit.defaults import GRADER, RETRIEVAL
from ragkit.evaluation.ir_metrics import evaluate
from ragkit.offline.graders import LocalGrader

Ranked = dict[str, list[tuple[str, float]]]  # query id -> [(doc id, score)] best first


def bm25_scores(idf: np.ndarray, tf: np.ndarray, doc_len: np.ndarray, avgdl: float, k1: float, b: float) -> np.ndarray:
    """The BM25 formula on arrays: ``sum_t idf_t * tf_td * (k1 + 1) / (tf_td + k1 * (1 - b + b * |d| / avgdl))``.

    ``idf`` has one entry per query term, ``tf`` is ``(terms, documents)``; returns one score per document.
    :func:`tune_bm25` re-evaluates it for many (k1, b) pairs from term frequencies gathered once.

    >>> bm25_scores(np.array([1.0]), np.array([[1.0, 0.0]]), np.array([2.0, 2.0]), 2.0, k1=1.2, b=0.75).tolist()
    [1.0, 0.0]
    """
    if len(idf) == 0:
        return np.zeros(len(doc_len))
    norm = k1 * (1 - b + b * doc_len / avgdl)
    return (idf[:, None] * tf * (k1 + 1) / (tf + norm)).sum(axis=0)


def ndcg10(run: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> float:
    return evaluate(run, qrels, ks=(10,))["ndcg@10"]


def tune_bm25(retriever: BM25Retriever, queries: dict[str, str], qrels: dict[str, dict[str, int]],
              k1s: Sequence[float] = (0.5, 0.7, 0.9, 1.2, 1.5, 2.0), bs: Sequence[float] = (0.3, 0.5, 0.6, 0.75, 0.9, 1.0)) -> dict:
    """nDCG@10 for each (k1, b); returns ``{"best": {"k1", "b", "ndcg@10"}, "grid": [...]}``."""
    doc_len, avgdl = retriever.doc_lengths, retriever.average_length
    ids = [doc_key(d) for d in retriever.docs]
    per_query = {qid: retriever.term_matrix(text) for qid, text in queries.items()}
    grid = []
    for k1, b in itertools.product(k1s, bs):
        run = {}
        for qid, (idf, tf) in per_query.items():
            scores = bm25_scores(idf, tf, doc_len, avgdl, k1, b)
            top = np.argsort(-scores, kind="stable")[:10]
            run[qid] = [ids[i] for i in top if scores[i] > 0]
        grid.append({"k1": k1, "b": b, "ndcg@10": round(ndcg10(run, qrels), 4)})
    return {"best": max(grid, key=lambda row: row["ndcg@10"]), "grid": grid}


def tune_fusion(bm25: Ranked, dense: Ranked, qrels: dict[str, dict[str, int]],
                rrf_ks: Sequence[int] = (1, 5, 10, 20, 30, 60, 100), alphas: Sequence[float] = tuple(np.round(np.arange(0.1, 0.95, 0.1), 2))) -> dict:
    """nDCG@10 of RRF (k, alpha) and weighted fusion (alpha) from fixed top-100 lists of both retrievers."""
    grid = []
    for method, k, alpha in [("rrf", k, a) for k in rrf_ks for a in alphas] + [("weighted", None, a) for a in alphas]:
        run = {}
        for qid in qrels:
            ranking = fuse([bm25[qid], dense[qid]], method, [alpha, 1 - alpha], k or DEFAULT_RRF_K)
            run[qid] = [key for key, _ in ranking[:10]]
        grid.append({"method": method, "rrf_k": k, "alpha": float(alpha), "ndcg@10": round(ndcg10(run, qrels), 4)})
    return {"best": max(grid, key=lambda row: row["ndcg@10"]), "grid": grid}


def simplex(n: int, step: float = 0.1) -> list[tuple[float, ...]]:
    """All weight vectors of length n on a grid of ``step`` that sum to 1.

    >>> simplex(2, 0.5)
    [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)]
    """
    units = round(1 / step)
    return [tuple(round(c * step, 4) for c in combo) for combo in itertools.product(range(units + 1), repeat=n) if sum(combo) == units]


def tune_reranker(reranker: LocalReranker, queries: dict[str, str], candidates: dict[str, list[Document]],
                  qrels: dict[str, dict[str, int]], depths: Sequence[int] = (10, 20, 30, 50),
                  features: Sequence[str] = ("passage", "bm25", "first_stage")) -> dict:
    """Best LocalReranker weights over ``features`` (others get 0) and rerank depth, on fixed candidate lists.

    The sentence signal is computed only if ``reranker`` gives it a weight, so add it to ``features`` then.
    Signals are computed afresh for each depth, exactly as the reranker sees that list: its BM25 statistics
    come from the candidates it is given, so the top 30 of a 50-document list would score differently.
    """
    ids = {qid: [doc_key(d) for d in candidates[qid]] for qid in qrels}
    grid = []
    for depth in depths:
        scaled = {qid: scale_columns(reranker.raw_features(queries[qid], candidates[qid][:depth])) for qid in qrels}
        for point in simplex(len(features)):
            weights = tuple(dict(zip(features, point)).get(name, 0.0) for name in FEATURES)
            w = np.array(weights)
            run = {}
            for qid in qrels:
                order = np.argsort(-(scaled[qid] @ w), kind="stable")
                run[qid] = [ids[qid][i] for i in order] + ids[qid][depth:]
            grid.append({"depth": depth, "weights": dict(zip(FEATURES, weights)), "ndcg@10": round(ndcg10(run, qrels), 4)})
    return {"best": max(grid, key=lambda row: row["ndcg@10"]), "grid": grid}


def tune_maxp(docs: Sequence[Document], embeddings, queries: dict[str, str], qrels: dict[str, dict[str, int]],
               chunk_size: int = RETRIEVAL.chunk_size, chunk_overlap: int = RETRIEVAL.chunk_overlap) -> tuple[dict, MaxChunkDenseRetriever]:
    """Dense-only nDCG@10 of MaxP over chunks alone and over chunks plus the whole text; returns the best retriever too."""
    grid, built = [], {}
    for include_whole in (False, True):
        built[include_whole] = MaxChunkDenseRetriever.from_documents(docs, embeddings, chunk_size, chunk_overlap, include_whole=include_whole)
        run = {q: [doc_key(d) for d, _ in built[include_whole].search_with_scores(queries[q], 10)] for q in qrels}
        grid.append({"chunk_size": chunk_size, "chunk_overlap": chunk_overlap, "include_whole": include_whole, "ndcg@10": round(ndcg10(run, qrels), 4)})
    best = max(grid, key=lambda row: row["ndcg@10"])
    return {"best": best, "grid": grid}, built[best["include_whole"]]


def tune_on_split(data_dir: str, split: str = "train", embeddings=None, rerank: bool = True, dense: str = "whole") -> dict:
    """Run the searches in order: BM25, (MaxP passages,) fusion on tuned BM25, then the reranker on tuned fusion.

    ``dense="whole"`` embeds each document once (``DenseRetriever``); ``dense="maxp"`` scores documents by
    their best chunk (``MaxChunkDenseRetriever``) and adds a ``"maxp"`` stage to the record.
    """
    from ragkit.core.dense import DenseRetriever
    from ragkit.core.embeddings import load_embedder
    from ragkit.core.hybrid import HybridRetriever
    from ragkit.evaluation.beir import load_beir

    if dense not in ("whole", "maxp"):
        raise ValueError(f"dense must be 'whole' or 'maxp', got {dense!r}")
    embeddings = embeddings or load_embedder()
    data = load_beir(data_dir, split)
    docs = data.documents()
    record: dict = {"dataset": str(data_dir), "split": split, "queries": len(data.queries), "dense": dense}
    record["bm25"] = tune_bm25(BM25Retriever.from_documents(docs), data.queries, data.qrels)
    best = record["bm25"]["best"]
    bm25 = BM25Retriever.from_documents(docs, k1=best["k1"], b=best["b"])
    if dense == "maxp":
        record["maxp"], dense_retriever = tune_maxp(docs, embeddings, data.queries, data.qrels)
    else:
        dense_retriever = DenseRetriever.from_documents(docs, embeddings=embeddings)

    def top100(retriever) -> Ranked:
        return {q: [(doc_key(d), s) for d, s in retriever.search_with_scores(text, 100)] for q, text in data.queries.items()}

    record["fusion"] = tune_fusion(top100(bm25), top100(dense_retriever), data.qrels)
    if rerank:
        fusion = record["fusion"]["best"]
        hybrid = HybridRetriever(retrievers=[bm25, dense_retriever], method=fusion["method"], rrf_k=fusion["rrf_k"] or DEFAULT_RRF_K, alpha=fusion["alpha"])
        candidates = {q: [d for d, _ in hybrid.search_with_scores(text, 100)] for q, text in data.queries.items()}
        record["reranker"] = tune_reranker(LocalReranker(embeddings=embeddings, weights={"sentence": 0.0}), data.queries, candidates, data.qrels)
    return record


class _PrecomputedSeeds:
    """The seed retriever of a walk grid: the seeds are passed to ``ppr``, never searched for."""

    def search_with_scores(self, query: str, k: int | None = None) -> list:
        raise RuntimeError("a walk grid passes precomputed seeds")


def graph_walk_grid(graph, seed_runs: Sequence[Sequence[tuple[Document, float]]], k: int, directions: Sequence[str],
                    dampings: Sequence[float], seed_ks: Sequence[int], mixes: Sequence[float]) -> Iterator[tuple[dict, list[list[str]]]]:
    """For every walk setting, in grid order (direction, damping, seed_k, then mix): the setting and the top-``k``
    document ids of each query, from its precomputed seeds (best first, at least ``max(seed_ks)`` deep)."""
    for direction in directions:
        walker = GraphRetriever(graph=graph, base=_PrecomputedSeeds(), direction=direction)  # one PageRankWalk per direction
        for damping, seed_k in itertools.product(dampings, seed_ks):
            walker = walker.model_copy(update={"damping": damping, "seed_k": seed_k})
            ranked: dict[float, list[list[str]]] = {mix: [] for mix in mixes}
            for run in seed_runs:
                seeds = list(run[:seed_k])
                weights, ppr = seed_weights(seeds), walker.ppr(seeds)
                for mix in mixes:
                    ranked[mix].append([key for key, _ in mix_scores(weights, ppr, mix)[:k]])
            for mix in mixes:
                yield {"direction": direction, "damping": damping, "seed_k": seed_k, "mix": mix}, ranked[mix]


# ---------------------------------------------------------------- the document grader's weights and threshold
def fit_grader(grader: LocalGrader, X: np.ndarray, y: np.ndarray, l2: float = 1e-2,
               recall_target: float | None = GRADER.recall_target) -> LocalGrader:
    """Refit ``grader``'s weights on labelled feature rows (from ``grader.features``), then its threshold,
    which keeps ``recall_target`` of the relevant rows (``None``: the F1-best threshold); returns ``grader``."""
    grader.weights, grader.bias = fit_logistic(X, y, l2=l2)
    p, y = grader.probability(X), np.asarray(y)
    grader.threshold = best_f1_threshold(p, y) if recall_target is None else threshold_for_recall(p, y, recall_target)
    return grader


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1e-2, iterations: int = 50) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method; returns ``(weights, bias)``.

    >>> w, b = fit_logistic(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    >>> bool(w[0] > 0), bool(b < 0)
    (True, True)
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    A = np.hstack([X, np.ones((len(X), 1))])
    theta = np.zeros(A.shape[1])
    reg = l2 * np.eye(A.shape[1])
    reg[-1, -1] = 0.0  # the bias is not penalised
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(A @ theta)))
        step = np.linalg.solve((A * (p * (1 - p))[:, None]).T @ A + reg, A.T @ (p - y) + reg @ theta)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def threshold_for_recall(scores: np.ndarray, labels: np.ndarray, target: float) -> float:
    """The highest score threshold that still keeps at least ``target`` of the relevant pairs.

    >>> threshold_for_recall(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 0, 1, 0]), 1.0)
    0.3
    """
    positives = np.sort(np.asarray(scores)[np.asarray(labels) == 1])[::-1]
    if len(positives) == 0:
        raise ValueError("no relevant pairs: cannot pick a threshold for a recall target")
    return float(positives[max(1, int(np.ceil(target * len(positives)))) - 1])


def best_f1_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """The score threshold that maximises F1 (ties: the higher threshold).

    >>> best_f1_threshold(np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 1, 0, 0]))
    0.8
    """
    best, best_f1 = 0.5, -1.0
    for t in sorted(set(np.round(scores, 6).tolist()), reverse=True):
        predicted = scores >= t
        f1 = 2 * float((predicted & (labels == 1)).sum()) / max(predicted.sum() + (labels == 1).sum(), 1)
        if f1 > best_f1:
            best, best_f1 = t, f1
    return float(best)
