"""The retrieval benchmark on a tiny BEIR folder built in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document

from ragkit.bench import SYSTEMS, BenchConfig, format_table, rerank_head, run_retrieval_benchmark
from ragkit.retrieval.rerank import Reranker

TOPICS = {
    "d1": ("Tides", "Ocean tides are caused by the gravitational pull of the moon."),
    "d2": ("Bees", "Honey bees dance to tell the hive where flowers are."),
    "d3": ("Bread", "Sourdough rises because wild yeast ferments the dough."),
    "d4": ("Chess", "Castling moves the king two squares towards a rook."),
    "d5": ("Volcanoes", "Volcanoes erupt when magma pressure builds under the crust."),
    "d6": ("Tea", "Green tea tastes bitter if the water is boiling."),
}
QUERIES = {"q1": ("What causes ocean tides?", "d1"), "q2": ("Why do bees dance?", "d2"), "q3": ("When do volcanoes erupt?", "d5")}


def make_beir(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps({"_id": k, "title": t, "text": x}) + "\n" for k, (t, x) in TOPICS.items()))
    (folder / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in QUERIES.items()))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, (_, d) in QUERIES.items()))
    return folder


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path / "cache"))


def test_benchmark_reports_every_system(tmp_path, private_cache):
    results = run_retrieval_benchmark(make_beir(tmp_path / "beir"), "test")
    assert list(results) == list(SYSTEMS)
    for name, row in results.items():
        assert set(row) == {"ndcg@10", "recall@100", "index_s", "query_ms_p50"}
        assert row["ndcg@10"] == pytest.approx(1.0), name  # each query has one obvious answer
        assert row["recall@100"] == pytest.approx(1.0), name


def test_benchmark_subset_of_systems_and_queries(tmp_path, private_cache):
    folder = make_beir(tmp_path / "beir")
    results = run_retrieval_benchmark(folder, "test", systems=["bm25"], limit_queries=2, config=BenchConfig(k1=1.2, b=0.5))
    assert list(results) == ["bm25"]
    with pytest.raises(ValueError, match="unknown system"):
        run_retrieval_benchmark(folder, "test", systems=["bm25", "magic"])


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
