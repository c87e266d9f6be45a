"""Retrieval benchmark on any BEIR folder: BM25, dense, hybrid and hybrid + rerank, scored by nDCG@10.

Each dense system comes in two kinds: ``dense`` embeds every document once (MiniLM reads only its first
256 word pieces), ``dense-maxp`` scores a document by its best 1,000-character chunk
(``MaxChunkDenseRetriever``); ``hybrid-maxp`` and ``hybrid-maxp+rerank`` are built on the latter.

``run_retrieval_benchmark`` builds each system over the corpus, runs every judged query of a split, and
reports nDCG@10 and Recall@100 (as BEIR does), index build time and median query latency. The command
line front end is ``ragkit bench retrieval`` (see ``ragkit.cli``). The settings are
:data:`ragkit.defaults.RETRIEVAL`, chosen on SciFact's *train* split by ``ragkit.evaluation.tuning``
(``ragkit bench tune``), so the test split stays unseen; the systems are built by
:mod:`ragkit.core.hybrid`, the same constructors the graphs' default retrievers use.

Query latency includes embedding the query (retrievers never read query vectors from the cache: a
user's query is new). Simplifications: timings are wall-clock on whatever else the machine is doing, and
document embeddings come from the on-disk cache when present, so the dense ``index_s`` of a second run
measures FAISS and the cache, not the model. The reranked system reorders the top ``rerank_depth`` hybrid
results and keeps the rest of the hybrid top 100 below them, so Recall@100 is measured on the same 100
documents.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import bm25_retriever, dense_retriever, fused
from ragkit.core.maxp import maxp_retriever
from ragkit.core.rerank import LocalReranker, Reranker
from ragkit.core.search import ScoredRetriever, doc_key
from ragkit.defaults import RETRIEVAL, RetrievalDefaults
from ragkit.evaluation.beir import BeirData, load_beir
from ragkit.evaluation.ir_metrics import evaluate

SYSTEMS = ("bm25", "dense", "hybrid", "hybrid+rerank", "dense-maxp", "hybrid-maxp", "hybrid-maxp+rerank")
DEPTH = 100  # results per query: enough for Recall@100


def rerank_head(reranker: Reranker, query: str, ranked: Sequence, depth: int) -> list:
    """Rerank the first ``depth`` documents of ``ranked`` and keep the rest in their original order.

    >>> import numpy as np
    >>> from langchain_core.documents import Document
    >>> class ByLength(Reranker):
    ...     def scores(self, query, docs): return np.array([len(d.page_content) for d in docs], float)
    >>> docs = [Document("a"), Document("bbb"), Document("cc")]
    >>> [d.page_content for d in rerank_head(ByLength(), "q", docs, depth=2)]
    ['bbb', 'a', 'cc']
    """
    head = [doc for doc, _ in reranker.rerank_with_scores(query, ranked[:depth], depth)] if depth else []
    return head + list(ranked[depth:])


class Timer:
    """A tiny stopwatch: ``with Timer() as t: ...`` then ``t.seconds``."""

    def __enter__(self) -> Timer:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start


def build_systems(data: BeirData, names: Sequence[str], config: RetrievalDefaults, embeddings: Embeddings) -> dict[str, tuple[Callable[[str], list], float]]:
    """``name -> (search(query) -> ranked documents, index build seconds)`` for each requested system.

    Indexes are built once and shared: ``hybrid-maxp`` reuses the ``bm25`` index, for example. A hybrid's
    index time is the sum of its parts.
    """
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        raise ValueError(f"unknown system(s) {unknown}; choose from {list(SYSTEMS)}")
    docs = data.documents()
    built: dict[str, tuple[ScoredRetriever, float]] = {}

    def index(name: str) -> tuple[ScoredRetriever, float]:
        if name in built:
            return built[name]
        if name.startswith("hybrid"):
            maxp = name == "hybrid-maxp"
            (bm25, bm25_s), (dense, dense_s) = index("bm25"), index("dense-maxp" if maxp else "dense")
            built[name] = (fused(bm25, dense, k=DEPTH, maxp=maxp, settings=config, fetch_k=DEPTH), bm25_s + dense_s)
            return built[name]
        with Timer() as t:
            if name == "bm25":
                retriever: ScoredRetriever = bm25_retriever(docs, DEPTH, config)
            else:
                retriever = (maxp_retriever(docs, DEPTH, embeddings, config) if name == "dense-maxp"
                             else dense_retriever(docs, DEPTH, embeddings))
        built[name] = (retriever, t.seconds)
        return built[name]

    def plain(retriever: ScoredRetriever) -> Callable[[str], list]:
        return lambda query: [doc for doc, _ in retriever.search_with_scores(query, DEPTH)]

    def reranked(base: str, weights: dict[str, float], depth: int) -> tuple[Callable[[str], list], float]:
        reranker = LocalReranker(embeddings=embeddings, weights=weights)
        retriever, seconds = index(base)
        search = plain(retriever)
        return (lambda q: rerank_head(reranker, q, search(q), depth)), seconds

    systems: dict[str, tuple[Callable[[str], list], float]] = {}
    for name in names:
        if name == "hybrid+rerank":
            systems[name] = reranked("hybrid", config.rerank_weights, config.rerank_depth)
        elif name == "hybrid-maxp+rerank":
            systems[name] = reranked("hybrid-maxp", config.maxp_rerank_weights, config.maxp_rerank_depth)
        else:
            retriever, seconds = index(name)
            systems[name] = (plain(retriever), seconds)
    return systems


def run_retrieval_benchmark(
    data_dir: str | Path,
    split: str = "test",
    systems: Sequence[str] = SYSTEMS,
    limit_queries: int | None = None,
    config: RetrievalDefaults = RETRIEVAL,
    embeddings: Embeddings | None = None,
) -> dict[str, dict[str, float]]:
    """Evaluate each system on a BEIR split: ``{system: {"ndcg@10", "recall@100", "index_s", "query_ms_p50"}}``."""
    data = load_beir(data_dir, split)
    qids = list(data.queries)[:limit_queries] if limit_queries else list(data.queries)
    qrels = {q: data.qrels[q] for q in qids}
    results: dict[str, dict[str, float]] = {}
    for name, (search, index_s) in build_systems(data, systems, config, embeddings or load_embedder()).items():
        run, latencies = {}, []
        for qid in qids:
            with Timer() as t:
                ranked = search(data.queries[qid])
            latencies.append(t.seconds * 1000)
            run[qid] = [doc_key(d) for d in ranked]
        scores = evaluate(run, qrels, ks=(10, 100))
        results[name] = {
            "ndcg@10": round(scores["ndcg@10"], 4),
            "recall@100": round(scores["recall@100"], 4),
            "index_s": round(index_s, 2),
            "query_ms_p50": round(statistics.median(latencies), 2),
        }
    return results


def format_table(results: dict[str, dict[str, float]]) -> str:
    """A plain-text table of benchmark results, one system a row.

    >>> print(format_table({"bm25": {"ndcg@10": 0.69, "recall@100": 0.92, "index_s": 1.5, "query_ms_p50": 9.0}}))
    system               nDCG@10  Recall@100   index_s  query_ms_p50
    bm25                  0.6900      0.9200      1.50          9.00
    """
    lines = [f"{'system':<20}{'nDCG@10':>8}{'Recall@100':>12}{'index_s':>10}{'query_ms_p50':>14}"]
    for name, r in results.items():
        lines.append(f"{name:<20}{r['ndcg@10']:>8.4f}{r['recall@100']:>12.4f}{r['index_s']:>10.2f}{r['query_ms_p50']:>14.2f}")
    return "\n".join(lines)


def config_dict(config: RetrievalDefaults) -> dict:
    """The config as plain JSON-ready data."""
    return asdict(config)


