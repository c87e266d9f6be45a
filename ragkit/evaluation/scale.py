"""The scaling benchmark: each retriever on SciFact grown with generated distractors to 50k and 500k documents.

A corpus of ``size`` documents is SciFact's 5,183 abstracts plus ``size - 5,183`` distractors, made
deterministically from a seed:

- **text** (what BM25 reads): passages of 40 to 160 words drawn from SciFact's own word frequencies
  (lower-cased words, each drawn independently), so the distractors share SciFact's vocabulary and its
  idf statistics but say nothing;
- **vectors** (what dense search reads): embedding every distractor is out of reach here (500k texts
  at ~10-30 texts/s is hours), so each distractor gets a vector drawn from a Gaussian with the mean and
  covariance of the real abstracts' MiniLM vectors, normalised. They are unrelated to the distractor's
  text, and easier to tell from a relevant abstract than real near-misses would be; they cost the index
  exactly what real vectors cost. A second kind, ``vectors="near-real"`` (:func:`near_real_vectors`),
  places distractors around the real vectors the way the real ones sit around each other, with the
  cluster structure a single Gaussian lacks (``benchmarks/scale/ann_sweep.py`` compares ANN indexes on both).

Distractors are never relevant, so nDCG@10 on the SciFact test judgements is defined at every size (at
5k it is the plain SciFact figure). Every system runs in its own process (:func:`measure`, called by
``benchmarks/scale/run.py``), so its memory is its own: ``index_mb`` is what the process holds after
building and querying minus what it held before building (corpus, vectors, the embedder), ``peak_mb``
the highest point above that during the build and the queries (``VmHWM``, reset before the build). Query latency includes embedding
the query (ONNX MiniLM, never from the cache) and reads 100 results, as ``ragkit bench retrieval`` does; the
dense rows also time the query's embedding alone (``query_embedding_ms_p50``, embedded once more just before
each query), so the search's share is the difference.

Systems: ragkit's BM25 on rank-bm25 and on bm25s, dense exact (FAISS flat) and HNSW, the hybrid every
graph runs (bm25s + dense, exact below ``ANN_MIN_DOCS`` and HNSW above, weighted fusion); LangChain's
``BM25Retriever`` (its default ``str.split`` preprocessing), its ``FAISS`` store, and an
``EnsembleRetriever`` of the two (weights 0.5/0.5, its reciprocal rank fusion), each asked for 100.
"""

from __future__ import annotations

import os
import re
import statistics
import time
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
from langchain_core.documents import Document

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.search import doc_key
from ragkit.evaluation.beir import BeirData, load_beir
from ragkit.evaluation.ir_metrics import evaluate

SYSTEMS = ("bm25-rank_bm25", "bm25-bm25s", "dense-exact", "dense-hnsw", "hybrid",
           "langchain-bm25", "langchain-faiss", "langchain-ensemble")
SIZES = (5_183, 50_000, 500_000)
DEPTH = 100
Search = Callable[[str], list[str]]


def distractor_texts(docs: list[Document], n: int, seed: int = 0) -> list[str]:
    """``n`` passages of 40-160 words drawn from the word frequencies of ``docs`` (deterministic for a seed).

    >>> texts = distractor_texts([Document("cells divide"), Document("cells grow")], 2, seed=1)
    >>> set(" ".join(texts).split()) <= {"cells", "divide", "grow"}, [40 <= len(t.split()) <= 160 for t in texts]
    (True, [True, True])
    >>> texts == distractor_texts([Document("cells divide"), Document("cells grow")], 2, seed=1)
    True
    """
    counts = Counter(w for d in docs for w in re.findall(r"[a-z0-9][a-z0-9-]*", d.page_content.lower()))
    words = np.array(sorted(counts))
    p = np.array([counts[w] for w in words], dtype=np.float64)
    rng = np.random.default_rng(seed)
    lengths = rng.integers(40, 161, size=n)
    drawn = words[rng.choice(len(words), size=int(lengths.sum()), p=p / p.sum())]
    ends = np.cumsum(lengths)
    return [" ".join(drawn[end - length : end]) for end, length in zip(ends, lengths)]


def distractor_vectors(real: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """``n`` unit vectors from a Gaussian with the mean and covariance of ``real`` (float32, deterministic)."""
    rng = np.random.default_rng(seed + 1)
    mean, cov = real.mean(axis=0), np.cov(real, rowvar=False)
    factor = np.linalg.cholesky(cov + 1e-6 * np.eye(len(mean)))
    out = np.empty((n, real.shape[1]), dtype=np.float32)
    for start in range(0, n, 50_000):
        block = mean + rng.standard_normal((min(50_000, n - start), len(mean))) @ factor.T
        out[start : start + len(block)] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def nearest_cosines(a: np.ndarray, b: np.ndarray, exclude_self: bool = False, block: int = 4096) -> np.ndarray:
    """For each unit row of ``a``, its cosine to the nearest row of ``b`` (``exclude_self``: ``a`` is ``b``,
    a row's own cosine of 1 is skipped).

    >>> nearest_cosines(np.eye(3)[:2], np.eye(3)), nearest_cosines(np.eye(2), np.eye(2), exclude_self=True)
    (array([1., 1.], dtype=float32), array([0., 0.], dtype=float32))
    """
    out = np.empty(len(a), dtype=np.float32)
    for start in range(0, len(a), block):
        sims = a[start : start + block] @ b.T
        if exclude_self:
            rows = np.arange(len(sims))
            sims[rows, start + rows] = -np.inf
        out[start : start + block] = sims.max(axis=1)
    return out


def near_real_vectors(real: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """``n`` unit vectors that sit around the real ones the way the real ones sit around each other.

    Each distractor picks a real vector ``p`` (uniformly) and a cosine ``c`` from the real vectors' own
    nearest-neighbour cosines (each real vector's cosine to its nearest other real vector, drawn
    uniformly), and is ``c * p + sqrt(1 - c**2) * u``, where ``u`` is the unit part, orthogonal to ``p``,
    of noise drawn from a Gaussian with the real vectors' covariance (so it moves along the directions
    real embeddings vary in). Its cosine to ``p`` is exactly ``c``: the distractors' nearest-real cosines
    follow the real nearest-neighbour distribution (a little higher where another real vector is closer
    than ``p``; ``benchmarks/scale/ann_sweep.py`` measures both). They form clusters around real
    documents (about ``n / len(real)`` per document), as topics do, which a single Gaussian lacks.

    What it cannot do: the clusters are all one shape, centred on the 5k real documents, and a real
    corpus of ``n`` documents would have closer neighbours than 5k documents have among themselves.

    >>> real = np.eye(4, dtype=np.float32)[:3] * 0.8 + 0.2; real /= np.linalg.norm(real, axis=1, keepdims=True)
    >>> fake = near_real_vectors(real, 5)
    >>> fake.shape, bool(np.allclose(np.linalg.norm(fake, axis=1), 1, atol=1e-5))
    ((5, 4), True)
    """
    rng = np.random.default_rng(seed + 2)
    own = nearest_cosines(real, real, exclude_self=True).astype(np.float64)
    mean, cov = real.mean(axis=0), np.cov(real, rowvar=False)
    factor = np.linalg.cholesky(cov + 1e-6 * np.eye(len(mean)))
    out = np.empty((n, real.shape[1]), dtype=np.float32)
    for start in range(0, n, 50_000):
        m = min(50_000, n - start)
        parents = real[rng.integers(0, len(real), m)].astype(np.float64)
        c = own[rng.integers(0, len(own), m)][:, None]
        noise = rng.standard_normal((m, len(mean))) @ factor.T
        noise -= (noise * parents).sum(axis=1, keepdims=True) * parents
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        block = c * parents + np.sqrt(1.0 - c**2) * noise
        out[start : start + m] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


DISTRACTOR_VECTORS = {"gaussian": distractor_vectors, "near-real": near_real_vectors}


def scale_corpus(data: BeirData, size: int, seed: int = 0, keep: Path | None = None,
                 vectors: str = "gaussian") -> tuple[list[Document], np.ndarray]:
    """SciFact's documents and vectors (from the embedding cache), grown with distractors to ``size``.

    ``keep``: a folder where the generated distractors are stored the first time and read afterwards
    (the benchmark's processes share one corpus instead of each drawing 500k passages again).
    ``vectors``: how the distractors' vectors are made, ``"gaussian"`` (:func:`distractor_vectors`, the
    scaling table's) or ``"near-real"`` (:func:`near_real_vectors`).
    """
    import json

    if vectors not in DISTRACTOR_VECTORS:
        raise ValueError(f"vectors must be one of {sorted(DISTRACTOR_VECTORS)}, got {vectors!r}")
    docs = data.documents()
    real = embed(load_embedder(), [d.page_content for d in docs])
    extra = size - len(docs)
    if extra <= 0:
        return docs[:size], real[:size]
    tag = "" if vectors == "gaussian" else f"-{vectors}"
    texts_file, vectors_file = (keep / f"distractors-{size}-{seed}.json", keep / f"distractors-{size}-{seed}{tag}.npy") if keep else (None, None)
    if texts_file is not None and texts_file.is_file():
        texts = json.loads(texts_file.read_text(encoding="utf-8"))
    else:
        texts = distractor_texts(docs, extra, seed)
        if texts_file is not None:
            texts_file.write_text(json.dumps(texts), encoding="utf-8")
    if vectors_file is not None and vectors_file.is_file():
        fake = np.load(vectors_file)
    else:
        fake = DISTRACTOR_VECTORS[vectors](real, extra, seed)
        if vectors_file is not None:
            np.save(vectors_file, fake)
    docs += [Document(t, metadata={"id": f"gen{i}", "title": ""}, id=f"gen{i}") for i, t in enumerate(texts)]
    return docs, np.vstack([real, fake])


def build(system: str, docs: list[Document], vectors: np.ndarray, ann_path: Path | None = None) -> tuple[Search, object]:
    """``(search(query) -> top-100 document ids, the retriever)`` for one system: what is timed as its build.

    ``ann_path``: where ``dense-hnsw`` saves its graph and ``hybrid`` reads it (the same vectors, so the
    slowest build is not repeated; the hybrid's build time is then the sum of its parts).
    """
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.core.dense import ANN_MIN_DOCS, DenseRetriever
    from ragkit.core.hybrid import fused

    def ids(retriever) -> tuple[Search, object]:
        return (lambda q: [doc_key(d) for d, _ in retriever.search_with_scores(q, DEPTH)]), retriever

    def dense(index_type: str) -> DenseRetriever:
        hnsw = index_type == "hnsw" or (index_type == "auto" and len(docs) >= ANN_MIN_DOCS)
        if system == "hybrid" and hnsw and ann_path is not None and ann_path.is_file():
            import faiss

            return DenseRetriever.from_vectors(docs, faiss.read_index(str(ann_path)), k=DEPTH)
        return DenseRetriever.from_vectors(docs, vectors, index_type=index_type, k=DEPTH)

    if system.startswith("bm25-"):
        return ids(BM25Retriever.from_documents(docs, k=DEPTH, backend=system.removeprefix("bm25-")))
    if system == "dense-exact":
        return ids(dense("flat"))
    if system == "dense-hnsw":
        return ids(dense("hnsw"))
    if system == "hybrid":
        return ids(fused(BM25Retriever.from_documents(docs, k=DEPTH), dense("auto"), k=DEPTH, fetch_k=DEPTH))
    return langchain_system(system, docs, vectors), None


def langchain_system(system: str, docs: list[Document], vectors: np.ndarray) -> Search:
    """LangChain's stock parts: ``BM25Retriever``, ``FAISS`` and ``EnsembleRetriever`` of the two."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_classic.retrievers import EnsembleRetriever
        from langchain_community.retrievers import BM25Retriever as LangChainBM25
        from langchain_community.vectorstores import FAISS

    parts = []
    if system in ("langchain-bm25", "langchain-ensemble"):
        parts.append(LangChainBM25.from_documents(docs, k=DEPTH))
    if system in ("langchain-faiss", "langchain-ensemble"):
        # What FAISS.from_embeddings builds (an exact L2 index, an in-memory docstore), without first turning
        # 500k x 384 floats into Python lists.
        import faiss
        from langchain_community.docstore.in_memory import InMemoryDocstore

        index = faiss.IndexFlatL2(vectors.shape[1])
        index.add(vectors)
        keys = [doc_key(d) for d in docs]
        store = FAISS(load_embedder(), index, InMemoryDocstore(dict(zip(keys, docs))), dict(enumerate(keys)))
        parts.append(store.as_retriever(search_kwargs={"k": DEPTH}))
    retriever = parts[0] if len(parts) == 1 else EnsembleRetriever(retrievers=parts, weights=[0.5, 0.5])
    return lambda q: [doc_key(d) for d in retriever.invoke(q)][:DEPTH]


def reset_peak() -> None:
    """Start ``VmHWM`` (the peak) afresh from the current resident memory (Linux; elsewhere nothing)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:  # pragma: no cover - not Linux, or not allowed
        pass


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory (``VmRSS``) or its peak so far (``VmHWM``), in MB (Linux; elsewhere
    the peak from ``resource`` on macOS, and 0.0 on Windows, which has neither)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    try:  # pragma: no cover - not Linux
        import resource  # Unix only
    except ImportError:  # pragma: no cover - Windows
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # pragma: no cover - not Linux


def recall_against_exact(docs: list[Document], vectors: np.ndarray, ann: Search, queries: list[str], k: int = 10) -> float:
    """Share of the exact scan's top ``k`` that the approximate search also returns."""
    exact, _ = build("dense-exact", docs, vectors)
    return sum(len(set(exact(q)[:k]) & set(ann(q)[:k])) for q in queries) / (k * len(queries))


def measure(system: str, size: int, data_dir: str | Path, queries: int | None = None, seed: int = 0,
            ann_path: Path | None = None) -> dict:
    """Build one system over the ``size``-document corpus and time its queries: one row of the table."""
    data = load_beir(data_dir, "test")
    docs, vectors = scale_corpus(data, size, seed, ann_path.parent if ann_path is not None else None)
    qids = list(data.queries)[:queries] if queries else list(data.queries)
    load_embedder().embed_query("warm up the model")
    reset_peak()
    before = rss_mb()
    started = time.perf_counter()
    search, retriever = build(system, docs, vectors, ann_path)
    build_s = time.perf_counter() - started
    peak = rss_mb("VmHWM")
    search("warm up the index")
    run, latencies, embedding = {}, [], []
    for qid in qids:
        if system.startswith("dense-"):  # the query's embedding alone, timed just before the whole query
            t = time.perf_counter()
            retriever.query_vector(data.queries[qid])
            embedding.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        run[qid] = search(data.queries[qid])
        latencies.append((time.perf_counter() - t) * 1000)
    peak, after = max(peak, rss_mb("VmHWM")), rss_mb()
    row = {"system": system, "size": len(docs), "queries": len(qids), "build_s": round(build_s, 2),
           "query_ms_p50": round(statistics.median(latencies), 2),
           "query_ms_p95": round(float(np.percentile(latencies, 95)), 2),
           "before_build_mb": round(before), "index_mb": round(after - before), "peak_mb": round(peak - before),
           "ndcg@10": round(evaluate(run, {q: data.qrels[q] for q in qids}, ks=(10,))["ndcg@10"], 4),
           "ndcg@10_first10": round(evaluate(run, {q: data.qrels[q] for q in qids[:10]}, ks=(10,))["ndcg@10"], 4),
           "load_average": [round(x, 2) for x in os.getloadavg()]}
    if embedding:
        row["query_embedding_ms_p50"] = round(statistics.median(embedding), 2)
        row["query_embedding_ms_p95"] = round(float(np.percentile(embedding, 95)), 2)
    if system == "dense-hnsw":
        row["recall@10_vs_exact"] = round(recall_against_exact(docs, vectors, search, [data.queries[q] for q in qids]), 4)
        if ann_path is not None:
            import faiss

            faiss.write_index(retriever.faiss_index, str(ann_path))
    return row
