"""The retrieval benchmark on a tiny BEIR folder built in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document

from ragkit.core.rerank import Reranker
from ragkit.defaults import RetrievalDefaults
from ragkit.evaluation.bench import format_table, rerank_head, run_retrieval_benchmark

TOPICS = {
    "d1": ("Tides", "Ocean tides are caused by the gravitational pull of the moon."),
    "d2": ("Bees", "Honey bees dance to tell the hive where flowers are."),
    "d3": ("Bread", "Sourdough rises because wild yeast ferments the dough."),
    "d4": ("Chess", "Castling moves the king two squares towards a rook."),
    "d5": ("Volcanoes", "Volcanoes erupt when magma pressure builds under the crust."),
    "d6": ("Tea", "Green tea tastes bitter if the water is boiling."),
}
QUERIES = {"q1": ("What causes ocean tides?", "d1"), "q2": ("Why do bees dance?", "d2"),
           "q3": ("What makes a loaf go up?", "d3")}


def make_beir(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps({"_id": k, "title": t, "text": x}) + "\n" for k, (t, x) in TOPICS.items()))
    (folder / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in QUERIES.items()))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, (_, d) in QUERIES.items()))
    return folder


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path / "cache"))


def test_benchmark_scores_match_hand_computed_metrics(tmp_path, private_cache):
    """BM25 misses d3 for q3 (no shared word after stemming), dense finds it: the table must show the difference."""
    results = run_retrieval_benchmark(make_beir(tmp_path / "beir"), "test", systems=["bm25", "dense", "hybrid"])
    assert list(results) == ["bm25", "dense", "hybrid"]
    for row in results.values():
        assert set(row) == {"ndcg@10", "recall@100", "index_s", "query_ms_p50"}
    # q1, q2 are found at rank 1 by every system; q3 ("a loaf going up") shares no term with d3 for BM25.
    assert results["bm25"]["ndcg@10"] == pytest.approx(2 / 3, abs=1e-4)
    assert results["bm25"]["recall@100"] == pytest.approx(2 / 3, abs=1e-4)
    assert results["dense"]["recall@100"] == pytest.approx(1.0)
    assert results["hybrid"]["recall@100"] == pytest.approx(1.0)  # fusion keeps what either side found
    assert results["hybrid"]["ndcg@10"] > results["bm25"]["ndcg@10"]


def test_benchmark_subset_of_systems_and_queries(tmp_path, private_cache):
    folder = make_beir(tmp_path / "beir")
    results = run_retrieval_benchmark(folder, "test", systems=["bm25"], limit_queries=2, config=RetrievalDefaults(bm25_k1=1.2, bm25_b=0.5))
    assert list(results) == ["bm25"] and results["bm25"]["ndcg@10"] == pytest.approx(1.0)  # q1, q2: BM25 finds both
    with pytest.raises(ValueError, match="unknown system"):
        run_retrieval_benchmark(folder, "test", systems=["bm25", "magic"])


def test_maxp_systems_use_their_own_knobs_and_share_the_bm25_index(tmp_path, private_cache, monkeypatch):
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.core.maxp import MaxChunkDenseRetriever

    calls = {"maxp": [], "bm25": 0}
    real_maxp, real_bm25 = MaxChunkDenseRetriever.from_documents, BM25Retriever.from_documents

    def spy_maxp(docs, embeddings, chunk_size, chunk_overlap, include_whole, **kwargs):
        calls["maxp"].append((chunk_size, chunk_overlap, include_whole))
        return real_maxp(docs, embeddings, chunk_size, chunk_overlap, include_whole=include_whole, **kwargs)

    def spy_bm25(docs, **kwargs):
        calls["bm25"] += 1
        return real_bm25(docs, **kwargs)

    monkeypatch.setattr(MaxChunkDenseRetriever, "from_documents", spy_maxp)
    monkeypatch.setattr(BM25Retriever, "from_documents", spy_bm25)
    config = RetrievalDefaults(chunk_size=40, chunk_overlap=10, include_whole=False, maxp_alpha=0.3, maxp_rerank_depth=2)
    names = ["bm25", "dense-maxp", "hybrid-maxp", "hybrid-maxp+rerank"]
    results = run_retrieval_benchmark(make_beir(tmp_path / "beir"), "test", systems=names, config=config)
    assert list(results) == names
    assert calls == {"maxp": [(40, 10, False)], "bm25": 1}  # each index built once, with the maxp knobs
    assert results["hybrid-maxp"]["index_s"] == pytest.approx(results["bm25"]["index_s"] + results["dense-maxp"]["index_s"], abs=0.011)


def test_rerank_head_reorders_only_the_head():
    class Reverse(Reranker):
        def scores(self, query, docs):
            return np.arange(len(docs), dtype=float)  # last of the head wins

    docs = [Document(str(i)) for i in range(5)]
    assert [d.page_content for d in rerank_head(Reverse(), "q", docs, 3)] == ["2", "1", "0", "3", "4"]
    assert [d.page_content for d in rerank_head(Reverse(), "q", docs, 0)] == ["0", "1", "2", "3", "4"]


def test_format_table_has_one_row_per_system():
    row = {"ndcg@10": 0.5, "recall@100": 0.75, "index_s": 1.0, "query_ms_p50": 2.0}
    table = format_table({"bm25": row, "dense": row}).splitlines()
    assert len(table) == 3 and table[1].startswith("bm25") and "0.7500" in table[2]
